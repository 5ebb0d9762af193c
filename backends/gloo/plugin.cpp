// The gloo collective plugin's table (kernforge/collective.h): the entry symbol, the engine's
// line for kernforge doctor, and the slots of gloo_comm.hpp and gloo_ops.hpp. comm_split is
// left empty: the host splits a gloo communicator by joining its rendezvous again with each
// group's ranks (comm_init under a prefix of the group's).
#include <gloo/config.h>

#include "gloo_comm.hpp"
#include "gloo_ops.hpp"
#include "kernforge/collective_table.hpp"

namespace {

const char* describe() {
  return "gloo " KF_GLOO_ENGINE_VERSION " (Debian libgloo), TCP transport; file:// and env:// rendezvous";
}

kf_collective_plugin_t make_table() {
  kf_collective_plugin_t t = kf::collective::table("gloo", KF_GLOO_VERSION, "cpu");
  t.describe = &describe;
  KF_COLLECTIVE_SLOTS(t, kfgloo);
  return t;
}

}  // namespace

KF_COLLECTIVE_PLUGIN_DEFINE(make_table)
