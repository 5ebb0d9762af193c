// The caching allocator: device memory comes from the owning backend's raw allocate/deallocate,
// and freed blocks are kept in size-bucketed free lists per device and stream, so the next
// allocation of that size class on that stream is served without calling the plugin.
//
// Note [Blocks and streams]
// A block belongs to the stream it was allocated on (the thread's current stream; nullptr is
// the default stream) and is only handed out again on that stream: work queued later on the same
// stream runs after whatever used the block before. When a tensor was also used on other streams
// (kf_tensor_record_stream), freeing its block records an event on each of those streams and
// the block waits on a pending list until every event has passed; allocations check the pending
// list first. On a synchronous backend every stream is one queue: blocks are keyed by the
// default stream and recorded streams are ignored.
//
// Size classes: powers of two from 64 bytes up to 1 MiB, then multiples of 1 MiB.
// Thread safety: every function may be called from any thread.
#pragma once

#include <cstddef>
#include <vector>

#include "device/backend.hpp"
#include "device/stream.hpp"
#include "kernforge/kernforge.h"

namespace kf {

struct Block {
  void* ptr = nullptr;
  size_t bytes = 0;        // the size class actually reserved
  Stream* stream = nullptr;  // the stream it belongs to (a reference is held); nullptr = default
};

/// A block of at least `bytes` on `device` for `stream` (nullptr = default). Throws kf::Error.
Block cache_allocate(const Backend& backend, kf_device_t device, size_t bytes, Stream* stream);

/// Returns a block to its device's cache. `used_on` lists other streams that used the block
/// (kf_tensor_record_stream): it is reused only after their work queued so far has passed.
void cache_free(kf_device_t device, Block block, const std::vector<Stream*>* used_on) noexcept;

/// Returns every cached, unused block of `device` to its backend (after waiting for the work
/// that used them).
void cache_empty(kf_device_t device);

/// The statistics of `device`.
kf_memory_stats_t cache_stats(kf_device_t device);

}  // namespace kf
