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

constexpr uint32_t bit(kf_dtype_t d) { return 1u << static_cast<uint32_t>(d); }

// Dtype masks (bit per kf_dtype_t), shared by dispatch and registration.
constexpr uint32_t kFloatMask = bit(KF_FLOAT32) | bit(KF_FLOAT64);
constexpr uint32_t kHalfMask = bit(KF_FLOAT16) | bit(KF_BFLOAT16);
constexpr uint32_t kAllFloatMask = kFloatMask | kHalfMask;
constexpr uint32_t kIntMask =
    bit(KF_INT8) | bit(KF_UINT8) | bit(KF_INT16) | bit(KF_INT32) | bit(KF_INT64);
constexpr uint32_t kNumericMask = kAllFloatMask | kIntMask;  // everything but bool
constexpr uint32_t kAllMask = kNumericMask | bit(KF_BOOL);

inline const char* dtype_name(int32_t d) {
  switch (d) {
    case KF_FLOAT32: return "float32";
    case KF_FLOAT64: return "float64";
    case KF_FLOAT16: return "float16";
    case KF_BFLOAT16: return "bfloat16";
    case KF_INT8: return "int8";
    case KF_UINT8: return "uint8";
    case KF_INT16: return "int16";
    case KF_INT32: return "int32";
    case KF_INT64: return "int64";
    case KF_BOOL: return "bool";
    default: return "undefined";
  }
}

[[noreturn]] inline void throw_unsupported_dtype(int32_t d, const char* op) {
  throw kf::plugin::KernelError(KF_UNIMPLEMENTED, std::string("dtype ") + dtype_name(d) +
                                                      " is not supported by cpu " + op);
}

/// Calls f(TypeTag<T>{}) for the C++ type T of `dtype` when `dtype` is in Mask.
template <uint32_t Mask, class F>
void dispatch(int32_t dtype, const char* op, F&& f) {
  switch (dtype) {
#define KF_CPU_CASE(D, T)                                   \
  case D:                                                   \
    if constexpr ((Mask & bit(D)) != 0) return f(TypeTag<T>{}); \
    break;
    KF_CPU_CASE(KF_FLOAT32, float)
    KF_CPU_CASE(KF_FLOAT64, double)
    KF_CPU_CASE(KF_FLOAT16, Half)
    KF_CPU_CASE(KF_BFLOAT16, BFloat16)
    KF_CPU_CASE(KF_INT8, int8_t)
    KF_CPU_CASE(KF_UINT8, uint8_t)
    KF_CPU_CASE(KF_INT16, int16_t)
    KF_CPU_CASE(KF_INT32, int32_t)
    KF_CPU_CASE(KF_INT64, int64_t)
    KF_CPU_CASE(KF_BOOL, bool)
#undef KF_CPU_CASE
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

/// Floating point to integer: truncation toward zero; values beyond int64 (and NaN) give
/// int64's minimum (x86's "integer indefinite"), narrower types wrap like a C cast of int64.
template <class To, class From>
inline To float_to_int(From v) {
  const double d = static_cast<double>(v);
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) {
    return static_cast<To>(std::numeric_limits<int64_t>::min());
  }
  return static_cast<To>(static_cast<int64_t>(d));
}

/// Converts one element between any two element types (PyTorch's rules: float to int
/// truncates, nonzero (and NaN) to bool is true, bool is 0/1).
template <class To, class From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_half_v<From>) {
    return convert<To>(to_float(v));
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

/// A scalar argument as element type T, exact for int64 scalars into integer types.
template <class T>
inline T scalar_to(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_INT64: return convert<T>(s.v.i64);
    case KF_SCALAR_BOOL: return convert<T>(s.v.b);
    default: return convert<T>(s.v.f64);
  }
}

/// A scalar argument as the compute type of T (alpha of add/sub on float16 stays a float).
template <class T>
inline OpMath<T> scalar_to_opmath(const kf_scalar_t& s) {
  return scalar_to<OpMath<T>>(s);
}

}  // namespace kf::cpu
