// product_backward.cpp — the gradients of prod and cumprod (formula helpers of
// dispatcher/derivatives.yaml), exact where inputs are zero: no division by an input that can
// be 0, so a product with one zero still passes each entry the product of the others, and with
// two zeros passes 0, as the derivative is. Written in kf::ops calls, so a gradient of these
// gradients records too.
#include <vector>

#include "autograd/autograd_meta.hpp"
#include "formula_helpers.hpp"
#include "formula_util.hpp"

namespace kf::autograd::helpers {
namespace {

using namespace formula_util;  // NOLINT(google-build-using-namespace): the shared pieces

/// x shifted by one along its last dim, a 1 entering first: [1, x0, ..., x(K-2)].
TensorRef shift_in_one(TensorImpl& x) {
  const int64_t k = x.shape[x.ndim - 1];
  TensorRef out = ops::ones(IntListView(x.shape, x.ndim), x.dtype, x.device);
  follow_writes(*out, x);
  if (k > 1) ops::copy_(*ops::slice(*out, -1, 1), *ops::slice(x, -1, 0, k - 1));
  return out;
}

/// For each entry of x along its last dim, the product of the other entries of its row:
/// (product of those before) * (product of those after), each an exclusive cumprod.
TensorRef product_of_others(TensorImpl& x) {
  const std::vector<int64_t> last{-1};
  TensorRef before = shift_in_one(*ops::cumprod(x, -1));
  TensorRef reversed = ops::flip(x, last);
  TensorRef after = ops::flip(*shift_in_one(*ops::cumprod(*reversed, -1)), last);
  return ops::mul(*before, *after);
}

/// The permutation that puts the reduced dims of a tensor last (kept ones first, in order).
std::vector<int64_t> reduced_last(const std::vector<bool>& reduced) {
  std::vector<int64_t> perm;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t d = 0; d < reduced.size(); ++d) {
      if (reduced[d] == (pass == 1)) perm.push_back(static_cast<int64_t>(d));
    }
  }
  return perm;
}

/// The transformation `perm` undoes.
std::vector<int64_t> inverse(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}

}  // namespace

// prod over `dim` (all when empty): each entry gets the gradient times the product of the
// other entries it was multiplied with, found with the reduced dims moved last and flattened
// into one.
TensorRef prod_backward(TensorImpl& grad, TensorImpl& self, IntListView dim, bool keepdim) {
  const IntListView shape(self.shape, self.ndim);
  TensorRef g = unreduce(grad, shape, dim, keepdim);
  if (self.ndim == 0 || self.numel == 0) return ops::mul(*g, *ops::ones_like(self));
  const std::vector<bool> reduced = reduced_dims(dim, self.ndim);
  const std::vector<int64_t> perm = reduced_last(reduced);
  TensorRef moved = ops::permute(self, perm);
  std::vector<int64_t> rows;
  int64_t k = 1;
  for (int64_t d : perm) {
    if (reduced[static_cast<size_t>(d)]) {
      k *= self.shape[d];
    } else {
      rows.push_back(self.shape[d]);
    }
  }
  rows.push_back(k);
  TensorRef others = product_of_others(*conjugate(*ops::reshape(*moved, rows)));
  TensorRef back = ops::reshape(*others, IntListView(moved->shape, moved->ndim));
  return ops::mul(*g, *ops::permute(*back, inverse(perm)));
}

// cumprod along dim: out_j = x_0 ... x_j, so d out_j / d x_k (k <= j) is the product of
// x_0..x_j but x_k. Before the first zero of a row that is out_j / x_k, and the gradient there
// is reverse_cumsum(grad * out) / x; after the first zero every such product holds that zero,
// so the gradient is 0; at the first zero z it is the sum over j >= z of grad_j times the
// cumprod of the row with x_z replaced by 1. (Complex inputs: the same with x and out
// conjugated, the conjugate of each derivative.)
TensorRef cumprod_backward(TensorImpl& grad, TensorImpl& self, TensorImpl& result, int64_t dim) {
  if (self.ndim == 0 || self.numel == 0) return ops::mul(grad, *ops::ones_like(self));
  TensorRef x = conjugate(self), out = conjugate(result);
  const std::vector<int64_t> dims{dim};
  TensorRef zero = number(*x, 0.0), one = number(*x, 1.0);
  TensorRef is_zero = ops::eq(*x, *zero);
  TensorRef zeros_seen = ops::cumsum(*is_zero, dim, KF_INT64);
  TensorRef none_yet = ops::eq(*zeros_seen, *number(*zeros_seen, kf_scalar_i64(0)));
  TensorRef first =
      ops::logical_and(*is_zero, *ops::eq(*zeros_seen, *number(*zeros_seen, kf_scalar_i64(1))));
  TensorRef safe = ops::where(*is_zero, *one, *x);
  TensorRef tail = ops::flip(*ops::cumsum(*ops::flip(*ops::mul(grad, *out), dims), dim), dims);
  TensorRef before = ops::where(*none_yet, *ops::div(*tail, *safe), *zero);
  TensorRef skipped = ops::cumprod(*ops::where(*first, *one, *x), dim);
  TensorRef after = as_dtype_of(ops::logical_not(*none_yet), grad);
  TensorRef at = ops::sum(*ops::mul(*ops::mul(grad, *skipped), *after), dims, true);
  return ops::add(*before, *ops::where(*first, *at, *zero));
}

}  // namespace kf::autograd::helpers
