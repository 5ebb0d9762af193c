#include "device/stream.hpp"

#include <vector>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core/tls_model.hpp"

namespace kf {
namespace {

// Note [Current streams]
// Each thread keeps the few (device, stream) pairs it has set. A thread that never set one
// answers "default" after one load of t_current_count.
struct CurrentEntry {
  kf_device_t device;
  Stream* stream;
};
thread_local int32_t t_current_count KF_TLS_INITIAL_EXEC = 0;
thread_local std::vector<CurrentEntry>* t_current = nullptr;

// Releases the thread's references to its current streams when it exits.
struct CurrentReleaser {
  ~CurrentReleaser() {
    if (t_current == nullptr) return;
    for (const CurrentEntry& e : *t_current) release_stream(e.stream);
    delete t_current;
    t_current = nullptr;
    t_current_count = 0;
  }
};

std::vector<CurrentEntry>& current_entries() {
  static thread_local CurrentReleaser releaser;
  (void)releaser;
  if (t_current == nullptr) t_current = new std::vector<CurrentEntry>();
  return *t_current;
}

bool same_device(kf_device_t a, kf_device_t b) { return a.type == b.type && a.index == b.index; }

}  // namespace

Stream* new_stream(const Backend& backend, kf_device_t device) {
  void* native = backend.stream_create(device.index);
  Stream* s = nullptr;
  try {
    s = StreamTable::acquire();
  } catch (...) {  // out of memory: the plugin's stream is not left behind
    backend.stream_destroy(device.index, native);
    throw;
  }
  s->device = device;
  s->backend = &backend;
  s->native = native;
  return s;
}

void retain_stream(Stream* s) noexcept {
  if (s != nullptr) s->refs.fetch_add(1, std::memory_order_relaxed);
}

void release_stream(Stream* s) noexcept {
  if (s == nullptr || s->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  const Backend* backend = s->backend;
  const int32_t device = s->device.index;
  void* native = s->native;
  StreamTable::release(s);  // the handle stops matching before the native stream goes
  backend->stream_destroy(device, native);
}

Stream& checked_stream(kf_stream_t s, const char* what) {
  Stream* x = find_stream(s);
  if (x != nullptr) return *x;
  if (s == nullptr) {
    fail(KF_INVALID_ARGUMENT, "{}: the stream is NULL; pass a stream from kf_stream_create (or "
                              "use kf_synchronize for a device's default stream)", what);
  }
  fail(KF_INVALID_ARGUMENT, "{}: the stream handle {}", what,
       handle_problem(StreamTable::state(handle_bits(s)), Stream::kHandleKind));
}

void release_stream_handle(kf_stream_t s, const char* what) {
  Stream& x = checked_stream(s, what);
  if (!x.creator_holds.exchange(false, std::memory_order_acq_rel)) {
    fail(KF_INVALID_ARGUMENT, "{}: the stream handle was already released (the stream lives on "
                              "only while it is current or memory still uses it)", what);
  }
  release_stream(&x);
}

Stream* current_stream(kf_device_t device) noexcept {
  if (t_current_count == 0) return nullptr;
  for (const CurrentEntry& e : *t_current) {
    if (same_device(e.device, device)) return e.stream;
  }
  return nullptr;
}

void set_current_stream(kf_device_t device, Stream* s) {
  if (s != nullptr && !same_device(s->device, device)) {
    fail(KF_INVALID_ARGUMENT, "kf_set_current_stream: the stream belongs to {}, not {}",
         device_string(s->device), device_string(device));
  }
  std::vector<CurrentEntry>& entries = current_entries();
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!same_device(entries[i].device, device)) continue;
    release_stream(entries[i].stream);
    if (s == nullptr) {
      entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      retain_stream(s);
      entries[i].stream = s;
    }
    t_current_count = static_cast<int32_t>(entries.size());
    return;
  }
  if (s == nullptr) return;
  entries.push_back(CurrentEntry{device, s});
  retain_stream(s);
  t_current_count = static_cast<int32_t>(entries.size());
}

Event* new_event(const Backend& backend, kf_device_t device) {
  void* native = backend.event_create(device.index);
  Event* e = nullptr;
  try {
    e = EventTable::acquire();
  } catch (...) {  // out of memory: the plugin's event is not left behind
    backend.event_destroy(device.index, native);
    throw;
  }
  e->device = device;
  e->backend = &backend;
  e->native = native;
  return e;
}

void release_event(Event* e) noexcept {
  if (e == nullptr) return;
  const Event gone = *e;
  EventTable::release(e);
  gone.backend->event_destroy(gone.device.index, gone.native);
}

Event& checked_event(kf_event_t e, const char* what) {
  Event* x = find_event(e);
  if (x != nullptr) return *x;
  if (e == nullptr) fail(KF_INVALID_ARGUMENT, "{}: the event is NULL", what);
  fail(KF_INVALID_ARGUMENT, "{}: the event handle {}", what,
       handle_problem(EventTable::state(handle_bits(e)), Event::kHandleKind));
}

void synchronize_stream(const Backend& backend, kf_device_t device, Stream* s) {
  backend.stream_synchronize(device.index, native_stream(s));
}

}  // namespace kf
