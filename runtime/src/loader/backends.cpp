// The backend registry: every backend the loader knows of (any state), the dispatch slots of
// the loaded ones and the device-type -> backend map. Reads are lock-free; the loader appends
// and publishes under its lock.
#include <atomic>
#include <mutex>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "loader/backend_registry.hpp"
#include "runtime_state.hpp"

namespace kf {
namespace {

constexpr int32_t kMaxBackends = 256;

struct Registry {
  std::mutex mutex;
  std::atomic<Backend*> list[kMaxBackends] = {};
  std::atomic<int32_t> count{0};
  std::atomic<Backend*> by_slot[kMaxBackendSlots] = {};
  int32_t next_slot = 0;
};

Registry& registry() {
  static Registry* r = new Registry();  // backends live for the process
  return *r;
}

}  // namespace

std::atomic<Backend*> g_backend_by_type[kMaxDeviceType] = {};

Backend* backend_at_slot(int32_t slot) noexcept {
  if (slot < 0 || slot >= kMaxBackendSlots) return nullptr;
  return registry().by_slot[slot].load(std::memory_order_acquire);
}

int32_t backend_count() noexcept {
  return registry().count.load(std::memory_order_acquire);
}

Backend* backend_by_index(int32_t index) noexcept {
  Registry& r = registry();
  if (index < 0 || index >= r.count.load(std::memory_order_acquire)) return nullptr;
  return r.list[index].load(std::memory_order_acquire);
}

void fail_no_such_device(const Backend& backend, kf_device_t device) {
  fail(KF_INVALID_ARGUMENT, "device {} does not exist: backend '{}' has {} device(s)",
       device_string(device), backend.name, backend.device_count);
}

void fail_no_backend(kf_device_t device) {
  std::string loaded;
  Registry& r = registry();
  for (int32_t s = 0; s < kMaxBackendSlots; ++s) {
    if (Backend* b = r.by_slot[s].load(std::memory_order_acquire)) {
      loaded += (loaded.empty() ? "" : ", ") + b->name;
    }
  }
  fail(KF_UNAVAILABLE,
       "no loaded backend serves device {} (loaded: {}); run `kernforge doctor` to see why its "
       "plugin is missing or unavailable", device_string(device), loaded.empty() ? "none" : loaded);
}

Backend& add_backend(std::unique_ptr<Backend> backend) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const int32_t n = r.count.load(std::memory_order_relaxed);
  if (n >= kMaxBackends) fail(KF_OUT_OF_RANGE, "too many plugins (max {})", kMaxBackends);
  Backend* b = backend.release();
  r.list[n].store(b, std::memory_order_release);
  r.count.store(n + 1, std::memory_order_release);
  return *b;
}

int32_t reserve_slot() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.next_slot >= kMaxBackendSlots) {
    fail(KF_OUT_OF_RANGE, "too many loaded backends (max {})", kMaxBackendSlots);
  }
  return r.next_slot++;
}

void publish_backend(Backend& b) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.by_slot[b.slot].store(&b, std::memory_order_release);
  g_backend_by_type[b.device_type].store(&b, std::memory_order_release);
}

}  // namespace kf
