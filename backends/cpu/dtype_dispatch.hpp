// dtype_dispatch.hpp — from a runtime kf_dtype_t to a C++ element type.
//
//   dispatch<kMask>(dtype, "add", [&](auto tag) { using T = typename decltype(tag)::type; ... });
//
// instantiates the functor only for the dtypes in the compile-time mask kMask (the same mask the
// kernel registers with) and throws KernelError(KF_UNIMPLEMENTED) naming the dtype and the op
// for any other dtype. Also: element conversions (convert<To>(from)), the compute type of each
// storage type (OpMath), and scalar conversion (scalar_to<T>). All header-only and thread-safe.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "float16.hpp"
#include "kernforge/plugin.hpp"

namespace kf::cpu {

template <class T>
struct TypeTag {
  using type = T;
};

constexpr uint32_t bit(kf_dtype_t d) { return dtype_bit(d); }

// Dtype masks (bit per kf_dtype_t), shared by dispatch and registration; kernforge/dtypes.hpp
// derives them from KF_DTYPE_LIST by kind.
constexpr uint32_t kHalfMask = kHalfDtypes;
constexpr uint32_t kAllFloatMask = kFloatDtypes;
constexpr uint32_t kFloatMask = kAllFloatMask & ~kHalfMask;  // the floats that compute as such
constexpr uint32_t kIntMask = kIntDtypes;
constexpr uint32_t kNumericMask = kRealDtypes;  // every real number: not bool, not complex
constexpr uint32_t kComplexMask = kComplexDtypes;
constexpr uint32_t kAllMask = kAllDtypes;
/// Every dtype with an order (<, min, max): all but the complex ones.
constexpr uint32_t kOrderedMask = kAllDtypes & ~kComplexDtypes;

inline const char* dtype_name(int32_t d) { return dtype_text(d); }

[[noreturn]] inline void throw_unsupported_dtype(int32_t d, const char* op) {
  throw kf::plugin::KernelError(KF_UNIMPLEMENTED, std::string("dtype ") + dtype_name(d) +
                                                      " is not supported by cpu " + op);
}

/// Calls f(TypeTag<T>{}) for the element type T of `dtype` (kernforge/dtypes.hpp's element_t)
/// when `dtype` is in Mask. One case per line of KF_DTYPE_LIST.
template <uint32_t Mask, class F>
void dispatch(int32_t dtype, const char* op, F&& f) {
  switch (dtype) {
#define KF_CPU_CASE_(suffix, value, name, short_name, bytes, kind, cpp_name)      \
  case KF_##suffix:                                                    \
    if constexpr ((Mask & bit(KF_##suffix)) != 0) {                    \
      return f(TypeTag<element_t<KF_##suffix>>{});                     \
    }                                                                  \
    break;
    KF_DTYPE_LIST(KF_CPU_CASE_)
#undef KF_CPU_CASE_
    default:
      break;
  }
  throw_unsupported_dtype(dtype, op);
}

template <class T>
constexpr bool is_half_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

/// The type kernels compute in: float for the 16-bit floats, T itself otherwise.
template <class T>
using OpMath = std::conditional_t<is_half_v<T>, float, T>;

/// A value of any element type as its compute type.
template <class T>
inline OpMath<T> load(T v) {
  if constexpr (is_half_v<T>) {
    return to_float(v);
  } else {
    return v;
  }
}

template <class T>
struct is_complex : std::false_type {};
template <class F>
struct is_complex<std::complex<F>> : std::true_type {};
template <class T>
constexpr bool is_complex_v = is_complex<T>::value;

/// Floating point to integer: truncation toward zero; values beyond the destination's 64-bit
/// range (and NaN) give int64's minimum (x86's "integer indefinite"), narrower types wrap like
/// a C cast of int64. uint64 takes [0, 2^64) as it is.
template <class To, class From>
inline To float_to_int(From v) {
  const double d = static_cast<double>(v);
  if constexpr (std::is_same_v<To, uint64_t>) {
    if (d >= 0.0 && d < 18446744073709551616.0) return static_cast<uint64_t>(d);
  }
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) {
    return static_cast<To>(std::numeric_limits<int64_t>::min());
  }
  return static_cast<To>(static_cast<int64_t>(d));
}

/// Converts one element between any two element types (PyTorch's rules: float to int
/// truncates, nonzero (and NaN) to bool is true, bool is 0/1; complex to real keeps the real
/// part, real to complex has a zero imaginary part).
template <class To, class From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_half_v<From>) {
    return convert<To>(to_float(v));
  } else if constexpr (is_complex_v<To>) {
    using P = typename To::value_type;
    if constexpr (is_complex_v<From>) {
      return To(static_cast<P>(v.real()), static_cast<P>(v.imag()));
    } else {
      return To(convert<P>(v), P(0));
    }
  } else if constexpr (is_complex_v<From>) {
    if constexpr (std::is_same_v<To, bool>) {
      return v.real() != 0 || v.imag() != 0;
    } else {
      return convert<To>(v.real());
    }
  } else if constexpr (std::is_same_v<To, Half>) {
    return to_half(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return to_bf16(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return float_to_int<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

/// A scalar argument as element type T, exact for int64 and uint64 scalars into integer types.
/// The core has checked that T holds the value (a complex scalar reaches a real T only with a
/// zero imaginary part).
template <class T>
inline T scalar_to(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_INT64: return convert<T>(s.v.i64);
    case KF_SCALAR_UINT64: return convert<T>(s.v.u64);
    case KF_SCALAR_BOOL: return convert<T>(s.v.b);
    case KF_SCALAR_COMPLEX128:
      return convert<T>(std::complex<double>(s.v.c128.re, s.v.c128.im));
    default: return convert<T>(s.v.f64);
  }
}

/// A scalar argument as the compute type of T (alpha of add/sub on float16 stays a float).
template <class T>
inline OpMath<T> scalar_to_opmath(const kf_scalar_t& s) {
  return scalar_to<OpMath<T>>(s);
}

}  // namespace kf::cpu
