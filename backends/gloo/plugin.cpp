// The gloo collective plugin's table (kernforge/collective.h): the entry symbol, the engine's
// line for kernforge doctor, and the slots of gloo_comm.hpp and gloo_ops.hpp. comm_split is
// left empty: the host splits a gloo communicator by joining its rendezvous again with each
// group's ranks (comm_init under a prefix of the group's).
#include <gloo/config.h>

#include "gloo_comm.hpp"
#include "gloo_ops.hpp"

namespace {

const char* describe() {
  return "gloo " KF_GLOO_ENGINE_VERSION " (Debian libgloo), TCP transport; file:// and env:// rendezvous";
}

kf_collective_plugin_t make_table() {
  kf_collective_plugin_t t{};
  t.struct_size = sizeof t;
  t.abi_major = KF_COLLECTIVE_ABI_MAJOR;
  t.abi_minor = KF_COLLECTIVE_ABI_MINOR;
  t.name = "gloo";
  t.version = KF_GLOO_VERSION;
  t.device_type = "cpu";
  t.describe = &describe;
  t.comm_init = &kfgloo::comm_init;
  t.comm_destroy = &kfgloo::comm_destroy;
  t.comm_abort = &kfgloo::comm_abort;
  t.all_reduce = &kfgloo::all_reduce;
  t.broadcast = &kfgloo::broadcast;
  t.all_gather = &kfgloo::all_gather;
  t.reduce_scatter = &kfgloo::reduce_scatter;
  t.send = &kfgloo::send;
  t.recv = &kfgloo::recv;
  t.barrier = &kfgloo::barrier;
  t.work_wait = &kfgloo::work_wait;
  t.work_test = &kfgloo::work_test;
  t.work_release = &kfgloo::work_release;
  return t;
}

}  // namespace

extern "C" KF_PLUGIN_EXPORT const kf_collective_plugin_t* kf_collective_get(uint32_t host_major,
                                                                          uint32_t host_minor) {
  (void)host_minor;
  if (host_major != KF_COLLECTIVE_ABI_MAJOR) return nullptr;
  static const kf_collective_plugin_t table = make_table();
  return &table;
}
