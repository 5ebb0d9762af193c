// pointwise_common.hpp — what the pointwise op families (unary, rounding, binary, compare)
// share between their host glue (g++) and their kernels (nvcc): the SDK's dtype masks they
// register with (as the CPU backend does) and a scalar argument converted on
// the host into every type a kernel may compute in. Plain C++; no CUDA header.
#pragma once

#include <cstdint>

#include "kernforge/dtypes.hpp"

namespace kf::cuda::pointwise {

// The masks are the SDK's (kernforge/dtypes.hpp), as the CPU backend's: kFloatDtypes,
// kIntDtypes, kRealDtypes (every real number, not bool) and kAllDtypes.

/// A Scalar argument in each type a kernel computes in, converted as the CPU backend's
/// scalar_to<T> does (dtype_dispatch.hpp): `i64` is the value for every integer dtype (a kernel
/// casts it to its type, which wraps like the CPU's conversion from int64), float to integer
/// truncates toward zero (int64's minimum for NaN and values beyond int64), and nonzero (NaN
/// included) is true.
struct ScalarArg {
  double f64 = 0.0;
  float f32 = 0.0f;
  int64_t i64 = 0;
  bool b = false;
};

/// Floating point to int64 as the CPU's float_to_int: truncation, int64's minimum outside.
inline int64_t float_to_int64(double d) {
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<int64_t>(d);
}

inline ScalarArg scalar_arg(const kf_scalar_t& s) {
  ScalarArg a;
  switch (s.tag) {
    case KF_SCALAR_INT64:
      a.f64 = static_cast<double>(s.v.i64);
      a.f32 = static_cast<float>(s.v.i64);  // one rounding from int64, as the CPU's convert
      a.i64 = s.v.i64;
      a.b = s.v.i64 != 0;
      break;
    case KF_SCALAR_BOOL:
      a.f64 = s.v.b ? 1.0 : 0.0;
      a.f32 = s.v.b ? 1.0f : 0.0f;
      a.i64 = s.v.b ? 1 : 0;
      a.b = s.v.b;
      break;
    default:
      a.f64 = s.v.f64;
      a.f32 = static_cast<float>(s.v.f64);
      a.i64 = float_to_int64(s.v.f64);
      a.b = s.v.f64 != 0.0;  // NaN != 0: true
      break;
  }
  return a;
}

}  // namespace kf::cuda::pointwise
