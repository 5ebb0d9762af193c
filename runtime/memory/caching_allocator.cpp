#include "memory/caching_allocator.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "core/device_types.hpp"
#include "core/error.hpp"
#include "core/logging.hpp"
#include "core/spin_lock.hpp"

namespace kf {
namespace {

constexpr int32_t kMaxDeviceIndex = kMaxBackendDevices;  // device/backend.hpp
constexpr size_t kMinBlock = 64;
constexpr size_t kLargeStep = size_t{1} << 20;
constexpr int32_t kSmallClasses = 15;  // 64 B .. 1 MiB, powers of two

// Bits of a power of two's exponent (cls is a power of two here).
inline int32_t log2_of(size_t cls) { return 63 - __builtin_clzll(static_cast<uint64_t>(cls)); }

size_t size_class(size_t bytes) {
  if (bytes <= kMinBlock) return kMinBlock;
  if (bytes <= kLargeStep) return size_t{1} << (64 - __builtin_clzll(bytes - 1));
  if (bytes > SIZE_MAX - kLargeStep) {
    fail(KF_OUT_OF_MEMORY, "cannot allocate {} bytes: the size is beyond any device", bytes);
  }
  return (bytes + kLargeStep - 1) / kLargeStep * kLargeStep;
}

inline int32_t small_index(size_t cls) { return log2_of(cls) - log2_of(kMinBlock); }

// Free blocks by size class.
struct Buckets {
  std::vector<void*> small[kSmallClasses];
  std::unordered_map<size_t, std::vector<void*>> large;

  std::vector<void*>& bucket(size_t cls) {
    return cls <= kLargeStep ? small[small_index(cls)] : large[cls];
  }
  template <class F>
  void for_each_list(F&& f) {
    for (int32_t i = 0; i < kSmallClasses; ++i) f(small[i], kMinBlock << i);
    for (auto& [bytes, list] : large) f(list, bytes);
  }
};

struct StreamBuckets {
  Stream* stream;  // key only: a stream is alive while any of its blocks is (Note [Blocks...])
  Buckets buckets;
};

// A freed block that other streams may still use, with one event per such stream.
struct PendingBlock {
  Block block;
  std::vector<void*> events;
};

struct DeviceCache {
  SpinLock mutex;
  const Backend* backend = nullptr;  // set before the cache is published; never changes
  Buckets default_stream;
  std::vector<StreamBuckets> streams;
  std::vector<PendingBlock> pending;
  std::atomic<int32_t> npending{0};
  kf_memory_stats_t stats{};

