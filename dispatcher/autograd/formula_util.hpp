// formula_util.hpp — the small pieces the hand-written formula helpers share (formula_helpers.cpp,
// product_backward.cpp, index_backward.cpp): a 0-dim number in a tensor's dtype, masks as a
// tensor's dtype, dims read as reductions read them. Header-only; kf::ops calls only.
#pragma once

#include <cstdint>
#include <vector>

#include "core_ops.hpp"

namespace kf::autograd::formula_util {

/// v as a 0-dim tensor of like's dtype and device.
inline TensorRef number(const TensorImpl& like, kf_scalar_t v) {
  return ops::full({}, v, like.dtype, like.device);
}

inline TensorRef number(const TensorImpl& like, double v) { return number(like, kf_scalar_f64(v)); }

/// A (bool) mask as like's dtype: 1 where true, 0 elsewhere.
inline TensorRef as_dtype_of(TensorRef mask, const TensorImpl& like) {
  return ops::to_dtype(*mask, like.dtype);
}

inline int64_t wrap_dim(int64_t d, int64_t ndim) { return d < 0 ? d + ndim : d; }

/// The dims a reduction over `dim` of a tensor of `ndim` dims reduced: all when none are given.
inline std::vector<bool> reduced_dims(IntListView dim, int64_t ndim) {
  std::vector<bool> out(static_cast<size_t>(ndim), dim.len == 0);
  for (int32_t i = 0; i < dim.len; ++i) out[static_cast<size_t>(wrap_dim(dim.data[i], ndim))] = true;
  return out;
}

inline TensorRef zeros_shaped(const TensorImpl& like, IntListView shape) {
  return ops::zeros(shape, like.dtype, like.device);
}

}  // namespace kf::autograd::formula_util
