// convert.hpp — reading one element of any dtype, and converting numbers the way the core's
// CPU backend does (PyTorch's rules): float to int truncates toward zero, a nonzero number to
// bool is true, integers wrap when they are narrowed.
//
// The toy kernels compute in float32 and int32 only. copy_ and to_dtype still read every dtype:
// the core converts the inputs of most ops to the computation dtype before the kernel runs, but
// copy_'s source and to_dtype's input arrive in their own dtype, since converting them is the
// op's whole work.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernforge/dtypes.hpp"
#include "kernforge/plugin.h"

namespace toy {

/// One number of any dtype: floating-point dtypes (and a complex one's real part) as a double,
/// the others as an int64 (an unsigned one's bits, with is_unsigned set).
struct Number {
  bool is_float;
  double f;
  int64_t i;
  bool is_unsigned = false;
};

/// IEEE half precision (1 sign, 5 exponent, 10 mantissa bits) to float.
inline double half_to_double(uint16_t h) {
  const double sign = (h & 0x8000u) != 0 ? -1.0 : 1.0;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);  // zero and subnormals
  if (exponent == 31) return mantissa != 0 ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(mantissa | 0x400, exponent - 25);
}

/// bfloat16 is the upper half of a float32.
inline double bfloat16_to_double(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

template <class T>
constexpr bool kNoNumberFor = false;

/// The element at `p`, of dtype `dtype` (any of KF_DTYPE_LIST; its element type from the SDK's
/// kernforge/dtypes.hpp). A bool is its byte != 0: memory from outside may hold any byte there.
inline Number read_number(const void* p, int32_t dtype) {
  Number n{false, 0, 0};
  kf::for_each_dtype([&](auto tag) {
    using T = typename decltype(tag)::type;
    if (tag.kDtype != dtype) return;
    if constexpr (std::is_same_v<T, bool>) {
      uint8_t byte;
      std::memcpy(&byte, p, 1);
      n = {false, 0, byte != 0 ? 1 : 0};
    } else {
      T v;
      std::memcpy(&v, p, sizeof v);
      if constexpr (std::is_same_v<T, kf::Half>) {
        n = {true, half_to_double(v.bits), 0};
      } else if constexpr (std::is_same_v<T, kf::BFloat16>) {
        n = {true, bfloat16_to_double(v.bits), 0};
      } else if constexpr (std::is_floating_point_v<T>) {
        n = {true, static_cast<double>(v), 0};
      } else if constexpr (std::is_integral_v<T>) {
        n = {false, 0, static_cast<int64_t>(v), std::is_unsigned_v<T>};
      } else if constexpr (std::is_same_v<T, std::complex<typename T::value_type>>) {
        n = {true, static_cast<double>(v.real()), 0};  // complex to real keeps the real part
      } else {
        static_assert(kNoNumberFor<T>, "a dtype the toy's Number cannot hold: decide here");
      }
    }
  });
  return n;
}

/// `n` as a T (float or int32_t).
template <class T>
T convert(const Number& n) {
  if constexpr (std::is_floating_point_v<T>) {
    if (n.is_float) return static_cast<T>(n.f);
    return n.is_unsigned ? static_cast<T>(static_cast<uint64_t>(n.i)) : static_cast<T>(n.i);
  } else {
    if (!n.is_float) return static_cast<T>(n.i);  // wraps
    // Truncates; NaN and values beyond int64 give int64's minimum first (x86's "integer
    // indefinite"), as the CPU backend does.
    const bool fits = n.f > -9223372036854775808.0 && n.f < 9223372036854775808.0;
    return static_cast<T>(fits ? static_cast<int64_t>(n.f) : std::numeric_limits<int64_t>::min());
  }
}

/// A scalar argument (fill_value, alpha) as a T.
template <class T>
T convert(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_FLOAT64: return convert<T>(Number{true, s.v.f64, 0});
    case KF_SCALAR_INT64: return convert<T>(Number{false, 0, s.v.i64});
    case KF_SCALAR_UINT64: return convert<T>(Number{false, 0, static_cast<int64_t>(s.v.u64), true});
    case KF_SCALAR_COMPLEX128: return convert<T>(Number{true, s.v.c128.re, 0});  // imag is 0
    default: return convert<T>(Number{false, 0, s.v.b ? 1 : 0});
  }
}

}  // namespace toy