  Buckets& buckets_of(Stream* s) {
    if (s == nullptr) return default_stream;  // the common case
    return stream_buckets(s);
  }
  Buckets& stream_buckets(Stream* s) {
    for (StreamBuckets& sb : streams) {
      if (sb.stream == s) return sb.buckets;
    }
    streams.push_back(StreamBuckets{s, {}});
    return streams.back().buckets;
  }
};

std::atomic<DeviceCache*> g_caches[kMaxDeviceType][kMaxDeviceIndex];

bool in_range(kf_device_t device) {
  return static_cast<uint32_t>(device.type) < static_cast<uint32_t>(kMaxDeviceType) &&
         static_cast<uint32_t>(device.index) < static_cast<uint32_t>(kMaxDeviceIndex);
}

DeviceCache* find_cache(kf_device_t device) noexcept {
  if (!in_range(device)) return nullptr;
  return g_caches[device.type][device.index].load(std::memory_order_acquire);
}

// The cache of `device`, made on first use with the backend that serves it (set once, before
// the cache is published, so readers need no lock for it).
DeviceCache& cache_for(kf_device_t device, const Backend& backend) {
  if (DeviceCache* c = find_cache(device)) return *c;
  if (!in_range(device)) {
    fail(KF_INVALID_ARGUMENT, "device {} is out of the supported range (index < {})",
         device_string(device), kMaxDeviceIndex);
  }
  static std::mutex create_mutex;
  std::lock_guard<std::mutex> lock(create_mutex);
  auto& slot = g_caches[device.type][device.index];
  if (DeviceCache* c = slot.load(std::memory_order_acquire)) return *c;
  auto* c = new DeviceCache();  // lives for the process: tensors may outlive main
  c->backend = &backend;
  c->stats.struct_size = sizeof(kf_memory_stats_t);
  slot.store(c, std::memory_order_release);
  return *c;
}

void count_allocated(DeviceCache& c, size_t bytes) {
  c.stats.allocated_bytes += bytes;
  c.stats.peak_allocated_bytes = std::max(c.stats.peak_allocated_bytes, c.stats.allocated_bytes);
}

// Returns a block that no free list could take to its backend, with the reference to its stream
// it held (Note [Blocks and streams]). Outside the cache's lock.
void return_to_backend(DeviceCache& c, kf_device_t device, const Block& b) noexcept {
  c.backend->deallocate(device.index, b.ptr, b.bytes);
  release_stream(b.stream);
}

// Moves pending blocks whose events have all passed back to their free lists. The plugin is
// asked outside the lock.
void process_pending(DeviceCache& c, kf_device_t device) {
  std::vector<PendingBlock> pending;
  std::vector<PendingBlock> still;
  std::vector<Block> done;
  {
    std::lock_guard<SpinLock> lock(c.mutex);
    still.reserve(c.pending.size());  // room first: out of memory takes nothing off the list
    done.reserve(c.pending.size());
    pending.swap(c.pending);
  }
  for (PendingBlock& p : pending) {
    bool passed = true;
    try {
      for (void* e : p.events) passed = passed && c.backend->event_query(device.index, e);
    } catch (const Error& e) {
      log().warn("caching allocator: {}; the block waits for the device", e.what());
      passed = false;
    }
    if (!passed) {
      still.push_back(std::move(p));
      continue;
    }
    for (void* e : p.events) c.backend->event_destroy(device.index, e);
    done.push_back(p.block);
  }
  {
    std::lock_guard<SpinLock> lock(c.mutex);
    for (Block& b : done) {
      try {
        c.buckets_of(b.stream).bucket(b.bytes).push_back(b.ptr);
        b.ptr = nullptr;  // kept
      } catch (...) {
        c.stats.reserved_bytes -= b.bytes;
      }
    }
    if (c.pending.empty()) {
      c.pending.swap(still);
    } else {  // freed meanwhile by other threads
      for (PendingBlock& p : still) c.pending.push_back(std::move(p));
    }
    c.npending.store(static_cast<int32_t>(c.pending.size()), std::memory_order_relaxed);
  }
  for (const Block& b : done) {
    if (b.ptr != nullptr) return_to_backend(c, device, b);  // no room in the free list
  }
}

// Puts `block` on the pending list with an event recorded on every stream in `used_on` other
// than its own. False when that cannot be done (out of memory, a failing event slot): then no
// event is left behind and the block is not on the list.
bool defer_free(DeviceCache& c, kf_device_t device, const Block& block,
                const std::vector<Stream*>& used_on) noexcept {
  PendingBlock p{block, {}};
  try {
    p.events.reserve(used_on.size());  // room first: a created event is always owned by p
    for (Stream* s : used_on) {
      if (s == block.stream) continue;
      p.events.push_back(c.backend->event_create(device.index));
      c.backend->event_record(device.index, p.events.back(), native_stream(s));
    }
    std::lock_guard<SpinLock> lock(c.mutex);
    c.pending.push_back(std::move(p));  // p is untouched when this throws
    c.stats.allocated_bytes -= block.bytes;
    c.npending.store(static_cast<int32_t>(c.pending.size()), std::memory_order_relaxed);
    return true;
  } catch (...) {
    for (void* e : p.events) c.backend->event_destroy(device.index, e);
    return false;
  }
}

// Out of device memory: the cached blocks go back to the backend and the allocation is tried
// once more. Other failures go on as they are.
void* raw_allocate(const Backend& backend, kf_device_t device, size_t cls) {
  try {
    return backend.allocate(device.index, cls);
  } catch (const Error& e) {
    if (e.status() != KF_OUT_OF_MEMORY) throw;
  }
  cache_empty(device);
  return backend.allocate(device.index, cls);
}

}  // namespace

Block cache_allocate(const Backend& backend, kf_device_t device, size_t bytes, Stream* stream) {
  DeviceCache& c = cache_for(device, backend);
  if (!backend.asynchronous()) stream = nullptr;
  const size_t cls = size_class(bytes);
  if (c.npending.load(std::memory_order_relaxed) != 0) process_pending(c, device);
  {
    std::lock_guard<SpinLock> lock(c.mutex);
    c.stats.num_allocs++;
    std::vector<void*>& list = c.buckets_of(stream).bucket(cls);
    if (!list.empty()) {
      void* p = list.back();
      list.pop_back();
      c.stats.num_cache_hits++;
      count_allocated(c, cls);
      return Block{p, cls, stream};  // the cached block kept its stream reference
    }
  }
  void* p = raw_allocate(backend, device, cls);
  retain_stream(stream);
  std::lock_guard<SpinLock> lock(c.mutex);
  c.stats.reserved_bytes += cls;
  count_allocated(c, cls);
  return Block{p, cls, stream};
}

void cache_free(kf_device_t device, Block block, const std::vector<Stream*>* used_on) noexcept {
  DeviceCache* c = find_cache(device);
  if (c == nullptr || block.ptr == nullptr) return;
  if (used_on != nullptr && !used_on->empty() && c->backend->asynchronous()) {
    if (defer_free(*c, device, block, *used_on)) return;
    // No event could be recorded: wait for the device instead, then free it as usual.
    try {
      c->backend->synchronize(device.index);
    } catch (...) {
    }
  }
  {
    std::lock_guard<SpinLock> lock(c->mutex);
    c->stats.allocated_bytes -= block.bytes;
    try {
      c->buckets_of(block.stream).bucket(block.bytes).push_back(block.ptr);
      return;
    } catch (...) {
      c->stats.reserved_bytes -= block.bytes;
    }
  }
  return_to_backend(*c, device, block);  // no room in the free list
}

void cache_empty(kf_device_t device) {
  DeviceCache* c = find_cache(device);
  if (c == nullptr || c->backend == nullptr) return;
  if (c->backend->asynchronous()) {
    c->backend->synchronize(device.index);  // every queued use of a cached block is done
    process_pending(*c, device);
  }
  std::vector<Stream*> unreferenced;
  {
    std::lock_guard<SpinLock> lock(c->mutex);
    // Room first: running out of memory half-way would leave freed blocks in the lists.
    size_t stream_blocks = 0;
    for (StreamBuckets& sb : c->streams) {
      sb.buckets.for_each_list([&](std::vector<void*>& list, size_t) {
        stream_blocks += list.size();
      });
    }
    unreferenced.reserve(stream_blocks);
    auto give_back = [&](Stream* s, Buckets& buckets) {
      buckets.for_each_list([&](std::vector<void*>& list, size_t bytes) {
        for (void* p : list) {
          c->backend->deallocate(device.index, p, bytes);
          c->stats.reserved_bytes -= bytes;
          if (s != nullptr) unreferenced.push_back(s);
        }
        list.clear();
      });
    };
    give_back(nullptr, c->default_stream);
    for (StreamBuckets& sb : c->streams) give_back(sb.stream, sb.buckets);
    c->streams.clear();
  }
  for (Stream* s : unreferenced) release_stream(s);
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
