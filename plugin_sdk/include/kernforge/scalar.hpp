// kernforge/scalar.hpp — a scalar argument (kf_scalar_t) read the way the CPU backend's
// scalar_to<T> reads it, for kernels that do not work in C++ element types (CUDA launchers,
// OpenCL arguments, a toy device). The core has already checked that the op's dtype holds the
// value (Note [Scalars to dtypes]): a real kernel never gets a complex scalar with a nonzero
// imaginary part, nor an integer out of its dtype's range. Header-only.
#pragma once

#include <cstdint>

#include "kernforge/types.h"

namespace kf {

/// The value as a double: int64 and uint64 rounded to nearest, bool 0 or 1, a complex scalar's
/// real part.
inline double scalar_real(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_INT64: return static_cast<double>(s.v.i64);
    case KF_SCALAR_UINT64: return static_cast<double>(s.v.u64);
    case KF_SCALAR_BOOL: return s.v.b ? 1.0 : 0.0;
    case KF_SCALAR_COMPLEX128: return s.v.c128.re;
    default: return s.v.f64;
  }
}

/// The imaginary part: 0 for a scalar that is not complex.
inline double scalar_imag(const kf_scalar_t& s) {
  return s.tag == KF_SCALAR_COMPLEX128 ? s.v.c128.im : 0.0;
}

/// The value as a float, rounded once from the integer or double it holds (as a C++ cast).
inline float scalar_real_f32(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_INT64: return static_cast<float>(s.v.i64);
    case KF_SCALAR_UINT64: return static_cast<float>(s.v.u64);
    default: return static_cast<float>(scalar_real(s));
  }
}

/// Whether the value is nonzero (NaN is).
inline bool scalar_truth(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_INT64: return s.v.i64 != 0;
    case KF_SCALAR_UINT64: return s.v.u64 != 0;
    case KF_SCALAR_BOOL: return s.v.b;
    case KF_SCALAR_COMPLEX128: return s.v.c128.re != 0.0 || s.v.c128.im != 0.0;
    default: return s.v.f64 != 0.0;
  }
}

/// Whether a kernel should read the value as an integer (int64, uint64 and bool scalars).
inline bool scalar_is_integer(const kf_scalar_t& s) {
  return s.tag == KF_SCALAR_INT64 || s.tag == KF_SCALAR_UINT64 || s.tag == KF_SCALAR_BOOL;
}

/// The value as an integer's two's complement bits: integers as they are, bool 0 or 1, a float
/// (or a complex scalar's real part) truncated toward zero, with [2^63, 2^64) kept for uint64
/// and NaN or anything else beyond int64 giving int64's minimum (x86's "integer indefinite",
/// the CPU's float_to_int). An integer dtype keeps the low bits.
inline uint64_t scalar_int_bits(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_INT64: return static_cast<uint64_t>(s.v.i64);
    case KF_SCALAR_UINT64: return s.v.u64;
    case KF_SCALAR_BOOL: return s.v.b ? 1u : 0u;
    default: break;
  }
  const double d = scalar_real(s);
  if (d >= 9223372036854775808.0 && d < 18446744073709551616.0) return static_cast<uint64_t>(d);
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return uint64_t{1} << 63;
  return static_cast<uint64_t>(static_cast<int64_t>(d));
}

/// scalar_int_bits as an int64.
inline int64_t scalar_int64(const kf_scalar_t& s) {
  return static_cast<int64_t>(scalar_int_bits(s));
}

}  // namespace kf
