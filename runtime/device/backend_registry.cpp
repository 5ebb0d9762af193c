#include "device/backend_registry.hpp"

#include <mutex>
#include <string>

#include "core/error.hpp"
#include "core/first_use.hpp"

namespace kf {
namespace {

struct Slots {
  std::mutex mutex;
  std::atomic<Backend*> by_slot[kMaxBackendSlots] = {};
  bool taken[kMaxBackendSlots] = {};  // reserved or published; under `mutex`
};

Slots& slots() {
  static Slots* s = new Slots();  // backends live for the process
  return *s;
}

}  // namespace

std::atomic<Backend*> g_backend_by_type[kMaxDeviceType] = {};

Backend* backend_at_slot(int32_t slot) noexcept {
  if (slot < 0 || slot >= kMaxBackendSlots) return nullptr;
  return slots().by_slot[slot].load(std::memory_order_acquire);
}

Backend& backend_after_deferred_start(kf_device_t device) {
  if (deferred_pending()) {
    start_deferred_backends();
    if (Backend* b = backend_for_device_type(device.type)) return *b;
  }
  fail_no_backend(device);
}

void fail_no_backend(kf_device_t device) {
  std::string loaded;
  for_each_backend([&](const Backend& b) { loaded += (loaded.empty() ? "" : ", ") + b.name; });
  fail(KF_UNAVAILABLE,
       "no loaded backend serves device {} (loaded: {}); run `kernforge doctor` to see why its "
       "plugin is missing or unavailable", device_string(device), loaded.empty() ? "none" : loaded);
}

SlotReservation::SlotReservation(const std::string& name) : slot_(-1) {
  Slots& s = slots();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (int32_t i = 0; i < kMaxBackendSlots && slot_ < 0; ++i) {
    if (!s.taken[i]) slot_ = i;
  }
  if (slot_ < 0) {
    fail(KF_OUT_OF_RANGE, "too many loaded backends (max {}): cannot load '{}'",
         kMaxBackendSlots, name);
  }
  s.taken[slot_] = true;
}

SlotReservation::~SlotReservation() {
  if (published_) return;
  Slots& s = slots();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.taken[slot_] = false;
}

void publish_backend(Backend& backend, SlotReservation& reservation) noexcept {
  Slots& s = slots();
  std::lock_guard<std::mutex> lock(s.mutex);
  backend.slot = reservation.slot_;
  reservation.published_ = true;
  s.by_slot[backend.slot].store(&backend, std::memory_order_release);
  g_backend_by_type[backend.device_type].store(&backend, std::memory_order_release);
}

}  // namespace kf
