// The NCCL collective plugin's table (kernforge/collective.h): the entry symbol, the engine's
// line for kernforge doctor, and the slots of nccl_comm.hpp, nccl_ops.hpp and nccl_work.hpp.
#include <string>

#include <nccl.h>

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
  kf_collective_plugin_t t{};
  t.struct_size = sizeof t;
  t.abi_major = KF_COLLECTIVE_ABI_MAJOR;
  t.abi_minor = KF_COLLECTIVE_ABI_MINOR;
  t.name = "nccl";
  t.version = KF_NCCL_VERSION;
  t.device_type = "cuda";
  t.describe = &describe;
  t.comm_init = &kfnccl::comm_init;
  t.comm_destroy = &kfnccl::comm_destroy;
  t.comm_abort = &kfnccl::comm_abort;
  t.comm_split = &kfnccl::comm_split;
  t.all_reduce = &kfnccl::all_reduce;
  t.broadcast = &kfnccl::broadcast;
  t.all_gather = &kfnccl::all_gather;
  t.reduce_scatter = &kfnccl::reduce_scatter;
  t.send = &kfnccl::send;
  t.recv = &kfnccl::recv;
  t.barrier = &kfnccl::barrier;
  t.work_wait = &kfnccl::work_wait;
  t.work_test = &kfnccl::work_test;
  t.work_release = &kfnccl::work_release;
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
