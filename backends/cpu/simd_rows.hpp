// simd_rows.hpp — float32 pointwise maps whose contiguous rows go to the vectorised math of
// simd_math.hpp. The plan (strided.hpp) merges dims first, so a dense tensor is one row split
// over threads; a strided or broadcast row falls back to the scalar function, element by
// element. The output may alias the input exactly (in-place variants).
#pragma once

#include "simd_math.hpp"
#include "strided.hpp"

namespace kf::cpu {

/// out[i] = fn(a[i]) for float32 out and a; `scalar` is the same function on one float.
template <class Scalar>
void simd_unary_f32(const kf_tensor_view_t& out, const kf_tensor_view_t& a, simd::UnaryFn fn,
                    Scalar scalar) {
  const kf_tensor_view_t* views[2] = {&out, &a};
  const int64_t elem[2] = {sizeof(float), sizeof(float)};
  for_each_row(make_plan(views, elem), [&](char* const* p, const int64_t* s, int64_t n) {
    if (s[0] == static_cast<int64_t>(sizeof(float)) && s[1] == static_cast<int64_t>(sizeof(float))) {
      simd::unary_f32(fn, reinterpret_cast<const float*>(p[1]), reinterpret_cast<float*>(p[0]), n);
      return;
    }
    for (int64_t i = 0; i < n; ++i) at<float>(p[0], i, s[0]) = scalar(at<const float>(p[1], i, s[1]));
  });
}

}  // namespace kf::cpu
