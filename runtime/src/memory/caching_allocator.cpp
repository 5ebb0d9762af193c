#include "memory/caching_allocator.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "loader/backend.hpp"
#include "memory/spin_lock.hpp"

namespace kf {
namespace {

constexpr int32_t kMaxDeviceIndex = 64;
constexpr size_t kMinBlock = 64;
constexpr size_t kLargeStep = size_t{1} << 20;

size_t size_class(size_t bytes) {
  if (bytes <= kMinBlock) return kMinBlock;
  if (bytes <= kLargeStep) {
    size_t c = kMinBlock;
    while (c < bytes) c <<= 1;
    return c;
  }
  return (bytes + kLargeStep - 1) / kLargeStep * kLargeStep;
}

constexpr int32_t kSmallClasses = 15;  // 64 B .. 1 MiB, powers of two

int32_t small_index(size_t cls) {
  int32_t i = 0;
  while ((kMinBlock << i) < cls) ++i;
  return i;
}

struct DeviceCache {
  SpinLock mutex;
  Backend* backend = nullptr;
  std::vector<void*> small[kSmallClasses];                   // by small_index
  std::unordered_map<size_t, std::vector<void*>> large;      // by size
  kf_memory_stats_t stats{};

  std::vector<void*>& bucket(size_t cls) {
    return cls <= kLargeStep ? small[small_index(cls)] : large[cls];
  }
};

std::atomic<DeviceCache*> g_caches[kMaxDeviceType][kMaxDeviceIndex];

DeviceCache* find_cache(kf_device_t device) noexcept {
  if (device.type <= 0 || device.type >= kMaxDeviceType || device.index < 0 ||
      device.index >= kMaxDeviceIndex) {
    return nullptr;
  }
  return g_caches[device.type][device.index].load(std::memory_order_acquire);
}

DeviceCache& cache_for(kf_device_t device) {
  if (DeviceCache* c = find_cache(device)) return *c;
  if (device.type <= 0 || device.type >= kMaxDeviceType || device.index < 0 ||
      device.index >= kMaxDeviceIndex) {
    fail(KF_INVALID_ARGUMENT, "device {} is out of the supported range (index < {})",
         device_string(device), kMaxDeviceIndex);
  }
  static std::mutex create_mutex;
  std::lock_guard<std::mutex> lock(create_mutex);
  auto& slot = g_caches[device.type][device.index];
  if (DeviceCache* c = slot.load(std::memory_order_acquire)) return *c;
  auto* c = new DeviceCache();  // lives for the process: tensors may outlive main
  c->stats.struct_size = sizeof(kf_memory_stats_t);
  slot.store(c, std::memory_order_release);
  return *c;
}

void* raw_allocate(Backend& backend, kf_device_t device, size_t bytes) {
  void* ptr = nullptr;
  const kf_status_t s = backend.plugin->allocate(backend.plugin_state, device.index, bytes, &ptr);
  if (s != KF_OK || ptr == nullptr) {
    fail(s == KF_OK ? KF_OUT_OF_MEMORY : s,
         "cannot allocate {} bytes on {} (backend '{}'): {}; free memory or call "
         "kf_empty_cache()", bytes, device_string(device), backend.name, last_error());
  }
  return ptr;
}

}  // namespace

Block cache_allocate(Backend& backend, kf_device_t device, size_t bytes) {
  DeviceCache& c = cache_for(device);
  const size_t cls = size_class(bytes);
  {
    std::lock_guard<SpinLock> lock(c.mutex);
    c.backend = &backend;
    c.stats.num_allocs++;
    std::vector<void*>& list = c.bucket(cls);
    if (!list.empty()) {
      void* p = list.back();
      list.pop_back();
      c.stats.num_cache_hits++;
      c.stats.allocated_bytes += cls;
      c.stats.peak_allocated_bytes = std::max(c.stats.peak_allocated_bytes, c.stats.allocated_bytes);
      return Block{p, cls};
    }
  }
  void* p = nullptr;
  try {
    p = raw_allocate(backend, device, cls);
  } catch (const Error&) {
    cache_empty(device);  // give the cache back and try once more
    p = raw_allocate(backend, device, cls);
  }
  std::lock_guard<SpinLock> lock(c.mutex);
  c.stats.reserved_bytes += cls;
  c.stats.allocated_bytes += cls;
  c.stats.peak_allocated_bytes = std::max(c.stats.peak_allocated_bytes, c.stats.allocated_bytes);
  return Block{p, cls};
}

void cache_free(kf_device_t device, Block block) noexcept {
  DeviceCache* c = find_cache(device);
  if (c == nullptr || block.ptr == nullptr) return;
  std::lock_guard<SpinLock> lock(c->mutex);
  c->stats.allocated_bytes -= block.bytes;
  try {
    c->bucket(block.bytes).push_back(block.ptr);
  } catch (...) {
    c->stats.reserved_bytes -= block.bytes;
    c->backend->plugin->deallocate(c->backend->plugin_state, device.index, block.ptr,
                                   block.bytes);
  }
}

void cache_empty(kf_device_t device) {
  DeviceCache* c = find_cache(device);
  if (c == nullptr) return;
  std::lock_guard<SpinLock> lock(c->mutex);
  auto give_back = [&](std::vector<void*>& list, size_t bytes) {
    for (void* p : list) {
      c->backend->plugin->deallocate(c->backend->plugin_state, device.index, p, bytes);
      c->stats.reserved_bytes -= bytes;
    }
    list.clear();
  };
  for (int32_t i = 0; i < kSmallClasses; ++i) give_back(c->small[i], kMinBlock << i);
  for (auto& [bytes, list] : c->large) give_back(list, bytes);
}

kf_memory_stats_t cache_stats(kf_device_t device) {
  DeviceCache* c = find_cache(device);
  if (c == nullptr) {
    kf_memory_stats_t empty{};
    empty.struct_size = sizeof(empty);
    return empty;
  }
  std::lock_guard<SpinLock> lock(c->mutex);
  return c->stats;
}

}  // namespace kf
