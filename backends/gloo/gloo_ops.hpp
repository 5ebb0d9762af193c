// The collective slots of the gloo plugin, each over gloo's own algorithm (gloo::allreduce,
// gloo::broadcast, gloo::allgather, gloo::barrier, unbound-buffer send and recv), and its works.
// gloo's calls block: each slot queues its call on the communicator's worker thread
// (gloo_worker.hpp) and hands back a work, or runs it to its end when the host waits at once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernforge/collective.h"

namespace kfgloo {

kf_status_t all_reduce(const kf_collective_call_t* call, void** work);
kf_status_t broadcast(const kf_collective_call_t* call, void** work);
kf_status_t all_gather(const kf_collective_call_t* call, void** work);
kf_status_t reduce_scatter(const kf_collective_call_t* call, void** work);
kf_status_t send(const kf_collective_call_t* call, void** work);
kf_status_t recv(const kf_collective_call_t* call, void** work);
kf_status_t barrier(const kf_collective_call_t* call, void** work);

kf_status_t work_wait(void* work, int64_t timeout_ms, char* error, size_t error_cap);
kf_status_t work_test(void* work, int32_t* done, char* error, size_t error_cap);
void work_release(void* work);

}  // namespace kfgloo
