// unary_map.hpp — the shared body of the same-dtype unary kernels (unary, math, activation,
// rounding): checks that the input has the output's dtype, picks
// the element type from the mask and maps `fn` over the elements in OpMath<T> (float for the
// 16-bit floats). `fn` is a generic callable; it sees OpMath<T> and returns a value of it.
#pragma once

#include <cstdint>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "simd_rows.hpp"
#include "strided.hpp"

namespace kf::cpu {

template <uint32_t Mask, class Fn>
void unary_map(const kf_tensor_view_t& self, const kf_tensor_view_t& out, const char* op,
               Fn fn) {
  require_dtype(self, out.dtype, "self", op);
  dispatch<Mask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = OpMath<T>;
    unary_same<T>(out, self, [fn](M x) { return static_cast<M>(fn(x)); });
  });
}

/// unary_map whose float32 rows go to the vectorised math of simd_math.hpp (simd_rows.hpp);
/// `fn` is the same function, for the other dtypes and the strided rows.
template <uint32_t Mask, class Fn>
void unary_map_simd(const kf_tensor_view_t& self, const kf_tensor_view_t& out, const char* op,
                    simd::UnaryFn simd_fn, Fn fn) {
  if (out.dtype == KF_FLOAT32 && self.dtype == KF_FLOAT32) {
    simd_unary_f32(out, self, simd_fn, [fn](float x) { return static_cast<float>(fn(x)); });
    return;
  }
  unary_map<Mask>(self, out, op, fn);
}

}  // namespace kf::cpu
