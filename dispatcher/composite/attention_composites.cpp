// Composite scaled_dot_product_attention: dropout(softmax(query @ key^T * scale + mask)) @ value,
// from matmul, mul, where/add, softmax, arange/gt for the causal mask and rand_like/ge for the
// dropout. The meta rule
// (meta/attention_meta.cpp) has checked shapes, dtypes, the mask and the options before this
// runs; a backend kernel may override it.
//
// Note [Attention masks]
// A bool attn_mask keeps the scores where it is true and sets the others to -inf; a float one
// is added. is_causal masks position j of query row i when j > i (PyTorch's top-left aligned
// lower triangle, also for L != S): the [L, S] mask is gt(arange(S), arange(L)[:, None]). A row
// whose every position is masked is softmax of only -inf, which is NaN (0 / 0), as PyTorch's
// fused CPU attention gives. float16 and bfloat16 inputs are computed in float32 and rounded
// once at the end.
#include <cmath>
#include <limits>

#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {
namespace {

TensorRef in_dtype(TensorImpl& t, kf_dtype_t d) {
  if (t.dtype != d) return ops::to_dtype(t, d);
  retain(&t);
  return TensorRef(&t);
}

TensorRef scalar_tensor(double v, kf_dtype_t d, kf_device_t device) {
  return ops::full(IntListView(), kf_scalar_f64(v), d, device);
}

// The [L, S] bool mask of the positions is_causal removes (j > i).
TensorRef causal_removed(int64_t l, int64_t s, kf_device_t device) {
  TensorRef rows = ops::arange(kf_scalar_i64(0), kf_scalar_i64(l), kf_scalar_i64(1), KF_INT64,
                               device);
  TensorRef cols = ops::arange(kf_scalar_i64(0), kf_scalar_i64(s), kf_scalar_i64(1), KF_INT64,
                               device);
  return ops::gt(*cols, *ops::reshape(*rows, {l, 1}));
}

// The scores with the mask of Note [Attention masks] applied.
TensorRef masked(TensorRef scores, const CallArgs& a, int64_t l, int64_t s) {
  const kf_dtype_t d = scores->dtype;
  const kf_device_t dev = scores->device;
  if (a.bool_arg(5)) {
    TensorRef removed = causal_removed(l, s, dev);
    return ops::where(*removed, *scalar_tensor(-INFINITY, d, dev), *scores);
  }
  TensorImpl* mask = a.optional_tensor(3);
  if (mask == nullptr) return scores;
  if (mask->dtype == KF_BOOL) return ops::where(*mask, *scores, *scalar_tensor(-INFINITY, d, dev));
  return ops::add(*scores, *in_dtype(*mask, d));
}

// Dropout of the weights: each is kept when rand's value for it is >= p, and scaled by
// 1 / (1 - p) (all dropped for p = 1), as PyTorch's dropout. The random numbers are rand_like's
// of the weights, so a backend kernel that reserves the same counters drops the same weights.
TensorRef dropped(TensorRef weights, double p) {
  const kf_dtype_t d = weights->dtype;
  const kf_device_t dev = weights->device;
  TensorRef keep = ops::ge(*ops::rand_like(*weights), *scalar_tensor(p, d, dev));
  TensorRef scaled = ops::mul(*weights, *scalar_tensor(p >= 1 ? 0.0 : 1.0 / (1.0 - p), d, dev));
  return ops::where(*keep, *scaled, *scalar_tensor(0.0, d, dev));
}

}  // namespace

void scaled_dot_product_attention(const CallArgs& a, TensorRef* outs) {
  TensorImpl& query = a.tensor(0);
  const kf_dtype_t d = query.dtype == KF_FLOAT16 || query.dtype == KF_BFLOAT16 ? KF_FLOAT32
                                                                               : query.dtype;
  TensorRef q = in_dtype(query, d), k = in_dtype(a.tensor(1), d), v = in_dtype(a.tensor(2), d);
  const int64_t l = q->shape[q->ndim - 2], s = k->shape[k->ndim - 2], e = q->shape[q->ndim - 1];
  const double scale = a.none(6) ? 1.0 / std::sqrt(static_cast<double>(e)) : a.float_arg(6);
  TensorRef scores = ops::matmul(*q, *ops::transpose(*k, -2, -1));
  scores = ops::mul(*scores, *scalar_tensor(scale, d, q->device));
  scores = masked(std::move(scores), a, l, s);
  TensorRef weights = ops::softmax(*scores, -1);
  const double p = a.float_arg(4);
  if (p > 0) weights = dropped(std::move(weights), p);
  TensorRef out = ops::matmul(*weights, *v);
  outs[0] = out->dtype == query.dtype ? std::move(out) : ops::to_dtype(*out, query.dtype);
}

}  // namespace kf::composite
