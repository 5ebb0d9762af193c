#include "device/backend.hpp"

#include <chrono>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core/plugin_call.hpp"

namespace kf {
namespace {

// Note [Host events]
// A synchronous backend has no events of its own: what it queues is done when the call
// returns. Its events are then host objects holding the time they were recorded, so that
// kf_event_elapsed_ms works on every backend, and waits and queries are immediate.
struct HostEvent {
  std::chrono::steady_clock::time_point recorded{};
  bool was_recorded = false;
};

constexpr size_t kHostAlignment = 64;

// The plugin's device count, refused when it is negative or absurd (more than the core can
// address: the caching allocator and the device index range stop at kMaxBackendDevices).
int32_t checked_device_count(const kf_plugin_t* plugin, void* state, const std::string& name) {
  const int32_t n = plugin->device_count(state);
  if (n < 0 || n > kMaxBackendDevices) {
    fail(KF_INVALID_ARGUMENT, "plugin '{}' reports {} devices (device_count); a backend has 0 to "
                              "{} devices: the plugin is broken, report it to its authors",
         name, n, kMaxBackendDevices);
  }
  return n;
}

}  // namespace

#define KF_HAS_SLOT(field) (has(KF_PLUGIN_SLOT_END(field)) && plugin_->field != nullptr)

Backend::Backend(const kf_plugin_t* plugin, size_t plugin_struct_size, void* plugin_state,
                 std::string backend_name, std::string type_name, int32_t type)
    : name(std::move(backend_name)),
      device_type_name(std::move(type_name)),
      device_type(type),
      device_count(checked_device_count(plugin, plugin_state, name)),
      plugin_(plugin),
      struct_size_(plugin_struct_size),
      state_(plugin_state),
      asynchronous_(plugin_has_slot(plugin_struct_size, KF_PLUGIN_SLOT_END(stream_create)) &&
                    plugin->stream_create != nullptr) {}

void Backend::fail_slot(const PluginCall& call, kf_status_t status, const char* what,
                        int32_t device) const {
  if (device < 0) call.fail(status, fmt::format("{} (backend '{}')", what, name));
  call.fail(status, fmt::format("{} on {} (backend '{}')", what,
                                device_string(kf_device_t{device_type, device}), name));
}

void Backend::fail_allocation(const PluginCall& call, int32_t status, size_t bytes,
                              int32_t device) const {
  const std::string where = device < 0 ? std::string("pinned host memory")
                                        : device_string(kf_device_t{device_type, device});
  if (status == KF_OK) {
    fail(KF_OUT_OF_MEMORY, "cannot allocate {} bytes on {} (backend '{}'): the plugin returned "
         "KF_OK but no memory; free memory or call kf_empty_cache()", bytes, where, name);
  }
  const PluginFailure f = call.failure(status);
  // The advice fits a full device only: an allocate the plugin does not implement, or one it
  // refuses for another reason, is not helped by freeing memory.
  const char* advice =
      f.status == KF_OUT_OF_MEMORY ? "; free memory or call kf_empty_cache()" : "";
  fail(f.status, "cannot allocate {} bytes on {} (backend '{}'): {}: {}{}", bytes, where, name,
       status_name(f.status), f.message, advice);
}

void Backend::check_device(kf_device_t device) const {
  if (device.index < 0 || device.index >= device_count) {
    fail(KF_INVALID_ARGUMENT, "device {} does not exist: backend '{}' has {} device(s)",
         device_string(device), name, device_count);
  }
}

void* Backend::allocate(int32_t device, size_t bytes) const {
  void* ptr = nullptr;
  const PluginCall call;
  // Held as an integer: a plugin may return a value that is no kf_status_t (known_status).
  const auto s = static_cast<int32_t>(plugin_->allocate(state_, device, bytes, &ptr));
  if (s != KF_OK || ptr == nullptr) fail_allocation(call, s, bytes, device);
  return ptr;
}

void Backend::deallocate(int32_t device, void* ptr, size_t bytes) const noexcept {
  plugin_->deallocate(state_, device, ptr, bytes);
}

void* Backend::host_allocate(size_t bytes) const {
  if (KF_HAS_SLOT(host_allocate)) {
    void* ptr = nullptr;
    const PluginCall call;
    const auto s = static_cast<int32_t>(plugin_->host_allocate(state_, bytes, &ptr));
    if (s != KF_OK || ptr == nullptr) fail_allocation(call, s, bytes, -1);
    return ptr;
  }
  return ::operator new(bytes == 0 ? 1 : bytes, std::align_val_t{kHostAlignment});
}

void Backend::host_deallocate(void* ptr, size_t bytes) const noexcept {
  if (ptr == nullptr) return;
  if (KF_HAS_SLOT(host_allocate) && KF_HAS_SLOT(host_deallocate)) {
    plugin_->host_deallocate(state_, ptr, bytes);
    return;
  }
  ::operator delete(ptr, std::align_val_t{kHostAlignment});
}

void Backend::copy(int32_t device, void* dst, const void* src, size_t bytes,
                   int32_t kind) const {
  if (bytes == 0) return;
  const PluginCall call;
  const kf_status_t s = plugin_->copy(state_, device, dst, src, bytes, kind);
  if (s != KF_OK) fail_slot(call, s, fmt::format("copying {} bytes", bytes).c_str(), device);
}

void Backend::copy_async(int32_t device, void* dst, const void* src, size_t bytes, int32_t kind,
                         void* stream) const {
  if (bytes == 0) return;
  if (!KF_HAS_SLOT(copy_async)) {
    if (stream != nullptr) stream_synchronize(device, stream);
    return copy(device, dst, src, bytes, kind);
  }
  const PluginCall call;
  const kf_status_t s = plugin_->copy_async(state_, device, dst, src, bytes, kind, stream);
  if (s != KF_OK) fail_slot(call, s, "an asynchronous copy", device);
}

void Backend::memset(int32_t device, void* dst, int32_t value, size_t bytes) const {
  if (bytes == 0) return;
  if (KF_HAS_SLOT(memset)) {
    const PluginCall call;
    const kf_status_t s = plugin_->memset(state_, device, dst, value, bytes);
    if (s != KF_OK) fail_slot(call, s, "memset", device);
    return;
  }
  const std::vector<unsigned char> filled(bytes, static_cast<unsigned char>(value));
  copy(device, dst, filled.data(), bytes, KF_COPY_HOST_TO_DEVICE);
}

void Backend::synchronize(int32_t device) const {
  if (!KF_HAS_SLOT(synchronize)) return;
  const PluginCall call;
  const kf_status_t s = plugin_->synchronize(state_, device);
  if (s != KF_OK) fail_slot(call, s, "synchronize", device);
}

void Backend::manual_seed(uint64_t seed) const {
  if (!KF_HAS_SLOT(manual_seed)) return;
  const PluginCall call;
  const kf_status_t s = plugin_->manual_seed(state_, seed);
  if (s != KF_OK) fail_slot(call, s, "manual_seed", -1);
}

void Backend::set_num_threads(int32_t n) const {
  if (!KF_HAS_SLOT(set_num_threads)) return;
  const PluginCall call;
  const kf_status_t s = plugin_->set_num_threads(state_, n);
  if (s != KF_OK) fail_slot(call, s, "set_num_threads", -1);
}

kf_device_properties_t Backend::properties(int32_t device) const {
  kf_device_properties_t p{};
  p.struct_size = sizeof(p);
  if (KF_HAS_SLOT(device_properties)) {
    const PluginCall call;
    const kf_status_t s = plugin_->device_properties(state_, device, &p);
    if (s != KF_OK) fail_slot(call, s, "device_properties", device);
  } else {
    std::strncpy(p.name, device_type_name.c_str(), sizeof(p.name) - 1);
  }
  return p;
}

void* Backend::stream_create(int32_t device) const {
  if (!asynchronous_) return nullptr;
  void* stream = nullptr;
  const PluginCall call;
  const kf_status_t s = plugin_->stream_create(state_, device, &stream);
  if (s != KF_OK) fail_slot(call, s, "creating a stream", device);
  return stream;
}

void Backend::stream_destroy(int32_t device, void* stream) const noexcept {
  if (asynchronous_ && stream != nullptr) plugin_->stream_destroy(state_, device, stream);
}

void Backend::stream_synchronize(int32_t device, void* stream) const {
  if (!asynchronous_) return;
  const PluginCall call;
  const kf_status_t s = plugin_->stream_synchronize(state_, device, stream);
  if (s != KF_OK) fail_slot(call, s, "synchronizing a stream", device);
}

void* Backend::event_create(int32_t device) const {
  if (!asynchronous_) return new HostEvent();
  void* event = nullptr;
  const PluginCall call;
  const kf_status_t s = plugin_->event_create(state_, device, &event);
  if (s != KF_OK) fail_slot(call, s, "creating an event", device);
  return event;
}

void Backend::event_destroy(int32_t device, void* event) const noexcept {
  if (!asynchronous_) {
    delete static_cast<HostEvent*>(event);
    return;
  }
  if (event != nullptr) plugin_->event_destroy(state_, device, event);
}

void Backend::event_record(int32_t device, void* event, void* stream) const {
  if (!asynchronous_) {
    auto* e = static_cast<HostEvent*>(event);
    e->recorded = std::chrono::steady_clock::now();
    e->was_recorded = true;
    return;
  }
  const PluginCall call;
  const kf_status_t s = plugin_->event_record(state_, device, event, stream);
  if (s != KF_OK) fail_slot(call, s, "recording an event", device);
}

void Backend::event_wait(int32_t device, void* stream, void* event) const {
  if (!asynchronous_) return;
  const PluginCall call;
  const kf_status_t s = plugin_->event_wait(state_, device, stream, event);
  if (s != KF_OK) fail_slot(call, s, "making a stream wait for an event", device);
}

void Backend::event_synchronize(int32_t device, void* event) const {
  if (!asynchronous_) return;
  const PluginCall call;
  const kf_status_t s = plugin_->event_synchronize(state_, device, event);
  if (s != KF_OK) fail_slot(call, s, "waiting for an event", device);
}

bool Backend::event_query(int32_t device, void* event) const {
  if (!asynchronous_) return true;
  if (!KF_HAS_SLOT(event_query)) {
    event_synchronize(device, event);
    return true;
  }
  int32_t done = 0;
  const PluginCall call;
  const kf_status_t s = plugin_->event_query(state_, device, event, &done);
  if (s != KF_OK) fail_slot(call, s, "querying an event", device);
  return done != 0;
}

double Backend::event_elapsed_ms(int32_t device, void* start, void* end) const {
  if (!asynchronous_) {
    const auto* a = static_cast<const HostEvent*>(start);
    const auto* b = static_cast<const HostEvent*>(end);
    if (!a->was_recorded || !b->was_recorded) {
      fail(KF_FAILED_PRECONDITION, "kf_event_elapsed_ms: both events must be recorded first");
    }
    return std::chrono::duration<double, std::milli>(b->recorded - a->recorded).count();
  }
  if (!KF_HAS_SLOT(event_elapsed_ms)) {
    fail(KF_UNIMPLEMENTED, "backend '{}' does not time events (its plugin has no "
                           "event_elapsed_ms)", name);
  }
  double ms = 0;
  const PluginCall call;
  const kf_status_t s = plugin_->event_elapsed_ms(state_, device, start, end, &ms);
  if (s != KF_OK) fail_slot(call, s, "timing two events", device);
  return ms;
}

#undef KF_HAS_SLOT

}  // namespace kf
