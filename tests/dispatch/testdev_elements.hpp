// testdev_elements.hpp — element access of the test backends (testdev, testasync): one element
// of any dtype read as a double or an int64, strided loops over a kernel's views, and dtype
// conversion. Plain and slow on purpose: the test backends check the dispatcher, not speed.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "kernforge/plugin.hpp"

namespace kf::testdev {

inline float f16_to_f32(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign != 0 ? -v : v;
  }
  const uint32_t x = exp == 31 ? (sign | 0x7f800000u | (mant << 13))
                               : (sign | ((exp - 15 + 127) << 23) | (mant << 13));
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

inline uint16_t f32_to_f16(float f) {  // round to nearest even
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu);
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant != 0 ? 0x200u : 0u));
  const int32_t e = exp - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t half;
  uint32_t rem;
  uint32_t mid;
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    half = mant >> shift;
    rem = mant & ((1u << shift) - 1u);
    mid = 1u << (shift - 1);
  } else {
    half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    rem = mant & 0x1fffu;
    mid = 0x1000u;
  }
  if (rem > mid || (rem == mid && (half & 1u) != 0)) ++half;  // a carry may reach the exponent
  return static_cast<uint16_t>(sign | half);
}

inline float bf16_to_f32(uint16_t h) {
  const uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

inline uint16_t f32_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40u);
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/// One element, read as a double (floating dtypes) or an int64 (integers and bool; a uint64's
/// bits, with is_unsigned set). Complex dtypes are not read: the test backends copy them only
/// as they are (convert_into).
struct Value {
  bool floating;
  double f;
  int64_t i;
  bool is_unsigned = false;
};

template <class T>
inline T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
inline void store(void* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

inline Value read(int32_t dtype, const void* p) {
  switch (dtype) {
    case KF_FLOAT32: return {true, load<float>(p), 0};
    case KF_FLOAT64: return {true, load<double>(p), 0};
    case KF_FLOAT16: return {true, f16_to_f32(load<uint16_t>(p)), 0};
    case KF_BFLOAT16: return {true, bf16_to_f32(load<uint16_t>(p)), 0};
    case KF_INT8: return {false, 0, load<int8_t>(p)};
    case KF_UINT8: return {false, 0, load<uint8_t>(p)};
    case KF_INT16: return {false, 0, load<int16_t>(p)};
    case KF_INT32: return {false, 0, load<int32_t>(p)};
    case KF_INT64: return {false, 0, load<int64_t>(p)};
    case KF_UINT16: return {false, 0, load<uint16_t>(p)};
    case KF_UINT32: return {false, 0, load<uint32_t>(p)};
    case KF_UINT64: return {false, 0, static_cast<int64_t>(load<uint64_t>(p)), true};
    case KF_BOOL: return {false, 0, load<uint8_t>(p) != 0 ? 1 : 0};
    default:
      throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                    "testdev: unknown dtype " + std::to_string(dtype));
  }
}

inline void write(int32_t dtype, void* p, const Value& v) {
  const double f = v.floating       ? v.f
                   : v.is_unsigned ? static_cast<double>(static_cast<uint64_t>(v.i))
                                   : static_cast<double>(v.i);
  // float to int truncates toward zero (then wraps like a C cast of the int64); beyond int64
  // (and NaN) int64's minimum, as the CPU backend (uint64 takes [2^63, 2^64) below).
  const bool in_int64 = v.f > -9223372036854775808.0 && v.f < 9223372036854775808.0;
  const int64_t i = !v.floating ? v.i
                    : in_int64  ? static_cast<int64_t>(std::trunc(v.f))
                                : INT64_MIN;
  switch (dtype) {
    case KF_FLOAT32: store(p, static_cast<float>(f)); return;
    case KF_FLOAT64: store(p, f); return;
    case KF_FLOAT16: store(p, f32_to_f16(static_cast<float>(f))); return;
    case KF_BFLOAT16: store(p, f32_to_bf16(static_cast<float>(f))); return;
    case KF_INT8: store(p, static_cast<int8_t>(i)); return;
    case KF_UINT8: store(p, static_cast<uint8_t>(i)); return;
    case KF_INT16: store(p, static_cast<int16_t>(i)); return;
    case KF_INT32: store(p, static_cast<int32_t>(i)); return;
    case KF_INT64: store(p, i); return;
    case KF_UINT16: store(p, static_cast<uint16_t>(i)); return;
    case KF_UINT32: store(p, static_cast<uint32_t>(i)); return;
    case KF_UINT64:
      store(p, v.floating && f >= 9223372036854775808.0 && f < 18446744073709551616.0
                   ? static_cast<uint64_t>(f)
                   : static_cast<uint64_t>(i));
      return;
    case KF_BOOL: store(p, static_cast<uint8_t>(v.floating ? f != 0.0 : v.i != 0)); return;
    default:
      throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                    "testdev: unknown dtype " + std::to_string(dtype));
  }
}

// ----------------------------------------------------------- strided loops

/// Address of element `idx` (out's shape) of view v, broadcast to out's rank (zero strides
/// where v has fewer dims).
inline char* address(const kf_tensor_view_t& v, const kf_tensor_view_t& out,
                     const int64_t* idx) {
  int64_t off = 0;
  const int32_t lead = out.ndim - v.ndim;
  for (int32_t d = 0; d < v.ndim; ++d) {
    if (v.shape[d] != 1) off += idx[d + lead] * v.strides[d];
  }
  return static_cast<char*>(v.data) + off * static_cast<int64_t>(kf_dtype_itemsize(v.dtype));
}

/// Calls f(out_ptr, in_ptrs...) for every element of out, in row-major order.
template <class F, class... In>
inline void for_each(const kf_tensor_view_t& out, F f, const In&... in) {
  if (out.numel == 0) return;
  int64_t idx[KF_MAX_NDIM] = {};
  for (int64_t n = 0; n < out.numel; ++n) {
    f(address(out, out, idx), address(in, out, idx)...);
    for (int32_t d = out.ndim - 1; d >= 0; --d) {
      if (++idx[d] < out.shape[d]) break;
      idx[d] = 0;
    }
  }
}


/// out = src converted to out's dtype, element by element (src broadcast to out's shape).
inline void convert_into(const kf_tensor_view_t& out, const kf_tensor_view_t& src) {
  if (out.dtype == src.dtype && out.dtype != KF_BOOL) {  // bool: normalised (Note [Bool bytes])
    const size_t size = kf_dtype_itemsize(out.dtype);
    for_each(out, [size](char* o, const char* s) { std::memmove(o, s, size); }, src);
    return;
  }
  for_each(out, [&](char* o, const char* s) { write(out.dtype, o, read(src.dtype, s)); }, src);
}

}  // namespace kf::testdev
