// Note [First fit with coalescing]
// The free list is a map from offset to size, ordered by address. allocate() takes the first
// range (lowest address) that is large enough and keeps what is left of it as a smaller free
// range. deallocate() puts the block back and merges it with the free range just before it and
// the one just after it when they touch, so freed memory becomes one range again and a large
// request can succeed after many small ones were freed. Both are O(number of free ranges) at
// worst, which is fine for a device whose real work is elsewhere: the core's caching allocator
// above the plugin keeps freed blocks and asks the plugin for memory rarely.
//
// A range moves between the two maps as a map node (std::map::extract), so deallocate() never
// allocates and allocate() allocates at most the node of the leftover free range, before it
// changes anything: the arena's bookkeeping is never left half updated.
#include "arena.hpp"

#include <iterator>
#include <new>
#include <utility>

namespace toy {
namespace {

size_t round_up(size_t bytes) {
  const size_t rounded = (bytes + Arena::kAlignment - 1) / Arena::kAlignment * Arena::kAlignment;
  return bytes == 0 ? Arena::kAlignment : rounded;  // rounded < bytes: the addition wrapped
}

}  // namespace

// A large aligned operator new: the C library maps such a block from the OS, whose pages cost
// nothing until they are first written, so a big arena that is never filled stays cheap.
Arena::Arena(size_t capacity)
    : base_(static_cast<char*>(::operator new(capacity, std::align_val_t{kAlignment}))),
      capacity_(capacity) {
  try {
    free_.emplace(0, capacity);  // the whole arena is one free range
  } catch (...) {
    ::operator delete(base_, std::align_val_t{kAlignment});  // no destructor runs for us
    throw;
  }
}

Arena::~Arena() { ::operator delete(base_, std::align_val_t{kAlignment}); }

void* Arena::allocate(size_t bytes) {
  const size_t size = round_up(bytes);
  if (size < bytes) return nullptr;  // so large that rounding it up wrapped around
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    const size_t offset = it->first;
    const size_t left = it->second - size;
    if (left > 0) free_.emplace_hint(std::next(it), offset + size, left);  // the only throw
    // The free range's own map node becomes the block's entry in live_: no allocation.
    auto node = free_.extract(it);
    node.mapped() = size;
    live_.insert(std::move(node));
    used_ += size;
    return base_ + offset;
  }
  return nullptr;
}

bool Arena::deallocate(void* ptr) {
  const char* p = static_cast<const char*>(ptr);
  if (p < base_ || p >= base_ + capacity_) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = live_.find(static_cast<size_t>(p - base_));
  if (it == live_.end()) return false;
  used_ -= it->second;
  release(live_.extract(it));
  return true;
}

// Puts the block of `node` (offset -> size, taken out of live_) back on the free list, merged
// with the free ranges it touches. Allocates nothing: the node itself is reused or dropped.
void Arena::release(Node node) {
  const size_t offset = node.key();
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && offset + node.mapped() == next->first) {
    node.mapped() += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    const auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += node.mapped();
      return;
    }
  }
  free_.insert(next, std::move(node));
}

bool Arena::owns(const void* ptr, size_t bytes) const {
  const char* p = static_cast<const char*>(ptr);
  if (p < base_ || p >= base_ + capacity_) return false;
  const size_t offset = static_cast<size_t>(p - base_);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.upper_bound(offset);  // the first block that starts after p
  if (it == live_.begin()) return false;
  --it;  // the last block that starts at or before p
  return offset - it->first <= it->second && bytes <= it->second - (offset - it->first);
}

size_t Arena::used() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return used_;
}

size_t Arena::largest_free() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t largest = 0;
  for (const auto& range : free_) largest = range.second > largest ? range.second : largest;
  return largest;
}

}  // namespace toy
