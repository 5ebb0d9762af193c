// convert.cuh — element conversion between the ten dtypes with the dtype chosen at run time,
// for the kernels of copy.cu and factory.cu (one kernel serves every pair of dtypes, so the
// pairs cost no template instantiations). Included by *.cu files only.
//
// Note [Conversions]
// The CPU backend's convert<To>(From v) (backends/cpu/dtype_dispatch.hpp), pair by pair:
//   - a 16-bit float is first widened to float (exact);
//   - to float16/bfloat16: static_cast<float>(v), then round to nearest even (so a double
//     or an int64 is rounded twice, first to float, as on the CPU);
//   - to bool: v != 0 (NaN is nonzero: true);
//   - floating to integer: truncation toward zero through int64; NaN and values outside
//     (-2^63, 2^63) give int64's minimum (x86's "integer indefinite"), and narrower integer
//     types keep the low bits of that int64, like a C cast;
//   - everything else is a C++ static_cast (integers wrap; int64 to float rounds to nearest).
// A loaded element becomes a Number (copy_launch.hpp): integers and bool as an int64 (exact),
// floating values as a double (exact for every floating dtype), and the store converts that
// Number with the rules above. Each rule gives the CPU's result for every source type: e.g.
// int32 -> float is (float)(int64)v, the same rounding as (float)v; float -> int16 truncates
// the double of the float, which is the float's own value.
// There is no arithmetic here, only conversions, which CUDA rounds to nearest like the host.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>
#include <cstring>

#include "copy_launch.hpp"
#include "kernforge/dtypes.hpp"

namespace kf::cuda {

/// Bytes of one element of `dtype`.
__host__ __device__ inline int dtype_width(int dtype) {
  return static_cast<int>(dtype_bytes(dtype));
}

/// The CPU's float_to_int through int64 (Note [Conversions]).
__host__ __device__ inline int64_t float_to_i64(double d) {
  if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) {
    return static_cast<int64_t>(0x8000000000000000ull);  // int64's minimum
  }
  return static_cast<int64_t>(d);
}

__host__ __device__ inline float number_to_f32(const Number& v) {
  return v.is_float ? static_cast<float>(v.f) : static_cast<float>(v.i);
}
__host__ __device__ inline double number_to_f64(const Number& v) {
  return v.is_float ? v.f : static_cast<double>(v.i);
}
__host__ __device__ inline int64_t number_to_i64(const Number& v) {
  return v.is_float ? float_to_i64(v.f) : v.i;
}
__host__ __device__ inline bool number_to_bool(const Number& v) {
  return v.is_float ? v.f != 0.0 : v.i != 0;
}

__host__ __device__ inline Number int_number(int64_t i) {
  Number n;
  n.i = i;
  return n;
}
__host__ __device__ inline Number float_number(double f) {
  Number n;
  n.is_float = 1;
  n.f = f;
  return n;
}

/// Element `i` of an array of `dtype` at `base`, as a Number.
__device__ __forceinline__ Number load_number(const void* base, int64_t i, int dtype) {
  switch (dtype) {
    case KF_FLOAT32: return float_number(static_cast<const float*>(base)[i]);
    case KF_FLOAT64: return float_number(static_cast<const double*>(base)[i]);
    case KF_FLOAT16: return float_number(__half2float(static_cast<const __half*>(base)[i]));
    case KF_BFLOAT16:
      return float_number(__bfloat162float(static_cast<const __nv_bfloat16*>(base)[i]));
    case KF_INT8: return int_number(static_cast<const int8_t*>(base)[i]);
    case KF_UINT8: return int_number(static_cast<const uint8_t*>(base)[i]);
    case KF_INT16: return int_number(static_cast<const int16_t*>(base)[i]);
    case KF_INT32: return int_number(static_cast<const int32_t*>(base)[i]);
    case KF_INT64: return int_number(static_cast<const int64_t*>(base)[i]);
    default: return int_number(static_cast<const uint8_t*>(base)[i] != 0 ? 1 : 0);  // bool
  }
}

