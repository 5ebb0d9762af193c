// slots_async.cpp — the ABI 1.2 slots of the xpu plugin: streams, events and pinned host
// memory (slots.hpp). Streams and events are the device's objects; their handles are their
// addresses, checked against the device's own lists (device.hpp).
#include <new>
#include <string>

#include "kernforge/plugin.hpp"
#include "guarded.hpp"
#include "runtime.hpp"
#include "ze_result.hpp"

namespace kf::xpu {
namespace {

XpuDevice& dev(void* state, int32_t device) { return runtime_of(state)->at(device); }

void require_out(const void* out, const char* slot) {
  if (out == nullptr) throw ZeError(KF_INVALID_ARGUMENT, std::string("xpu: ") + slot +
                                                             " without an output");
}

kf_status_t stream_create(void* state, int32_t device, void** out) {
  return guarded("stream_create", [&] {
    require_out(out, "stream_create");
    *out = dev(state, device).create_stream();
  });
}

void stream_destroy(void* state, int32_t device, void* stream) {
  XpuDevice* d = static_cast<XpuDevice*>(runtime_of(state)->device(device));
  if (d != nullptr) d->destroy_stream(stream);
}

kf_status_t stream_synchronize(void* state, int32_t device, void* stream) {
  return guarded("stream_synchronize",
                       [&] { dev(state, device).stream(stream).synchronize(); });
}

kf_status_t event_create(void* state, int32_t device, void** out) {
  return guarded("event_create", [&] {
    require_out(out, "event_create");
    *out = dev(state, device).create_event();
  });
}

void event_destroy(void* state, int32_t device, void* event) {
  XpuDevice* d = static_cast<XpuDevice*>(runtime_of(state)->device(device));
  if (d != nullptr) d->destroy_event(event);
}

kf_status_t event_record(void* state, int32_t device, void* event, void* stream) {
  return guarded("event_record", [&] {
    dev(state, device).record_event(event, stream);
  });
}

kf_status_t event_wait(void* state, int32_t device, void* stream, void* event) {
  return guarded("event_wait", [&] {
    XpuDevice& d = dev(state, device);
    d.event(event).wait(d.stream(stream));
  });
}

kf_status_t event_synchronize(void* state, int32_t device, void* event) {
  return guarded("event_synchronize",
                       [&] { dev(state, device).event(event).synchronize(); });
}

kf_status_t event_query(void* state, int32_t device, void* event, int32_t* out_done) {
  return guarded("event_query", [&] {
    require_out(out_done, "event_query");
    *out_done = dev(state, device).event(event).query() ? 1 : 0;
  });
}

kf_status_t event_elapsed_ms(void* state, int32_t device, void* start, void* end,
                             double* out_ms) {
  return guarded("event_elapsed_ms", [&] {
    require_out(out_ms, "event_elapsed_ms");
    XpuDevice& d = dev(state, device);
    *out_ms = Event::elapsed_ms(d.event(start), d.event(end), d.info());
  });
}

kf_status_t host_allocate(void* state, size_t bytes, void** out) {
  return guarded("host_allocate", [&] {
    require_out(out, "host_allocate");
    *out = nullptr;
    *out = runtime_of(state)->host_allocate(bytes);
  });
}

void host_deallocate(void* state, void* ptr, size_t /*bytes*/) {
  runtime_of(state)->host_deallocate(ptr);
}

}  // namespace

void fill_async_slots(kf_plugin_t& p) noexcept {
  p.stream_create = stream_create;
  p.stream_destroy = stream_destroy;
  p.stream_synchronize = stream_synchronize;
  p.event_create = event_create;
  p.event_destroy = event_destroy;
  p.event_record = event_record;
  p.event_wait = event_wait;
  p.event_synchronize = event_synchronize;
  p.event_query = event_query;
  p.event_elapsed_ms = event_elapsed_ms;
  p.host_allocate = host_allocate;
  p.host_deallocate = host_deallocate;
}

}  // namespace kf::xpu
