// The NCCL plugin's collective slots (kernforge/collective.h), each one NCCL call queued on the
// call's stream (the device's native cudaStream_t; NULL: the legacy default stream) and ended
// by a work (nccl_work.hpp):
//   all_reduce      ncclAllReduce in place; sum, prod, min, max, avg (ncclAvg)
//   broadcast       ncclBroadcast in place, from the root
//   all_gather      ncclAllGather (output: world size x input's elements)
//   reduce_scatter  ncclReduceScatter (input: world size x output's elements)
//   send, recv      ncclSend, ncclRecv. NCCL has no tags: a send matches the receive its peer
//                   posts in the same order, per pair of ranks; the tag is not used.
//                   A rank's send or recv to itself is KF_INVALID_ARGUMENT
//   barrier         ncclAllReduce of one int on the communicator's device word
// Dtypes: float16, bfloat16, float32, float64, int8, uint8, int32, uint32, int64, uint64; any
// other (bool, int16, uint16, complex) is KF_INVALID_ARGUMENT naming it. Tensors must be on the
// communicator's GPU.
#pragma once

#include "kernforge/collective.h"

namespace kfnccl {

kf_status_t all_reduce(const kf_collective_call_t* call, void** work);
kf_status_t broadcast(const kf_collective_call_t* call, void** work);
kf_status_t all_gather(const kf_collective_call_t* call, void** work);
kf_status_t reduce_scatter(const kf_collective_call_t* call, void** work);
kf_status_t send(const kf_collective_call_t* call, void** work);
kf_status_t recv(const kf_collective_call_t* call, void** work);
kf_status_t barrier(const kf_collective_call_t* call, void** work);

}  // namespace kfnccl
