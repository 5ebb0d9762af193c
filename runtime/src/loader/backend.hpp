// A backend the loader knows of: a plugin in one of the states of kf_backend_state_t.
// Backends are created by the loader and live for the life of the process (plugins are never
// dlclose'd), so a Backend* stays valid everywhere once published.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/device_types.hpp"
#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"

namespace kf {

constexpr int32_t kMaxBackendSlots = 16;

/// A library loaded for a plugin before it (its global_deps and preload lists).
struct DependencyRecord {
  std::string soname;
  std::string path;     // the live copy ("" when missing)
  std::string how;      // "loaded", "already mapped", "missing"
  bool global = false;  // loaded RTLD_GLOBAL (a global_deps entry)
};

struct Backend {
  std::string name;
  std::string version;
  std::string device_type_name;
  std::string library_path;
  std::string manifest_path;
  std::string reason;            // why it is not loaded ("" when loaded)
  std::string source;            // where it was found: "kf_init", "KERNFORGE_PLUGIN_PATH", ...
  std::string details;           // the plugin's describe() line (ABI 1.1), "" without one
  std::vector<DependencyRecord> dependencies;
  int32_t device_type = KF_DEVICE_NONE;
  int32_t device_count = 0;
  kf_backend_state_t state = KF_BACKEND_UNAVAILABLE;
  kf_status_t failure = KF_OK;   // the status kf_load_plugin reports when not loaded
  int32_t slot = -1;             // dispatch slot when loaded
  int32_t score = 0;
  int32_t priority = 0;
  const kf_plugin_t* plugin = nullptr;
  size_t plugin_struct_size = 0; // how much of *plugin its ABI minor has
  void* plugin_state = nullptr;
  void* library = nullptr;       // the os::Library (never closed)

  /// Whether the plugin's struct has the slot at `offset` (an older minor may not).
  bool has_slot(size_t offset_end) const noexcept { return plugin_struct_size >= offset_end; }
};

/// Published by the loader (backends.cpp); read lock-free by dispatch.
extern std::atomic<Backend*> g_backend_by_type[kMaxDeviceType];

/// The loaded backend serving a device type, or nullptr. Lock-free.
inline Backend* backend_for_device_type(int32_t device_type) noexcept {
  if (device_type <= 0 || device_type >= kMaxDeviceType) return nullptr;
  return g_backend_by_type[device_type].load(std::memory_order_acquire);
}

/// The loaded backend in dispatch slot `slot`, or nullptr. Lock-free.
Backend* backend_at_slot(int32_t slot) noexcept;

/// Throws KF_UNAVAILABLE naming the device and what is loaded.
[[noreturn]] void fail_no_backend(kf_device_t device);
/// Throws KF_INVALID_ARGUMENT: `device`'s index is not one of `backend`'s devices.
[[noreturn]] void fail_no_such_device(const Backend& backend, kf_device_t device);

/// The loaded backend for `device`; throws KF_UNAVAILABLE naming the device and what is loaded.
inline Backend& require_backend(kf_device_t device) {
  Backend* b = backend_for_device_type(device.type);
  if (b == nullptr) fail_no_backend(device);
  return *b;
}

}  // namespace kf

/// Whether backend `b`'s plugin struct has the optional member `field` and it is set.
#define KF_PLUGIN_HAS(b, field)                                                           \
  ((b).has_slot(offsetof(kf_plugin_t, field) + sizeof(((kf_plugin_t*)nullptr)->field)) && \
   (b).plugin->field != nullptr)
