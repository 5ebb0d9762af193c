// Checked integer arithmetic for sizes, strides, offsets and byte counts.
//
// Every size the core computes from outside input (a shape, a stride, an offset, a length from
// arange's bounds) goes through these: each returns false, leaving *out unspecified, when the
// exact result does not fit in T, so the caller can refuse the input with a message naming it
// instead of wrapping to a small number. They compile to one instruction and a branch (GCC and
// Clang builtins, MinGW included). Header-only, no state: safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace kf {

/// *out = a * b; false when the product does not fit in T.
template <class T>
[[nodiscard]] inline bool checked_mul(T a, T b, T* out) noexcept {
  return !__builtin_mul_overflow(a, b, out);
}

/// *out = a + b; false when the sum does not fit in T.
template <class T>
[[nodiscard]] inline bool checked_add(T a, T b, T* out) noexcept {
  return !__builtin_add_overflow(a, b, out);
}

/// *out = a - b; false when the difference does not fit in T.
template <class T>
[[nodiscard]] inline bool checked_sub(T a, T b, T* out) noexcept {
  return !__builtin_sub_overflow(a, b, out);
}

/// Bytes of `n` elements of `item` bytes, as an int64 (what pointer arithmetic on them needs);
/// false when it does not fit (n < 0 never fits).
[[nodiscard]] inline bool checked_bytes(int64_t n, size_t item, int64_t* out) noexcept {
  return n >= 0 && item <= static_cast<size_t>(std::numeric_limits<int64_t>::max()) &&
         checked_mul(n, static_cast<int64_t>(item), out);
}

}  // namespace kf
