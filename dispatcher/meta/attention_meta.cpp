// Meta function of scaled_dot_product_attention (a composite a backend kernel may override).
// PyTorch's rules: query [..., L, E], key [..., S, E], value [..., S, Ev], of one floating
// dtype, their batch dims (all but the last two) broadcast; the output is [batch..., L, Ev] in
// that dtype. attn_mask is bool (true = takes part) or of query's dtype (added to the scores)
// and broadcasts to [batch..., L, S] without growing it; is_causal refuses an attn_mask, as
// PyTorch does. dropout_p is a probability in [0, 1] (the weights are dropped with it and the
// kept ones scaled by 1 / (1 - dropout_p), from the backend's random numbers).
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

constexpr const char* kOp = "scaled_dot_product_attention";

void require_matrix_dims(const char* name, const TensorImpl& t) {
  if (t.ndim < 2) {
    fail(KF_INVALID_ARGUMENT, "{}: {} must have at least 2 dims ([..., rows, features]), got "
         "shape {}", kOp, name, shape_string(t.shape, t.ndim));
  }
}

void require_qkv_dtypes(const TensorImpl& q, const TensorImpl& k, const TensorImpl& v) {
  if (q.dtype != k.dtype || q.dtype != v.dtype) {
    fail(KF_INVALID_ARGUMENT, "{}: query, key and value must have one dtype, got {}, {} and {}",
         kOp, dtype_name(q.dtype), dtype_name(k.dtype), dtype_name(v.dtype));
  }
  if (!is_floating(q.dtype)) {
    fail(KF_INVALID_ARGUMENT, "{}: query, key and value are {}; a floating-point dtype is "
         "needed (float32, float64, float16 or bfloat16)", kOp, dtype_name(q.dtype));
  }
}

void require_sizes(const TensorImpl& q, const TensorImpl& k, const TensorImpl& v) {
  if (q.shape[q.ndim - 1] != k.shape[k.ndim - 1]) {
    fail(KF_INVALID_ARGUMENT, "{}: query of shape {} and key of shape {} differ in their last "
         "dim (the embedding size E)", kOp, shape_string(q.shape, q.ndim),
         shape_string(k.shape, k.ndim));
  }
  if (k.shape[k.ndim - 2] != v.shape[v.ndim - 2]) {
    fail(KF_INVALID_ARGUMENT, "{}: key of shape {} and value of shape {} differ in dim -2 (the "
         "source length S)", kOp, shape_string(k.shape, k.ndim), shape_string(v.shape, v.ndim));
  }
}

// The batch dims of t (all but its last two) broadcast into `batch`.
void broadcast_batch(OutputMeta& batch, const TensorImpl& t) {
  TensorImpl b{};
  b.ndim = t.ndim - 2;
  for (int32_t i = 0; i < b.ndim; ++i) b.shape[i] = t.shape[i];
  broadcast_into(kOp, batch, b);
}

void require_mask(const TensorImpl& mask, const TensorImpl& q, const OutputMeta& scores) {
  if (mask.dtype != KF_BOOL && mask.dtype != q.dtype) {
    fail(KF_INVALID_ARGUMENT, "{}: attn_mask is {}; it must be bool (true = takes part) or "
         "query's dtype {} (added to the scores)", kOp, dtype_name(mask.dtype),
         dtype_name(q.dtype));
  }
  bool fits = mask.ndim <= scores.ndim;
  for (int32_t i = 1; fits && i <= mask.ndim; ++i) {
    const int64_t m = mask.shape[mask.ndim - i];
    fits = m == 1 || m == scores.shape[scores.ndim - i];
  }
  if (!fits) {
    fail(KF_INVALID_ARGUMENT, "{}: attn_mask of shape {} does not broadcast to the scores' "
         "shape {} ([batch..., L, S])", kOp, shape_string(mask.shape, mask.ndim),
         shape_string(scores.shape, scores.ndim));
  }
}

void require_options(const CallArgs& a) {
  const double p = a.float_arg(4);
  if (!(p >= 0.0 && p <= 1.0)) {
    fail(KF_INVALID_ARGUMENT, "{}: dropout_p={} is not a probability in [0, 1]", kOp, p);
  }
  if (a.bool_arg(5) && a.optional_tensor(3) != nullptr) {
    fail(KF_INVALID_ARGUMENT, "{}: is_causal=true and an explicit attn_mask were both given; "
         "pass one of them (fold the causal mask into attn_mask)", kOp);
  }
}

}  // namespace

void scaled_dot_product_attention(const CallArgs& a, MetaResult& m) {
  const TensorImpl &q = a.tensor(0), &k = a.tensor(1), &v = a.tensor(2);
  require_matrix_dims("query", q);
  require_matrix_dims("key", k);
  require_matrix_dims("value", v);
  require_qkv_dtypes(q, k, v);
  require_sizes(q, k, v);
  require_options(a);
  OutputMeta& o = m.out[0];
  o.ndim = 0;
  broadcast_batch(o, q);
  broadcast_batch(o, k);
  broadcast_batch(o, v);
  if (const TensorImpl* mask = a.optional_tensor(3)) {
    OutputMeta scores = o;
    scores.shape[scores.ndim++] = q.shape[q.ndim - 2];
    scores.shape[scores.ndim++] = k.shape[k.ndim - 2];
    require_mask(*mask, q, scores);
  }
  o.shape[o.ndim++] = q.shape[q.ndim - 2];
  o.shape[o.ndim++] = v.shape[v.ndim - 1];
  o.dtype = q.dtype;
  m.compute_dtype = q.dtype;
}

}  // namespace kf::meta
