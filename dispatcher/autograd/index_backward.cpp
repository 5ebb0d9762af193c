// index_backward.cpp — the gradients of the indexing ops (formula helpers of
// dispatcher/derivatives.yaml): index_select, gather, scatter_add_, index_copy_ and
// masked_select_static. Each sends the gradient back to the positions the op read or wrote,
// with the ops that are the adjoints (index_add_ for index_select, scatter_add_ for gather),
// in kf::ops calls so that a gradient of these gradients records too.
#include <vector>

#include "formula_helpers.hpp"
#include "formula_util.hpp"

namespace kf::autograd::helpers {
namespace {

using namespace formula_util;  // NOLINT(google-build-using-namespace): the shared pieces

bool same_shape(const TensorImpl& t, IntListView shape) {
  if (t.ndim != shape.len) return false;
  for (int32_t d = 0; d < t.ndim; ++d) {
    if (t.shape[d] != shape.data[d]) return false;
  }
  return true;
}

/// A zero tensor of `shape` whose leading corner (t's shape) holds t.
TensorRef padded_to(TensorImpl& t, IntListView shape) {
  if (same_shape(t, shape) || shape.len == 0) return ops::reshape(t, shape);
  TensorRef z = zeros_shaped(t, shape);
  // (A 0-dim t, from a 0-dim index, is the corner [1, ..., 1].)
  auto extent = [&t](int32_t d) { return t.ndim > 0 ? t.shape[d] : int64_t{1}; };
  TensorRef corner = ops::slice(*z, 0, 0, extent(0));
  for (int32_t d = 1; d < shape.len; ++d) corner = ops::slice(*corner, d, 0, extent(d));
  ops::copy_(*corner, t);
  return z;
}

/// For a 1-D index, true at each entry that is the last one naming its position: the entry
/// index_copy_ keeps (a later entry for the same position overwrites it).
TensorRef last_of_each_position(TensorImpl& index, int64_t size) {
  const int64_t k = index.numel;
  TensorRef order = ops::arange(kf_scalar_i64(0), kf_scalar_i64(k), kf_scalar_i64(1), KF_INT64,
                                index.device);
  TensorRef owner = ops::full(std::vector<int64_t>{size}, kf_scalar_i64(-1), KF_INT64, index.device);
  ops::index_copy_(*owner, 0, index, *order);
  return ops::eq(*ops::index_select(*owner, 0, index), *order);
}

}  // namespace

// The entries grad holds, added back at their positions along dim of a zero tensor of shape.
TensorRef index_select_backward(TensorImpl& grad, IntListView shape, int64_t dim,
                                TensorImpl& index) {
  TensorRef z = zeros_shaped(grad, shape);
  ops::index_add_(*z, dim, index, grad);
  return z;
}

// gather read self[index[i][j]][j]: each entry of grad goes back there, repeats adding up.
TensorRef gather_backward(TensorImpl& grad, IntListView shape, int64_t dim, TensorImpl& index) {
  TensorRef z = zeros_shaped(grad, shape);
  ops::scatter_add_(*z, dim, index, grad);
  return z;
}

// scatter_add_ read src only where index has entries (its leading corner): gather there, zero
// beyond.
TensorRef scatter_add_src_backward(TensorImpl& grad, int64_t dim, TensorImpl& index,
                                   IntListView src_shape) {
  return padded_to(*ops::gather(grad, dim, index), src_shape);
}

// index_copy_ overwrote self at the positions index names: those get no gradient.
TensorRef index_copy_self_backward(TensorImpl& grad, int64_t dim, TensorImpl& index,
                                   IntListView source_shape) {
  TensorRef g = ops::clone(grad);
  ops::index_copy_(*g, dim, index, *zeros_shaped(grad, source_shape));
  return g;
}

// Each entry of source lands at its position unless a later entry names the same one.
TensorRef index_copy_source_backward(TensorImpl& grad, int64_t dim, TensorImpl& index) {
  TensorRef picked = ops::index_select(grad, dim, index);
  if (index.numel <= 1 || grad.ndim == 0) return picked;
  const int64_t d = wrap_dim(dim, grad.ndim);
  std::vector<int64_t> along(static_cast<size_t>(grad.ndim), 1);
  along[static_cast<size_t>(d)] = index.numel;
  TensorRef keep = last_of_each_position(*ops::reshape(index, std::vector<int64_t>{-1}),
                                         grad.shape[d]);
  return ops::mul(*picked, *as_dtype_of(ops::reshape(*keep, along), grad));
}

// masked_select_static's entries came from self's true positions, in row-major order; the
// places past the count (filled with zero) came from nowhere.
TensorRef masked_select_backward(TensorImpl& grad, TensorImpl& mask, IntListView shape) {
  const int64_t size = grad.numel;
  if (mask.numel == 0) return zeros_shaped(grad, shape);
  TensorRef flat = ops::reshape(mask, std::vector<int64_t>{-1});
  TensorRef where = ops::reshape(*ops::nonzero_static(*flat, size, -1), std::vector<int64_t>{size});
  TensorRef found = as_dtype_of(ops::ge(*where, *number(*where, kf_scalar_i64(0))), grad);
  TensorRef z = zeros_shaped(grad, std::vector<int64_t>{flat->numel});
  ops::index_add_(*z, 0, *ops::clamp(*where, kf_scalar_i64(0)), *ops::mul(grad, *found));
  return ops::reshape(*z, shape);
}

}  // namespace kf::autograd::helpers
