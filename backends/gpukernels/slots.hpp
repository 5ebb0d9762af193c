// slots.hpp — the CUDA plugin's memory, copy, stream and event slots of kf_plugin_t
// (memory_slots.cpp, stream_slots.cpp), over the CUDA runtime.
//
// Every slot makes the device current for its call (DeviceGuard) and reports failures through
// report() (cuda_check.hpp). Streams are cudaStream_t created non-blocking, so they order only
// through events, as the host's stream model expects; NULL is the device's default stream,
// CUDA's legacy stream 0. Events are cudaEvent_t with timing. All slots are thread-safe (the
// CUDA runtime is).
#pragma once

#include <cstddef>
#include <cstdint>

#include <string>

#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"

namespace kf::cuda {

// memory_slots.cpp
kf_status_t allocate(void* state, int32_t device, size_t bytes, void** out_ptr);
void deallocate(void* state, int32_t device, void* ptr, size_t bytes);
kf_status_t copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                 int32_t kind);
kf_status_t copy_async(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                       int32_t kind, void* stream);
kf_status_t memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes);
kf_status_t synchronize(void* state, int32_t device);
kf_status_t host_allocate(void* state, size_t bytes, void** out_ptr);
void host_deallocate(void* state, void* ptr, size_t bytes);

// stream_slots.cpp
kf_status_t stream_create(void* state, int32_t device, void** out_stream);
void stream_destroy(void* state, int32_t device, void* stream);
kf_status_t stream_synchronize(void* state, int32_t device, void* stream);
kf_status_t event_create(void* state, int32_t device, void** out_event);
void event_destroy(void* state, int32_t device, void* event);
kf_status_t event_record(void* state, int32_t device, void* event, void* stream);
kf_status_t event_wait(void* state, int32_t device, void* stream, void* event);
kf_status_t event_synchronize(void* state, int32_t device, void* event);
kf_status_t event_elapsed_ms(void* state, int32_t device, void* start, void* end,
                             double* out_ms);
kf_status_t event_query(void* state, int32_t device, void* event, int32_t* out_done);

/// The CUDA ordinal of kernforge device `device`, or -1 after reporting that it is not one.
int32_t ordinal_or_report(void* state, int32_t device);

/// Runs `fn` (returning a status) with device `device` current; KF_INVALID_ARGUMENT for a
/// device that is not one of this backend's, and a thrown KernelError as its status.
template <class Fn>
kf_status_t on_device(void* state, int32_t device, Fn&& fn) {
  const int32_t ordinal = ordinal_or_report(state, device);
  if (ordinal < 0) return KF_INVALID_ARGUMENT;
  try {
    DeviceGuard guard(ordinal);
    return fn();
  } catch (const kf::plugin::KernelError& e) {
    kf::plugin::set_error(std::string(KF_GPU_VENDOR ": ") + e.what());
    return e.status();
  }
}

}  // namespace kf::cuda
