// sort_scratch.hpp — the scratch memory of the sorts: uninitialised, 64-byte aligned blocks of
// the aligned nothrow operator new, the allocation the plugin's own blocks come from
// (plugin.cpp's allocate, which the allocation-failure sweep of tests/oom replaces). When memory
// runs out, reserve throws KernelError KF_OUT_OF_MEMORY saying how much the sort needed; it must
// be called outside parallel regions (an exception may not leave one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "kernforge/plugin.hpp"

namespace kf::cpu {

template <class V>
class SortScratch {
 public:
  SortScratch() = default;
  SortScratch(const SortScratch&) = delete;
  SortScratch& operator=(const SortScratch&) = delete;
  SortScratch(SortScratch&& o) noexcept : data_(o.data_), capacity_(o.capacity_) {
    o.data_ = nullptr;
    o.capacity_ = 0;
  }
  ~SortScratch() { release(); }

  /// Room for n elements (the old contents are not kept).
  V* reserve(int64_t n) {
    if (n <= capacity_) return data_;
    release();
    const auto bytes = static_cast<size_t>(n) * sizeof(V);
    void* p = bytes / sizeof(V) == static_cast<size_t>(n)
                  ? ::operator new(bytes, std::align_val_t{64}, std::nothrow)
                  : nullptr;
    if (p == nullptr) {
      char text[160];
      std::snprintf(text, sizeof(text),
                    "cpu: cannot allocate %llu bytes of scratch memory for the sort; free "
                    "memory or sort shorter lines",
                    static_cast<unsigned long long>(static_cast<uint64_t>(n) * sizeof(V)));
      throw kf::plugin::KernelError(KF_OUT_OF_MEMORY, text);
    }
    huge_pages(p, bytes);
    data_ = static_cast<V*>(p);
    capacity_ = n;
    return data_;
  }
  V* data() const { return data_; }

 private:
  /// Asks Linux to back the whole 2 MiB pages inside a large block with huge pages: the first
  /// write then takes one page fault per 2 MiB, not per 4 KiB.
  static void huge_pages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr uintptr_t kHuge = uintptr_t{1} << 21;
    const auto first = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
    const auto last = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
  }
  void release() {
    if (data_ != nullptr) ::operator delete(data_, std::align_val_t{64});
    data_ = nullptr;
    capacity_ = 0;
  }
  V* data_ = nullptr;
  int64_t capacity_ = 0;
};

}  // namespace kf::cpu
