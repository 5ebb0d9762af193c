// Note [Object pools]
// Objects the core makes on every op (Storage) come from per-type pools that never return
// memory to the system, so creating a tensor costs no malloc on the hot path (a thread-local
// free list). Objects behind C ABI handles (tensors, streams, events) live in handle tables
// instead, which keep their free slots the same way (Note [Handles]); a pooled object is never
// reached through a handle.
//
// The thread-local list is intrusive (a freed object's first bytes link to the next) and uses
// the initial-exec TLS model, so acquire/release cost a few instructions and no __tls_get_addr
// call (core/tls_model.hpp). Only 16 bytes of static TLS per pooled type are used.
#pragma once

#include <cstddef>
#include <mutex>
#include <new>
#include <type_traits>
#include <vector>

#include "core/tls_model.hpp"

namespace kf {

template <class T>
class Pool {
 public:
  /// A fresh, default-constructed object.
  static T* acquire() {
    void* p = local_head;
    if (p != nullptr) {
      local_head = static_cast<Node*>(p)->next;
      --local_count;
    } else {
      p = refill();
    }
    return new (p) T;  // default-initialised: the NSDMIs only, no zeroing of arrays
  }

  /// Keeps `p`'s memory for reuse (the memory is never unmapped). The object's first word
  /// becomes a link. No destructor runs: pooled types are trivially destructible.
  static void release(T* p) noexcept {
    static_assert(std::is_trivially_destructible_v<T>, "pooled objects have no destructor");
    if (local_count >= kLocalCap) return release_global(p);
    if (!local_flusher_armed) arm_flusher();
    auto* n = reinterpret_cast<Node*>(p);
    n->next = local_head;
    local_head = n;
    ++local_count;
  }

 private:
  struct Node {
    Node* next;
  };
  static_assert(sizeof(T) >= 2 * sizeof(void*), "pooled objects keep a link in their first word");
  static constexpr size_t kLocalCap = 1024;
  static constexpr size_t kBatch = 64;
  static constexpr std::align_val_t kAlign{alignof(T) < 64 ? 64 : alignof(T)};

  static inline thread_local Node* local_head KF_TLS_INITIAL_EXEC = nullptr;
  static inline thread_local size_t local_count KF_TLS_INITIAL_EXEC = 0;
  static inline thread_local bool local_flusher_armed KF_TLS_INITIAL_EXEC = false;

  // Hands a thread's list to the global one when the thread exits, so no object is stranded.
  struct Flusher {
    ~Flusher() {
      Global& g = global();
      std::lock_guard<std::mutex> lock(g.mutex);
      while (local_head != nullptr) {
        Node* n = local_head;
        local_head = n->next;
        try {
          g.items.push_back(n);
        } catch (...) {
          break;  // out of memory at thread exit: keep the rest unreachable rather than crash
        }
      }
      local_count = 0;
    }
  };
  static void arm_flusher() {
    static thread_local Flusher flusher;
    (void)flusher;
    local_flusher_armed = true;
  }

  struct Global {
    std::mutex mutex;
    std::vector<void*> items;
  };
  static Global& global() {
    static Global* g = new Global();  // never destroyed: threads may exit after main
    return *g;
  }
  static void release_global(T* p) noexcept {
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mutex);
    try {
      g.items.push_back(p);
    } catch (...) {
      // Out of memory: leak this one object rather than unmap memory a stale handle may read.
    }
  }
  static void* refill() {
    {
      Global& g = global();
      std::lock_guard<std::mutex> lock(g.mutex);
      while (!g.items.empty() && local_count < kBatch) {
        auto* n = static_cast<Node*>(g.items.back());
        g.items.pop_back();
        n->next = local_head;
        local_head = n;
        ++local_count;
      }
    }
    if (local_head != nullptr) {
      Node* n = local_head;
      local_head = n->next;
      --local_count;
      return n;
    }
    return ::operator new(sizeof(T), kAlign);
  }
};

}  // namespace kf
