// Note [Handles]
// The C ABI hands out tensors, streams and events as opaque pointer-sized handles. A handle is
// not the object's address: it is a number, the object's slot index in a table (low 32 bits)
// and the slot's generation (high 32 bits). Every use of a handle goes through one decode
// (HandleTable<T>::find): index -> chunk -> slot, then the slot's current handle is compared
// with the one given, whole. Releasing an object bumps its slot's generation before the slot
// can be handed out again, so a released handle never matches again, even after its slot holds
// a new object: a stale handle is always KF_INVALID_ARGUMENT, never another tensor.
//
// - Slots live in chunks that never move and are never freed (a fixed array of chunk pointers,
//   chunks made on demand), so decoding a stale or forged handle only ever reads slot headers.
//   An index is valid once the table's count of made slots (published with release) covers it.
// - A slot's header is one atomic word: the handle of the object in it, or, while the slot is
//   free, the handle its next object will get with kFreeBit set (a bit no index has). Only
//   that word is read before a match, so a thread decoding a stale handle while another thread
//   reuses the slot reads nothing the other writes non-atomically.
// - A slot whose generation would wrap is retired (generation 0, never handed out again), so no
//   handle value is ever given out twice. NULL (index 0, generation 0) is never a handle.
// - Encoding costs one load: the header sits just before the object (handle_of).
// - Free slots are kept like pooled objects (Note [Object pools]): a thread-local intrusive
//   list of at most kLocalCap, a global list under a mutex for the rest and for exited threads.
//
// Thread safety: acquire, release, find and handle_of may be called from any thread. A handle
// stays valid until the object's release; using a handle at the same time as its last release
// on another thread is the caller's race (as with any freed object), not a stale handle.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/tls_model.hpp"

namespace kf {

static_assert(sizeof(void*) >= sizeof(uint64_t),
              "handles pack a 32-bit slot index and a 32-bit generation into a pointer");

/// What a handle refers to, for error messages (find answers the hot path).
enum class HandleState { Null, Live, Released, Foreign };

/// A table of objects of type T behind handles. T must be default-constructible without
/// throwing and trivially destructible, and name itself in `static constexpr const char*
/// kHandleKind` ("tensor"). kChunkBits: log2 of slots per chunk; kIndexBits: log2 of the most
/// slots the table holds; kFirstGeneration: a new slot's first generation (tests start near
/// the end to see slots retire).
template <class T, int kChunkBits, int kIndexBits, uint32_t kFirstGeneration = 1>
class HandleTable {
 public:
  static_assert(kIndexBits < 31 && kChunkBits < kIndexBits, "indices stay below kFreeBit");
  static_assert(kFirstGeneration != 0, "generation 0 marks retired slots and NULL");

  /// A fresh, default-constructed object with a new handle. Throws KF_OUT_OF_MEMORY.
  static T* acquire() {
    Cell* c = local_head;
    if (c != nullptr) {
      local_head = c->next;
      --local_count;
    } else {
      c = refill();
    }
    c->handle.store(c->handle.load(std::memory_order_relaxed) & ~kFreeBit,
                    std::memory_order_relaxed);
    new (c->storage) T;  // default-initialised: the NSDMIs only
    return object(*c);
  }

  /// Ends the object's life: its handle stops matching now, its slot is reused later (or
  /// retired when its generation is spent).
  static void release(T* p) noexcept {
    static_assert(std::is_trivially_destructible_v<T>, "slots are reused without destructors");
    Cell* c = cell_of(p);
    const uint64_t h = c->handle.load(std::memory_order_relaxed);
    const uint64_t next = h + (uint64_t{1} << 32) + kFreeBit;  // free, next generation
    c->handle.store(next, std::memory_order_relaxed);
    if (next < h) return;  // the generation wrapped to 0: the slot is retired, never reused
    if (local_count >= kLocalCap) return release_global(c);
    if (!local_flusher_armed) arm_flusher();
    c->next = local_head;
    local_head = c;
    ++local_count;
  }

  /// The live object behind `h`, or nullptr (NULL, released, retired or never a handle; a
  /// value with kFreeBit fails the index test, so a free slot's header never matches).
  static T* find(uint64_t h) noexcept {
    const uint32_t index = static_cast<uint32_t>(h);
    if (index >= made.load(std::memory_order_acquire)) return nullptr;
    Cell& c = cell(index);
    if (c.handle.load(std::memory_order_relaxed) != h) return nullptr;
    return object(c);
  }

  /// The handle of a live object.
  static uint64_t handle_of(const T* p) noexcept {
    return cell_of(const_cast<T*>(p))->handle.load(std::memory_order_relaxed);
  }

  /// Why `h` does not decode (or Live): a released handle is one whose slot has moved on to a
  /// later generation; anything else that does not match was never a handle.
  static HandleState state(uint64_t h) noexcept {
    if (h == 0) return HandleState::Null;
    const uint32_t index = static_cast<uint32_t>(h);
    if (index >= made.load(std::memory_order_acquire)) return HandleState::Foreign;
    const uint64_t now = cell(index).handle.load(std::memory_order_relaxed);
    if (now == h) return HandleState::Live;
    const auto given = static_cast<uint32_t>(h >> 32), current = static_cast<uint32_t>(now >> 32);
    if (given != 0 && (current == 0 || given < current)) return HandleState::Released;
    return HandleState::Foreign;
  }

