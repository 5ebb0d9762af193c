// float16.hpp — IEEE half (float16) and bfloat16, the SDK's storage types, converted to and
// from float. Kernels compute on them in float (see OpMath in dtype_dispatch.hpp).
//
// Conversions round to nearest even, keep the sign of zeros, map overflow to infinity and keep
// NaN a (quiet) NaN. Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernforge/dtypes.hpp"

namespace kf::cpu {

// Half and BFloat16, the storage types, are the SDK's (kernforge/dtypes.hpp).
using ::kf::BFloat16;
using ::kf::Half;

inline float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint32_t float_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// Note [Half conversions]: the branch-light conversions of Maratyszcza's FP16 library (MIT),
// which rely only on IEEE float arithmetic (no -ffast-math in this plugin).
inline float half_to_float(uint16_t h) {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = 0xE0u << 23;
  const float normalized = bits_to_float((two_w >> 4) + exp_offset) * 0x1.0p-112f;
  const uint32_t magic_mask = 126u << 23;
  const float denormalized = bits_to_float((two_w >> 17) | magic_mask) - 0.5f;
  const uint32_t denormalized_cutoff = 1u << 27;
  const float magnitude = two_w < denormalized_cutoff ? denormalized : normalized;
  const uint32_t result = sign | float_to_bits(magnitude);
  return bits_to_float(result);
}

inline uint16_t float_to_half(float f) {
  const float abs_f = bits_to_float(float_to_bits(f) & 0x7FFFFFFFu);
  float base = (abs_f * 0x1.0p+112f) * 0x1.0p-110f;
  const uint32_t w = float_to_bits(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = bits_to_float((bias >> 1) + 0x07800000u) + base;
  const uint32_t bits = float_to_bits(base);
  const uint32_t exp_bits = (bits >> 13) & 0x00007C00u;
  const uint32_t mantissa_bits = bits & 0x00000FFFu;
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

inline float bf16_to_float(uint16_t b) { return bits_to_float(static_cast<uint32_t>(b) << 16); }

inline uint16_t float_to_bf16(float f) {
  const uint32_t u = float_to_bits(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) {  // NaN: keep the sign, make it quiet
    return static_cast<uint16_t>((u >> 16) | 0x0040u);
  }
  const uint32_t rounding = 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>((u + rounding) >> 16);
}

inline float to_float(Half h) { return half_to_float(h.bits); }
inline float to_float(BFloat16 b) { return bf16_to_float(b.bits); }
inline Half to_half(float f) { return Half{float_to_half(f)}; }
inline BFloat16 to_bf16(float f) { return BFloat16{float_to_bf16(f)}; }

}  // namespace kf::cpu
