// Note [Object pools]
// TensorImpl and Storage objects come from per-type pools that never return memory to the
// system. That makes two promises cheap to keep: creating a tensor costs no malloc on the hot
// path (a thread-local free list), and a released handle still points at readable memory whose
// magic word says "dead", so the C ABI can answer KF_INVALID_ARGUMENT instead of crashing.
#pragma once

#include <mutex>
#include <new>
#include <vector>

namespace kf {

template <class T>
class Pool {
 public:
  /// A fresh, default-constructed object.
  static T* acquire() {
    Local& local = local_list();
    T* p = nullptr;
    if (!local.items.empty()) {
      p = local.items.back();
      local.items.pop_back();
    } else {
      p = refill(local);
    }
    return new (p) T();
  }

  /// Destroys `p` and keeps its memory for reuse (the memory is never unmapped).
  static void release(T* p) noexcept {
    p->~T();
    Local& local = local_list();
    if (local.items.size() < kLocalCap) {
      local.items.push_back(p);
      return;
    }
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mutex);
    g.items.push_back(p);
  }

 private:
  static constexpr size_t kLocalCap = 1024;
  static constexpr size_t kBatch = 64;
  struct Local {
    std::vector<T*> items;
    Local() { items.reserve(kLocalCap + 1); }
  };
  struct Global {
    std::mutex mutex;
    std::vector<T*> items;
  };
  static Local& local_list() {
    thread_local Local local;
    return local;
  }
  static Global& global() {
    static Global* g = new Global();  // never destroyed: threads may exit after main
    return *g;
  }
  static T* refill(Local& local) {
    {
      Global& g = global();
      std::lock_guard<std::mutex> lock(g.mutex);
      while (!g.items.empty() && local.items.size() < kBatch) {
        local.items.push_back(g.items.back());
        g.items.pop_back();
      }
    }
    if (!local.items.empty()) {
      T* p = local.items.back();
      local.items.pop_back();
      return p;
    }
    void* raw = ::operator new(sizeof(T), std::align_val_t(alignof(T) < 64 ? 64 : alignof(T)));
    return static_cast<T*>(raw);
  }
};

}  // namespace kf