 private:
  static constexpr uint64_t kFreeBit = uint64_t{1} << 31;
  static constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;
  static constexpr uint32_t kChunkSize = uint32_t{1} << kChunkBits;
  static constexpr uint32_t kMaxChunks = uint32_t{1} << (kIndexBits - kChunkBits);
  static constexpr size_t kLocalCap = 1024;
  static constexpr size_t kBatch = 64;

  struct alignas(64) Cell {
    std::atomic<uint64_t> handle;  // see the Note; constructed once, when the slot is made
    Cell* next;                    // the free list's link while the slot is free
    alignas(T) unsigned char storage[sizeof(T)];
  };
  static_assert(std::is_standard_layout_v<Cell>, "cell_of needs offsetof");

  static Cell* cell_of(T* p) noexcept {
    return reinterpret_cast<Cell*>(reinterpret_cast<unsigned char*>(p) - offsetof(Cell, storage));
  }

  // The cell of a made slot (index below `made`).
  static Cell& cell(uint32_t index) noexcept {
    return chunks[index >> kChunkBits].load(std::memory_order_relaxed)[index & (kChunkSize - 1)];
  }

  // The object in a cell: never null, which the hot paths' callers may rely on.
  static T* object(Cell& c) noexcept {
    T* p = std::launder(reinterpret_cast<T*>(c.storage));
#if defined(__GNUC__)
    if (p == nullptr) __builtin_unreachable();
#endif
    return p;
  }

  static inline thread_local Cell* local_head KF_TLS_INITIAL_EXEC = nullptr;
  static inline thread_local size_t local_count KF_TLS_INITIAL_EXEC = 0;
  static inline thread_local bool local_flusher_armed KF_TLS_INITIAL_EXEC = false;

  // Slots made so far (indices below it are valid), and the chunks holding them. Written under
  // the global mutex; `made` is published with release after its chunk and headers.
  static inline std::atomic<uint32_t> made{0};
  static inline std::atomic<Cell*> chunks[kMaxChunks] = {};

  struct Global {
    std::mutex mutex;
    std::vector<Cell*> items;
  };
  static Global& global() {
    static Global* g = new Global();  // never destroyed: threads may exit after main
    return *g;
  }

  // Hands a thread's list to the global one when the thread exits, so no slot is stranded.
  struct Flusher {
    ~Flusher() {
      Global& g = global();
      std::lock_guard<std::mutex> lock(g.mutex);
      for (; local_head != nullptr; local_head = local_head->next) {
        try {
          g.items.push_back(local_head);
        } catch (...) {
          break;  // out of memory at thread exit: strand the rest rather than crash
        }
      }
      local_head = nullptr;
      local_count = 0;
    }
  };
  static void arm_flusher() {
    static thread_local Flusher flusher;
    (void)flusher;
    local_flusher_armed = true;
  }

  static void release_global(Cell* c) noexcept {
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mutex);
    try {
      g.items.push_back(c);
    } catch (...) {
      // Out of memory: the slot is never reused, which is safe.
    }
  }

  // Makes up to kBatch new slots onto the local list (under the global mutex).
  static void make_slots() {
    const uint32_t first = made.load(std::memory_order_relaxed);
    if (first > kIndexMask - kBatch) {
      fail(KF_OUT_OF_MEMORY, "no {} handle left: {} {}s are live or retired", T::kHandleKind,
           first, T::kHandleKind);
    }
    const uint32_t chunk = first >> kChunkBits;
    Cell* base = chunks[chunk].load(std::memory_order_relaxed);
    if (base == nullptr) {
      base = static_cast<Cell*>(::operator new(sizeof(Cell) * kChunkSize,
                                               std::align_val_t{alignof(Cell)}));
      chunks[chunk].store(base, std::memory_order_relaxed);  // published by `made` below
    }
    const uint32_t n = static_cast<uint32_t>(kBatch);  // kChunkSize is a multiple of kBatch
    for (uint32_t i = n; i-- > 0;) {
      Cell* c = &base[(first + i) & (kChunkSize - 1)];
      new (&c->handle) std::atomic<uint64_t>((uint64_t{kFirstGeneration} << 32) | (first + i) |
                                             kFreeBit);
      c->next = local_head;
      local_head = c;
      ++local_count;
    }
    made.store(first + n, std::memory_order_release);
  }

  static Cell* refill() {
    {
      Global& g = global();
      std::lock_guard<std::mutex> lock(g.mutex);
      while (!g.items.empty() && local_count < kBatch) {
        Cell* c = g.items.back();
        g.items.pop_back();
        c->next = local_head;
        local_head = c;
        ++local_count;
      }
      if (local_head == nullptr) make_slots();
    }
    if (!local_flusher_armed) arm_flusher();
    Cell* c = local_head;
    local_head = c->next;
    --local_count;
    return c;
  }
  static_assert(kChunkSize % kBatch == 0, "a batch of new slots stays in one chunk");
};

/// A handle's bits and back (pointer-sized C handles carry a number, Note [Handles]).
template <class H>
inline uint64_t handle_bits(H h) noexcept {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(h));
}
template <class H>
inline H handle_from_bits(uint64_t bits) noexcept {
  return reinterpret_cast<H>(static_cast<uintptr_t>(bits));
}

/// What is wrong with a handle, for a message after "<what>: <kind> handle ": "is NULL", "was
/// already released", ... (`kind`: "tensor", "stream", "event").
std::string handle_problem(HandleState state, const char* kind);

}  // namespace kf
