// testdev_queues.hpp — the asynchronous mode of the test backend (the `testasync` plugin): every
// stream, and each device's default stream, is a worker thread running a queue of tasks in
// order. Kernels are queued (their call copied first, as a GPU launch copies its arguments);
// events are marks a queue passes; copies on a stream are queued; the synchronous copy waits for
// the default queue. So stream order, event waits, record_stream and copies to the host are
// checked on the CPU, under ThreadSanitizer too.
//
// Test switches (testdev_hooks.hpp): kernel_delay_ms makes a queued kernel sleep first (read
// when it is queued); hold keeps every queue from starting a task while set.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernforge/plugin.h"

namespace kf::testdev {

/// Queues a copy of `call` on its stream (call->stream, NULL = the default of its device) and
/// returns; `fn` runs it there.
kf_status_t queue_kernel(const kf_kernel_call_t* call, kf_kernel_fn fn);

/// Runs `fn` synchronously in the sync build, queued in the async build.
template <kf_kernel_fn Fn>
kf_status_t maybe_queued(const kf_kernel_call_t* call) noexcept {
#if KF_TESTDEV_ASYNC
  return queue_kernel(call, Fn);
#else
  return Fn(call);
#endif
}

// The plugin's device slots in the async build.
kf_status_t q_copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                   int32_t kind);
kf_status_t q_memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes);
kf_status_t q_synchronize(void* state, int32_t device);
kf_status_t q_stream_create(void* state, int32_t device, void** out_stream);
void q_stream_destroy(void* state, int32_t device, void* stream);
kf_status_t q_stream_synchronize(void* state, int32_t device, void* stream);
kf_status_t q_event_create(void* state, int32_t device, void** out_event);
void q_event_destroy(void* state, int32_t device, void* event);
kf_status_t q_event_record(void* state, int32_t device, void* event, void* stream);
kf_status_t q_event_wait(void* state, int32_t device, void* stream, void* event);
kf_status_t q_event_synchronize(void* state, int32_t device, void* event);
kf_status_t q_event_query(void* state, int32_t device, void* event, int32_t* out_done);
kf_status_t q_event_elapsed_ms(void* state, int32_t device, void* start, void* end,
                               double* out_ms);
kf_status_t q_copy_async(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                         int32_t kind, void* stream);
kf_status_t q_host_allocate(void* state, size_t bytes, void** out_ptr);
void q_host_deallocate(void* state, void* ptr, size_t bytes);

}  // namespace kf::testdev
