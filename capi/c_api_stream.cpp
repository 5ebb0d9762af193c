// The streams-and-events part of the C ABI (ABI 1.2). Semantics: device/stream.hpp.
#include "capi/startup.hpp"
#include "core/device_types.hpp"
#include "core/error.hpp"
#include "device/backend_registry.hpp"
#include "device/stream.hpp"

namespace {

using kf::operator!=;

// The stream a call means: `s` (checked), or the default of `device` when NULL.
kf::Stream* stream_or_default(kf_stream_t s, kf_device_t device, const char* what) {
  if (s == nullptr) return nullptr;
  kf::Stream& stream = kf::checked_stream(s, what);
  if (stream.device != device) {
    kf::fail(KF_INVALID_ARGUMENT, "{}: the stream is on {} but the event is on {}", what,
             kf::device_string(stream.device), kf::device_string(device));
  }
  return &stream;
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_stream_create(kf_device_t device, kf_stream_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_stream_create: out must not be NULL");
    kf::ensure_initialized();
    *out = kf::handle_of(kf::new_stream(kf::require_device(device), device));
  });
}

KF_API kf_status_t kf_stream_release(kf_stream_t stream) {
  if (stream == nullptr) return KF_OK;
  return kf::guard([&] { kf::release_stream_handle(stream, "kf_stream_release"); });
}

KF_API kf_status_t kf_stream_synchronize(kf_stream_t stream) {
  return kf::guard([&] {
    kf::Stream& s = kf::checked_stream(stream, "kf_stream_synchronize");
    kf::synchronize_stream(*s.backend, s.device, &s);
  });
}

KF_API kf_status_t kf_current_stream(kf_device_t device, kf_stream_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_current_stream: out must not be NULL");
    kf::ensure_initialized();
    kf::require_device(device);
    *out = kf::handle_of(kf::current_stream(device));
  });
}

KF_API kf_status_t kf_set_current_stream(kf_device_t device, kf_stream_t stream) {
  return kf::guard([&] {
    kf::ensure_initialized();
    kf::require_device(device);
    kf::Stream* s = stream != nullptr ? &kf::checked_stream(stream, "kf_set_current_stream")
                                      : nullptr;
    kf::set_current_stream(device, s);
  });
}

KF_API kf_status_t kf_event_create(kf_device_t device, kf_event_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_event_create: out must not be NULL");
    kf::ensure_initialized();
    *out = kf::handle_of(kf::new_event(kf::require_device(device), device));
  });
}

KF_API kf_status_t kf_event_release(kf_event_t event) {
  if (event == nullptr) return KF_OK;
  return kf::guard([&] { kf::release_event(&kf::checked_event(event, "kf_event_release")); });
}

KF_API kf_status_t kf_event_record(kf_event_t event, kf_stream_t stream) {
  return kf::guard([&] {
    kf::Event& e = kf::checked_event(event, "kf_event_record");
    kf::Stream* s = stream_or_default(stream, e.device, "kf_event_record");
    e.backend->event_record(e.device.index, e.native, kf::native_stream(s));
  });
}

KF_API kf_status_t kf_stream_wait_event(kf_stream_t stream, kf_event_t event) {
  return kf::guard([&] {
    kf::Event& e = kf::checked_event(event, "kf_stream_wait_event");
    kf::Stream* s = stream_or_default(stream, e.device, "kf_stream_wait_event");
    e.backend->event_wait(e.device.index, kf::native_stream(s), e.native);
  });
}

KF_API kf_status_t kf_event_synchronize(kf_event_t event) {
  return kf::guard([&] {
    kf::Event& e = kf::checked_event(event, "kf_event_synchronize");
    e.backend->event_synchronize(e.device.index, e.native);
  });
}

KF_API kf_status_t kf_event_query(kf_event_t event, bool* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_event_query: out must not be NULL");
    kf::Event& e = kf::checked_event(event, "kf_event_query");
    *out = e.backend->event_query(e.device.index, e.native);
  });
}

KF_API kf_status_t kf_event_elapsed_ms(kf_event_t start, kf_event_t end, double* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_event_elapsed_ms: out must not be NULL");
    kf::Event& a = kf::checked_event(start, "kf_event_elapsed_ms");
    kf::Event& b = kf::checked_event(end, "kf_event_elapsed_ms");
    if (a.device != b.device) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_event_elapsed_ms: the events are on {} and {}",
               kf::device_string(a.device), kf::device_string(b.device));
    }
    *out = a.backend->event_elapsed_ms(a.device.index, a.native, b.native);
  });
}

}  // extern "C"
