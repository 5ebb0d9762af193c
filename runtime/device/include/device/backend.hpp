// A loaded backend as the core sees it (the device object): the plugin's slots behind typed
// wrappers that throw kf::Error with context, and the defaults of the optional slots in one
// place. The loader creates one when a plugin's init succeeds; it lives for the process
// (plugins are never unloaded), so a Backend& stays valid everywhere once published.
//
// Nothing outside this file calls a plugin slot that runs after init: memory, tensors and the
// dispatcher go through these wrappers. Thread safety: every method may be called from any
// thread (the plugin ABI requires the same of the slots).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernforge/plugin.h"
#include "kernforge/types.h"

namespace kf {

class PluginCall;

/// The most devices one backend may have; a plugin whose device_count says more (or less than
/// 0) is refused. The caching allocator addresses device indices below it.
constexpr int32_t kMaxBackendDevices = 64;

/// Whether a plugin struct of `struct_size` bytes has the slot ending at `offset_end` (a plugin
/// built for an older minor has fewer slots).
constexpr bool plugin_has_slot(size_t struct_size, size_t offset_end) noexcept {
  return struct_size >= offset_end;
}

#define KF_PLUGIN_SLOT_END(field) \
  (offsetof(kf_plugin_t, field) + sizeof(((kf_plugin_t*)nullptr)->field))

class Backend {
 public:
  Backend(const kf_plugin_t* plugin, size_t plugin_struct_size, void* plugin_state,
          std::string name, std::string device_type_name, int32_t device_type);

  const std::string name;
  const std::string device_type_name;
  const int32_t device_type;
  const int32_t device_count;
  /// The dispatch slot (column of the kernel table); set once by the registry.
  int32_t slot = -1;

  void* plugin_state() const noexcept { return state_; }
  /// Whether the plugin queues work (it has streams): copies to the host then wait for it.
  bool asynchronous() const noexcept { return asynchronous_; }
  /// Throws KF_INVALID_ARGUMENT when `index` is not one of this backend's devices.
  void check_device(kf_device_t device) const;

  // Memory.
  void* allocate(int32_t device, size_t bytes) const;
  void deallocate(int32_t device, void* ptr, size_t bytes) const noexcept;
  void* host_allocate(size_t bytes) const;
  void host_deallocate(void* ptr, size_t bytes) const noexcept;
  /// Copies synchronously: ordered after the device's default stream, done when it returns.
  void copy(int32_t device, void* dst, const void* src, size_t bytes, int32_t kind) const;
  /// Copies on `stream` (a native stream, NULL = default); synchronous backends copy now.
  void copy_async(int32_t device, void* dst, const void* src, size_t bytes, int32_t kind,
                  void* stream) const;
  void memset(int32_t device, void* dst, int32_t value, size_t bytes) const;

  // Device-wide.
  void synchronize(int32_t device) const;
  void manual_seed(uint64_t seed) const;
  void set_num_threads(int32_t n) const;
  kf_device_properties_t properties(int32_t device) const;

  // Streams and events (native handles). A synchronous backend has one queue: its streams
  // are NULL and its events carry the host time at which they were recorded.
  void* stream_create(int32_t device) const;
  void stream_destroy(int32_t device, void* stream) const noexcept;
  void stream_synchronize(int32_t device, void* stream) const;
  void* event_create(int32_t device) const;
  void event_destroy(int32_t device, void* event) const noexcept;
  void event_record(int32_t device, void* event, void* stream) const;
  void event_wait(int32_t device, void* stream, void* event) const;
  void event_synchronize(int32_t device, void* event) const;
  /// Whether the work before the event's record is done (never blocks when the plugin can
  /// query; otherwise waits for it).
  bool event_query(int32_t device, void* event) const;
  double event_elapsed_ms(int32_t device, void* start, void* end) const;

 private:
  bool has(size_t slot_end) const noexcept { return plugin_has_slot(struct_size_, slot_end); }
  // Throw for a slot that returned `status` (not KF_OK); device -1: not device-specific.
  [[noreturn]] void fail_slot(const PluginCall& call, kf_status_t status, const char* what,
                              int32_t device) const;
  [[noreturn]] void fail_allocation(const PluginCall& call, int32_t status, size_t bytes,
                                    int32_t device) const;

  const kf_plugin_t* plugin_;
  size_t struct_size_;
  void* state_;
  bool asynchronous_;
};

}  // namespace kf
