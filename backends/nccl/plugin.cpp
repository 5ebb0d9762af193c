// The NCCL collective plugin's table (kernforge/collective.h): the entry symbol, the engine's
// line for kernforge doctor, and the slots of nccl_comm.hpp, nccl_ops.hpp and nccl_work.hpp.
#include <string>

#include <nccl.h>

#include "kernforge/collective_table.hpp"
#include "nccl_comm.hpp"
#include "nccl_ops.hpp"
#include "nccl_work.hpp"

namespace {

// "NCCL 2.28.9 (built against 2.28.9); file:// and env:// rendezvous".
const char* describe() {
  static const std::string line = [] {
    int code = 0;
    std::string library = "unknown";
    if (ncclGetVersion(&code) == ncclSuccess && code > 0) {
      library = std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
                std::to_string(code % 100);
    }
    return "NCCL " + library + " (built against " + std::to_string(NCCL_MAJOR) + "." +
           std::to_string(NCCL_MINOR) + "." + std::to_string(NCCL_PATCH) +
           "); file:// and env:// rendezvous";
  }();
  return line.c_str();
}

kf_collective_plugin_t make_table() {
  kf_collective_plugin_t t = kf::collective::table("nccl", KF_NCCL_VERSION, "cuda");
  t.describe = &describe;
  KF_COLLECTIVE_SLOTS(t, kfnccl);
  t.comm_split = &kfnccl::comm_split;
  return t;
}

}  // namespace

KF_COLLECTIVE_PLUGIN_DEFINE(make_table)
