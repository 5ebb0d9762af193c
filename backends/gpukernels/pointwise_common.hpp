// pointwise_common.hpp — what the pointwise op families (unary, rounding, binary, compare)
// share between their host glue (g++) and their kernels (nvcc): the SDK's dtype masks they
// register with (as the CPU backend does) and a scalar argument converted on
// the host into every type a kernel may compute in. Plain C++; no CUDA header.
#pragma once

#include <cstdint>

#include "kernforge/dtypes.hpp"
#include "kernforge/scalar.hpp"

namespace kf::cuda::pointwise {

// The masks are the SDK's (kernforge/dtypes.hpp), as the CPU backend's: kFloatDtypes,
// kIntDtypes, kRealDtypes (every real number, not bool) and kCudaDtypes (cuda_dtypes.hpp:
// every dtype but the complex ones).

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

inline ScalarArg scalar_arg(const kf_scalar_t& s) {
  ScalarArg a;
  a.f64 = scalar_real(s);
  a.f32 = scalar_real_f32(s);  // one rounding from the integer, as the CPU's convert
  a.i64 = scalar_int64(s);
  a.b = scalar_truth(s);  // NaN != 0: true
  return a;
}

}  // namespace kf::cuda::pointwise
