// allocations.hpp — the bookkeeping of the memory a device (or the host side) handed out.
//
// Level Zero frees memory by pointer (zeMemFree), and a pointer the backend did not allocate,
// or frees twice, is undefined behaviour in the driver. So every allocation is recorded with
// its size; deallocate() frees only what is recorded (an unknown pointer is reported, never
// passed to zeMemFree), and shutdown frees what the host left.
//
// Ownership: plain bookkeeping; it frees nothing itself. Thread safety: every member may be
// called from any thread at once.
#pragma once

#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kf::xpu {

class Allocations {
 public:
  void add(void* ptr, size_t bytes);
  /// Forgets `ptr`; false when it was not recorded.
  bool remove(void* ptr) noexcept;
  /// Every live allocation (and forgets them): what shutdown frees.
  std::vector<std::pair<void*, size_t>> take_all() noexcept;

  size_t count() const;
  size_t bytes() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<void*, size_t> live_;
  size_t bytes_ = 0;
};

}  // namespace kf::xpu
