// The loaded backends: the device type -> backend map and the dispatch slots. Reads are
// lock-free (dispatch reads on every call); the loader publishes under a lock. A published
// Backend lives for the process.
//
// Note [Slots are taken only by accepted plugins]
// The dispatch tables have kMaxBackendSlots columns, one per backend. A plugin's registration
// reserves a slot (SlotReservation) only once everything that can refuse the plugin has been
// checked, fills the slot's kernels, then publish_backend() commits the reservation and makes the
// backend visible, in one step under the lock: a backend is published complete (its strings and
// counts are const from construction), and a reader that finds it finds its kernels too. A
// reservation that is not published (an exception on the way) is released, so a refused plugin
// never consumes a slot, however many are refused.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

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

/// The backend for `device` once the plugins waiting for their first use have started
/// (core/first_use.hpp); throws KF_UNAVAILABLE naming the device and what is loaded.
Backend& backend_after_deferred_start(kf_device_t device);

/// The loaded backend for `device`; throws KF_UNAVAILABLE naming the device and what is loaded.
inline Backend& require_backend(kf_device_t device) {
  Backend* b = backend_for_device_type(device.type);
  return b != nullptr ? *b : backend_after_deferred_start(device);
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

/// A dispatch slot held while a backend's registration commits. Released by the destructor
/// unless publish_backend took it; the caller clears what it wrote into the slot first.
class SlotReservation {
 public:
  /// Reserves a free slot for backend `name`; KF_OUT_OF_RANGE when all are taken.
  explicit SlotReservation(const std::string& name);
  ~SlotReservation();
  SlotReservation(const SlotReservation&) = delete;
  SlotReservation& operator=(const SlotReservation&) = delete;

  int32_t slot() const noexcept { return slot_; }

 private:
  friend void publish_backend(Backend& backend, SlotReservation& reservation) noexcept;
  int32_t slot_;
  bool published_ = false;
};

/// Commits `reservation`: `backend` gets its slot and becomes visible to dispatch (its slot and
/// device type). The commit point of a plugin's registration.
void publish_backend(Backend& backend, SlotReservation& reservation) noexcept;

}  // namespace kf
