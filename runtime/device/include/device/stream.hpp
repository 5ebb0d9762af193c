// Streams and events (the objects behind kf_stream_t and kf_event_t) and each thread's current
// stream per device.
//
// A stream is an ordered queue of work on one device; NULL (nullptr here) is the device's
// default stream, which needs no object. Streams are reference counted: the caching allocator
// holds a reference for every block that belongs to a stream, so a stream's native handle is
// destroyed only when no handle and no block uses it. Events are owned by whoever created them.
// Both live in handle tables, so a released handle is always a clean KF_INVALID_ARGUMENT, even
// once its slot holds a new stream or event (Note [Handles]).
//
// The current stream is thread-local and per device (kf_set_current_stream); kernels are queued
// on it and new outputs belong to it. Reading it costs one thread-local load when no thread has
// set any.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/handle_table.hpp"
#include "device/backend.hpp"
#include "kernforge/kernforge.h"

namespace kf {

/// A stream: the objects behind kf_stream_t handles (Note [Handles]; kf_stream_s is never
/// defined). `refs` counts every holder: the handle's creator until kf_stream_release, threads
/// that made it current, blocks of the caching allocator, record_stream.
struct Stream {
  static constexpr const char* kHandleKind = "stream";
  std::atomic<int32_t> refs{1};
  /// Whether the creator's reference is still held: kf_stream_release drops it once; a second
  /// release of the handle is refused even while others keep the stream alive.
  std::atomic<bool> creator_holds{true};
  kf_device_t device{KF_DEVICE_NONE, 0};
  const Backend* backend = nullptr;
  void* native = nullptr;  // the plugin's stream (NULL on a synchronous backend)
};

/// An event, owned by its creator (kf_event_t, never defined either).
struct Event {
  static constexpr const char* kHandleKind = "event";
  kf_device_t device{KF_DEVICE_NONE, 0};
  const Backend* backend = nullptr;
  void* native = nullptr;
};

using StreamTable = HandleTable<Stream, 8, 24>;
using EventTable = HandleTable<Event, 8, 24>;

/// The encodes and decodes of stream and event handles (nullptr <-> NULL; find_* answers
/// nullptr for a released or made-up handle).
inline Stream* find_stream(kf_stream_t h) noexcept { return StreamTable::find(handle_bits(h)); }
inline kf_stream_t handle_of(const Stream* s) noexcept {
  return s != nullptr ? handle_from_bits<kf_stream_t>(StreamTable::handle_of(s)) : nullptr;
}
inline Event* find_event(kf_event_t h) noexcept { return EventTable::find(handle_bits(h)); }
inline kf_event_t handle_of(const Event* e) noexcept {
  return e != nullptr ? handle_from_bits<kf_event_t>(EventTable::handle_of(e)) : nullptr;
}

/// A new stream on `device` (one reference). Throws when the backend cannot make one.
Stream* new_stream(const Backend& backend, kf_device_t device);
void retain_stream(Stream* s) noexcept;
/// Drops one reference; the last one destroys the native stream (after its queued work).
void release_stream(Stream* s) noexcept;
/// Validates a handle from the C ABI (NULL is not accepted here).
Stream& checked_stream(kf_stream_t s, const char* what);
/// kf_stream_release: drops the creator's reference, once (KF_INVALID_ARGUMENT after that).
void release_stream_handle(kf_stream_t s, const char* what);

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
