#include "nccl_ops.hpp"

#include <string>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "nccl_comm.hpp"
#include "nccl_errors.hpp"
#include "nccl_work.hpp"

namespace kfnccl {
namespace {

ncclDataType_t nccl_dtype(int32_t dtype, const char* what) {
  switch (dtype) {
    case KF_FLOAT16: return ncclFloat16;
    case KF_BFLOAT16: return ncclBfloat16;
    case KF_FLOAT32: return ncclFloat32;
    case KF_FLOAT64: return ncclFloat64;
    case KF_INT8: return ncclInt8;
    case KF_UINT8: return ncclUint8;
    case KF_INT32: return ncclInt32;
    case KF_UINT32: return ncclUint32;
    case KF_INT64: return ncclInt64;
    case KF_UINT64: return ncclUint64;
    default:
      throw PluginError(KF_INVALID_ARGUMENT, std::string("nccl: ") + what + " of " +
                        kf_dtype_string(dtype) + ": NCCL moves float16, bfloat16, float32, "
                        "float64, int8, uint8, int32, uint32, int64 and uint64 only; convert "
                        "the tensor first");
  }
}

ncclRedOp_t nccl_op(int32_t op, const char* what) {
  switch (op) {
    case KF_REDUCE_SUM: return ncclSum;
    case KF_REDUCE_PROD: return ncclProd;
    case KF_REDUCE_MIN: return ncclMin;
    case KF_REDUCE_MAX: return ncclMax;
    case KF_REDUCE_AVG: return ncclAvg;
    default:
      throw PluginError(KF_INVALID_ARGUMENT, std::string("nccl: ") + what + ": reduce op " +
                        std::to_string(op) + " is not sum, prod, min, max or avg");
  }
}

NcclComm& comm_of(const kf_collective_call_t& call, const char* what) {
  auto& c = *static_cast<NcclComm*>(call.comm);
  check_usable(c, what);
  return c;
}

void check_device(const NcclComm& c, const kf_tensor_view_t& t, const char* what) {
  if (t.device.index != c.device) {
    throw PluginError(KF_INVALID_ARGUMENT, std::string("nccl: ") + what + ": the tensor is on "
                      "cuda:" + std::to_string(t.device.index) + " but the communicator on "
                      "cuda:" + std::to_string(c.device) + " (set LOCAL_RANK, or make the "
                      "tensor's device current before creating the communicator)");
  }
}

void check_sizes(const NcclComm& c, int64_t big, int64_t small, const char* what) {
  if (big != small * c.size) {
    throw PluginError(KF_INVALID_ARGUMENT, std::string("nccl: ") + what + ": the larger "
                      "tensor has " + std::to_string(big) + " elements, not world size " +
                      std::to_string(c.size) + " x " + std::to_string(small));
  }
}

// NCCL would queue the receive behind the send on one stream, which waits for it forever.
void check_peer(const NcclComm& c, int32_t peer, const char* what) {
  if (peer == c.rank) {
    throw PluginError(KF_INVALID_ARGUMENT, std::string("nccl: ") + what + " to its own rank " +
                      std::to_string(peer) + ": NCCL cannot pair a send and a receive of one "
                      "rank queued on one stream; copy the tensor instead");
  }
}

// Queues `start` (an NCCL call), waits while NCCL is still enqueuing it (non-blocking
// communicators may answer ncclInProgress), then records the work.
template <class F>
kf_status_t run(const kf_collective_call_t* call, void** work, const char* what, F&& start) {
  return guarded(call->error, call->error_cap, [&] {
    NcclComm& c = comm_of(*call, what);
    auto stream = static_cast<cudaStream_t>(call->stream);
    const ncclResult_t r = start(c, stream);
    if (r == ncclInProgress) {
      wait_ready(c, deadline_after(c, call->timeout_ms), what);
    } else {
      check_nccl(r, what, c.comm);
    }
    finish_call(c, what, stream, call->timeout_ms, work);
  });
}

}  // namespace

kf_status_t all_reduce(const kf_collective_call_t* call, void** work) {
  return run(call, work, "all_reduce", [&](NcclComm& c, cudaStream_t s) {
    const kf_tensor_view_t& t = call->input;
    check_device(c, t, "all_reduce");
    return ncclAllReduce(t.data, t.data, static_cast<size_t>(t.numel),
                         nccl_dtype(t.dtype, "all_reduce"),
                         nccl_op(call->reduce_op, "all_reduce"), c.comm, s);
  });
}

kf_status_t broadcast(const kf_collective_call_t* call, void** work) {
  return run(call, work, "broadcast", [&](NcclComm& c, cudaStream_t s) {
    const kf_tensor_view_t& t = call->input;
    check_device(c, t, "broadcast");
    return ncclBroadcast(t.data, t.data, static_cast<size_t>(t.numel),
                         nccl_dtype(t.dtype, "broadcast"), call->peer, c.comm, s);
  });
}

kf_status_t all_gather(const kf_collective_call_t* call, void** work) {
  return run(call, work, "all_gather", [&](NcclComm& c, cudaStream_t s) {
    check_device(c, call->input, "all_gather");
    check_device(c, call->output, "all_gather");
    check_sizes(c, call->output.numel, call->input.numel, "all_gather");
    return ncclAllGather(call->input.data, call->output.data,
                         static_cast<size_t>(call->input.numel),
                         nccl_dtype(call->input.dtype, "all_gather"), c.comm, s);
  });
}

kf_status_t reduce_scatter(const kf_collective_call_t* call, void** work) {
  return run(call, work, "reduce_scatter", [&](NcclComm& c, cudaStream_t s) {
    check_device(c, call->input, "reduce_scatter");
    check_device(c, call->output, "reduce_scatter");
    check_sizes(c, call->input.numel, call->output.numel, "reduce_scatter");
    return ncclReduceScatter(call->input.data, call->output.data,
                             static_cast<size_t>(call->output.numel),
                             nccl_dtype(call->input.dtype, "reduce_scatter"),
                             nccl_op(call->reduce_op, "reduce_scatter"), c.comm, s);
  });
}

kf_status_t send(const kf_collective_call_t* call, void** work) {
  return run(call, work, "send", [&](NcclComm& c, cudaStream_t s) {
    const kf_tensor_view_t& t = call->input;
    check_device(c, t, "send");
    check_peer(c, call->peer, "send");
    return ncclSend(t.data, static_cast<size_t>(t.numel), nccl_dtype(t.dtype, "send"),
                    call->peer, c.comm, s);
  });
}

kf_status_t recv(const kf_collective_call_t* call, void** work) {
  return run(call, work, "recv", [&](NcclComm& c, cudaStream_t s) {
    const kf_tensor_view_t& t = call->input;
    check_device(c, t, "recv");
    check_peer(c, call->peer, "recv");
    return ncclRecv(t.data, static_cast<size_t>(t.numel), nccl_dtype(t.dtype, "recv"),
                    call->peer, c.comm, s);
  });
}

kf_status_t barrier(const kf_collective_call_t* call, void** work) {
  return run(call, work, "barrier", [&](NcclComm& c, cudaStream_t s) {
    return ncclAllReduce(c.barrier_word, c.barrier_word, 1, ncclInt32, ncclSum, c.comm, s);
  });
}

}  // namespace kfnccl