/// Stores Number v converted to `dtype` as element `i` of the array at `base`.
__device__ __forceinline__ void store_number(void* base, int64_t i, int dtype, const Number& v) {
  switch (dtype) {
    case KF_FLOAT32: static_cast<float*>(base)[i] = number_to_f32(v); break;
    case KF_FLOAT64: static_cast<double*>(base)[i] = number_to_f64(v); break;
    case KF_FLOAT16: static_cast<__half*>(base)[i] = __float2half_rn(number_to_f32(v)); break;
    case KF_BFLOAT16:
      static_cast<__nv_bfloat16*>(base)[i] = __float2bfloat16_rn(number_to_f32(v));
      break;
    case KF_INT8: static_cast<int8_t*>(base)[i] = static_cast<int8_t>(number_to_i64(v)); break;
    case KF_UINT8: static_cast<uint8_t*>(base)[i] = static_cast<uint8_t>(number_to_i64(v)); break;
    case KF_INT16: static_cast<int16_t*>(base)[i] = static_cast<int16_t>(number_to_i64(v)); break;
    case KF_INT32: static_cast<int32_t*>(base)[i] = static_cast<int32_t>(number_to_i64(v)); break;
    case KF_INT64: static_cast<int64_t*>(base)[i] = number_to_i64(v); break;
    default: static_cast<uint8_t*>(base)[i] = number_to_bool(v) ? 1 : 0; break;  // bool
  }
}

/// Raw element `i` of width `width` (1, 2, 4 or 8 bytes), zero-extended.
__device__ __forceinline__ uint64_t load_bits(const void* base, int64_t i, int width) {
  switch (width) {
    case 8: return static_cast<const uint64_t*>(base)[i];
    case 4: return static_cast<const uint32_t*>(base)[i];
    case 2: return static_cast<const uint16_t*>(base)[i];
    default: return static_cast<const uint8_t*>(base)[i];
  }
}

__device__ __forceinline__ void store_bits(void* base, int64_t i, int width, uint64_t bits) {
  switch (width) {
    case 8: static_cast<uint64_t*>(base)[i] = bits; break;
    case 4: static_cast<uint32_t*>(base)[i] = static_cast<uint32_t>(bits); break;
    case 2: static_cast<uint16_t*>(base)[i] = static_cast<uint16_t>(bits); break;
    default: static_cast<uint8_t*>(base)[i] = static_cast<uint8_t>(bits); break;
  }
}

/// The bits of Number v converted to `dtype`, in the low dtype_width(dtype) bytes (host code:
/// the launchers convert a fill value once).
inline uint64_t encode_number(int dtype, const Number& v) {
  uint64_t bits = 0;
  auto put = [&bits](const auto& x) { std::memcpy(&bits, &x, sizeof x); };
  switch (dtype) {
    case KF_FLOAT32: put(number_to_f32(v)); break;
    case KF_FLOAT64: put(number_to_f64(v)); break;
    case KF_FLOAT16: put(__half_raw(__float2half_rn(number_to_f32(v))).x); break;
    case KF_BFLOAT16: put(__nv_bfloat16_raw(__float2bfloat16_rn(number_to_f32(v))).x); break;
    case KF_INT8: put(static_cast<int8_t>(number_to_i64(v))); break;
    case KF_UINT8: put(static_cast<uint8_t>(number_to_i64(v))); break;
    case KF_INT16: put(static_cast<int16_t>(number_to_i64(v))); break;
    case KF_INT32: put(static_cast<int32_t>(number_to_i64(v))); break;
    case KF_INT64: put(number_to_i64(v)); break;
    default: put(static_cast<uint8_t>(number_to_bool(v) ? 1 : 0)); break;
  }
  return bits;
}

}  // namespace kf::cuda
