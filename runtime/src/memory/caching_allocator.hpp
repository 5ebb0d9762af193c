// The caching allocator (DESIGN section 3): device memory comes from the owning plugin's raw
// allocate/deallocate, and freed blocks are kept in size-bucketed free lists per device so the
// next allocation of that size class is served without calling the plugin.
//
// Size classes: powers of two from 64 bytes up to 1 MiB, then multiples of 1 MiB.
// Thread safety: every function may be called from any thread.
#pragma once

#include <cstddef>

#include "kernforge/kernforge.h"

namespace kf {

struct Backend;

struct Block {
  void* ptr = nullptr;
  size_t bytes = 0;  // the size class actually reserved
};

/// A block of at least `bytes` on `device` from `backend`. Throws kf::Error on failure.
Block cache_allocate(Backend& backend, kf_device_t device, size_t bytes);

/// Returns a block to its device's free list.
void cache_free(kf_device_t device, Block block) noexcept;

/// Returns every cached, unused block of `device` to its backend.
void cache_empty(kf_device_t device);

/// The statistics of `device`.
kf_memory_stats_t cache_stats(kf_device_t device);

}  // namespace kf
