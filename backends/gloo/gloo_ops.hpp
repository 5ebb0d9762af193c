// The collective slots of the gloo plugin, each over gloo's own algorithm (gloo::allreduce,
// gloo::broadcast, gloo::allgather, gloo::barrier, unbound-buffer send and recv). Every call
// finishes before it returns (*work = NULL): gloo's calls are synchronous.
#pragma once

#include "kernforge/collective.h"

namespace kfgloo {

kf_status_t all_reduce(const kf_collective_call_t* call, void** work);
kf_status_t broadcast(const kf_collective_call_t* call, void** work);
kf_status_t all_gather(const kf_collective_call_t* call, void** work);
kf_status_t reduce_scatter(const kf_collective_call_t* call, void** work);
kf_status_t send(const kf_collective_call_t* call, void** work);
kf_status_t recv(const kf_collective_call_t* call, void** work);
kf_status_t barrier(const kf_collective_call_t* call, void** work);

}  // namespace kfgloo
