// One collective call on a communicator: the arguments checked (contiguous tensors on a device
// type the communicator's engines serve, matching dtypes and sizes, ranks in range), the
// engine's slot called with kernforge tensor views and the device's native stream, and the work
// it started (work.hpp). A slot the plugin leaves empty is KF_UNIMPLEMENTED naming the engine
// and the call.
#pragma once

#include <cstdint>

#include "distributed/comm.hpp"
#include "distributed/work.hpp"

namespace kf {

enum class CollectiveOp { all_reduce, broadcast, all_gather, reduce_scatter, send, recv, barrier };

struct CollectiveArgs {
  CollectiveOp op = CollectiveOp::barrier;
  TensorImpl* input = nullptr;   // the tensor; all_gather and reduce_scatter: what is sent
  TensorImpl* output = nullptr;  // all_gather and reduce_scatter: what is received; else input
  int32_t reduce_op = KF_REDUCE_SUM;
  int32_t peer = 0;              // broadcast: the root; send and recv: the other rank
  int32_t tag = 0;
  bool blocking = false;         // the caller waits for it at once (no kf_work_t asked for)
};

/// The C ABI's name of the call: "kf_all_reduce", ...
const char* collective_function(CollectiveOp op) noexcept;
/// Starts the call; the work it started (not yet published). Throws on a bad argument or when
/// the engine refuses to start it.
Work* start_collective(Comm& comm, const CollectiveArgs& args);

}  // namespace kf
