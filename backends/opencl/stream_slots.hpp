// stream_slots.hpp — streams and events (ABI 1.2): a stream is an in-order, profiling command
// queue of its device (ClStream); an event holds the cl_event of a marker enqueued by its last
// record (none before the first, which counts as passed, as in CUDA).
#pragma once

#include <cstdint>

#include "kernforge/types.h"

namespace kf::opencl {

kf_status_t stream_create(void* state, int32_t device, void** out_stream);
void stream_destroy(void* state, int32_t device, void* stream);
kf_status_t stream_synchronize(void* state, int32_t device, void* stream);
kf_status_t event_create(void* state, int32_t device, void** out_event);
void event_destroy(void* state, int32_t device, void* event);
kf_status_t event_record(void* state, int32_t device, void* event, void* stream);
kf_status_t event_wait(void* state, int32_t device, void* stream, void* event);
kf_status_t event_synchronize(void* state, int32_t device, void* event);
kf_status_t event_query(void* state, int32_t device, void* event, int32_t* out_done);
kf_status_t event_elapsed_ms(void* state, int32_t device, void* start, void* end,
                             double* out_ms);

}  // namespace kf::opencl
