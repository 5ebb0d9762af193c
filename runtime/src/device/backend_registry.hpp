// The loaded backends: the device type -> backend map and the dispatch slots. Reads are
// lock-free (dispatch reads on every call); the loader publishes under a lock. A published
// Backend lives for the process.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/device_types.hpp"
#include "device/backend.hpp"

namespace kf {

constexpr int32_t kMaxBackendSlots = 16;

/// Published by publish_backend; read lock-free.
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

/// The loaded backend for `device`; throws KF_UNAVAILABLE naming the device and what is loaded.
inline Backend& require_backend(kf_device_t device) {
  Backend* b = backend_for_device_type(device.type);
  if (b == nullptr) fail_no_backend(device);
  return *b;
}

/// The backend for `device`, which must also be one of its devices (else KF_INVALID_ARGUMENT).
inline Backend& require_device(kf_device_t device) {
  Backend& b = require_backend(device);
  if (device.index < 0 || device.index >= b.device_count) b.check_device(device);
  return b;
}

/// Calls f(Backend&) for every loaded backend, in slot order.
template <class F>
void for_each_backend(F&& f) {
  for (int32_t s = 0; s < kMaxBackendSlots; ++s) {
    if (Backend* b = backend_at_slot(s)) f(*b);
  }
}

/// Gives `backend` a free dispatch slot (KF_OUT_OF_RANGE when none is left).
void assign_slot(Backend& backend);
/// Makes a backend with a slot visible to dispatch (its slot and device type).
void publish_backend(Backend& backend);

}  // namespace kf
