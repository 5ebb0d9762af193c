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
    data_ = static_cast<V*>(p);
    capacity_ = n;
    return data_;
  }
  V* data() const { return data_; }

 private:
  void release() {
    if (data_ != nullptr) ::operator delete(data_, std::align_val_t{64});
    data_ = nullptr;
    capacity_ = 0;
  }
  V* data_ = nullptr;
  int64_t capacity_ = 0;
};

}  // namespace kf::cpu
