// The replaced operator new/delete and the arm/disarm state (alloc_fault.hpp).
//
// Note [Replacing operator new under ASan]
// GCC's ASan runtime (libasan.so) defines operator new and delete, but this executable comes
// first in the symbol lookup order, so its definitions win for every library, libasan's own
// references aside. The blocks come from malloc and go back to free, which ASan intercepts:
// overflows, use-after-free and leaks are still caught; only the new/delete mismatch checks are
// lost. With clang's static runtime the replacement works the same way as long as every form
// is defined here (otherwise its archive member would be pulled in and clash).
#include "alloc_fault.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace oomtest {
namespace {

struct ThreadState {
  bool armed = false;
  Kind kind = Kind::Host;
  Mode mode = Mode::Once;
  int64_t fail_at = 0;  // 0: never
  int64_t count = 0;
  bool fired = false;
};

// Constant-initialised and trivially destructible: using it runs no initialisation and never
// allocates (an operator new must not recurse into itself).
thread_local ThreadState t_state;

// Counts an allocation of `kind`; true when it is the one that must fail.
bool should_fail(Kind kind) noexcept {
  ThreadState& s = t_state;
  if (!s.armed || s.kind != kind) return false;
  ++s.count;
  const bool due = s.count == s.fail_at || (s.mode == Mode::FromThenOn && s.count > s.fail_at);
  if (s.fail_at != 0 && due) {
    s.fired = true;
    return true;
  }
  return false;
}

void* allocate(std::size_t size, std::size_t align) noexcept {
  if (should_fail(Kind::Host)) return nullptr;
  if (size == 0) size = 1;
  if (align <= alignof(std::max_align_t)) return std::malloc(size);
  void* p = nullptr;
  return posix_memalign(&p, align, size) == 0 ? p : nullptr;
}

void* allocate_or_throw(std::size_t size, std::size_t align) {
  void* p = allocate(size, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void arm(Kind kind, int64_t n, Mode mode) { t_state = ThreadState{true, kind, mode, n, 0, false}; }

int64_t disarm() {
  t_state.armed = false;
  return t_state.count;
}

bool fired() { return t_state.fired; }

}  // namespace oomtest

extern "C" bool kf_oomtest_fail_device_allocation(void) {
  return oomtest::should_fail(oomtest::Kind::Device);
}

// ------------------------------------------------------------ every replaceable form

constexpr std::size_t kPlain = alignof(std::max_align_t);

void* operator new(std::size_t n) { return oomtest::allocate_or_throw(n, kPlain); }
void* operator new[](std::size_t n) { return oomtest::allocate_or_throw(n, kPlain); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return oomtest::allocate(n, kPlain);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return oomtest::allocate(n, kPlain);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return oomtest::allocate_or_throw(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return oomtest::allocate_or_throw(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return oomtest::allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return oomtest::allocate(n, static_cast<std::size_t>(a));
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}
