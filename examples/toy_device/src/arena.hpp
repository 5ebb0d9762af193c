// arena.hpp — the toy device's memory: one block reserved when the plugin starts, handed out in
// pieces by a first-fit free list that merges neighbouring free ranges again when they are freed.
//
// A real device plugin calls its driver here (cuMemAlloc, zeMemAllocDevice, clCreateBuffer...).
// The toy device plays a device whose memory has a fixed size, so the core's caching allocator,
// its out-of-memory path and the copy slot's pointer checks run as they would on a GPU, while
// the bytes themselves are ordinary host memory that kernels can read directly.
//
// Ownership: an Arena owns its block and frees it in its destructor; the blocks it hands out
// are pieces of it and must not be used after the Arena is destroyed.
// Thread safety: every member function may be called from any thread at once (one mutex).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>

namespace toy {

class Arena {
 public:
  /// Every block starts at a multiple of this and its size is rounded up to it.
  static constexpr size_t kAlignment = 64;

  /// Reserves `capacity` bytes of host memory. Throws std::bad_alloc when the host cannot.
  explicit Arena(size_t capacity);
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  /// A block of at least `bytes` (0 gets a block of its own too), or nullptr when no free range
  /// is large enough. Throws std::bad_alloc only when the bookkeeping cannot grow; then nothing
  /// changed. Never throws otherwise.
  void* allocate(size_t bytes);
  /// Returns a block that allocate() gave; false (and nothing changes) when `ptr` is not the
  /// start of a block handed out and not yet returned. Never throws (allocates nothing).
  bool deallocate(void* ptr);
  /// Whether [ptr, ptr + bytes) lies inside one block handed out and not yet returned.
  bool owns(const void* ptr, size_t bytes) const;

  size_t capacity() const { return capacity_; }
  /// Bytes handed out (sizes rounded up to kAlignment).
  size_t used() const;
  /// The largest block allocate() could hand out now.
  size_t largest_free() const;

 private:
  using Ranges = std::map<size_t, size_t>;  // offset -> size
  using Node = Ranges::node_type;
  void release(Node node);

  char* base_;
  size_t capacity_;
  mutable std::mutex mutex_;
  Ranges free_;  // by address; two free ranges never touch
  Ranges live_;  // every block handed out
  size_t used_ = 0;
};

}  // namespace toy
