// Streams and events (the objects behind kf_stream_t and kf_event_t) and each thread's current
// stream per device.
//
// A stream is an ordered queue of work on one device; NULL (nullptr here) is the device's
// default stream, which needs no object. Streams are reference counted: the caching allocator
// holds a reference for every block that belongs to a stream, so a stream's native handle is
// destroyed only when no handle and no block uses it. Events are owned by whoever created them.
// Both come from object pools and keep a magic word, so a released handle is a clean
// KF_INVALID_ARGUMENT (Note [Object pools]).
//
// The current stream is thread-local and per device (kf_set_current_stream); kernels are queued
// on it and new outputs belong to it. Reading it costs one thread-local load when no thread has
// set any.
#pragma once

#include <atomic>
#include <cstdint>

#include "device/backend.hpp"
#include "kernforge/kernforge.h"

constexpr uint32_t kStreamAlive = 0x6b667374u;  // "kfst"
constexpr uint32_t kEventAlive = 0x6b666576u;   // "kfev"
constexpr uint32_t kHandleDead = 0xdeadbeefu;

struct kf_stream_s {
  void* pool_link = nullptr;  // used by the pool while the object is free
  uint32_t magic = kStreamAlive;
  std::atomic<int32_t> refs{1};
  kf_device_t device{KF_DEVICE_NONE, 0};
  const kf::Backend* backend = nullptr;
  void* native = nullptr;  // the plugin's stream (NULL on a synchronous backend)
};

struct kf_event_s {
  void* pool_link = nullptr;
  uint32_t magic = kEventAlive;
  kf_device_t device{KF_DEVICE_NONE, 0};
  const kf::Backend* backend = nullptr;
  void* native = nullptr;
};

namespace kf {

using Stream = kf_stream_s;
using Event = kf_event_s;

/// A new stream on `device` (one reference). Throws when the backend cannot make one.
Stream* new_stream(const Backend& backend, kf_device_t device);
void retain_stream(Stream* s) noexcept;
/// Drops one reference; the last one destroys the native stream (after its queued work).
void release_stream(Stream* s) noexcept;
/// Validates a handle from the C ABI (NULL is not accepted here).
Stream& checked_stream(kf_stream_t s, const char* what);

/// The calling thread's current stream on `device`; nullptr = the default stream.
Stream* current_stream(kf_device_t device) noexcept;
/// Sets it (nullptr = back to the default). The thread keeps a reference to a set stream.
void set_current_stream(kf_device_t device, Stream* s);
/// The native handle of a stream (nullptr for the default).
inline void* native_stream(const Stream* s) noexcept { return s != nullptr ? s->native : nullptr; }

Event* new_event(const Backend& backend, kf_device_t device);
void release_event(Event* e) noexcept;
Event& checked_event(kf_event_t e, const char* what);

/// Waits for all work queued on `s` (nullptr = default of `device`).
void synchronize_stream(const Backend& backend, kf_device_t device, Stream* s);

}  // namespace kf
