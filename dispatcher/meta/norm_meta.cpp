// Meta functions of the normalisations layer_norm and rms_norm (composites a backend kernel may
// override). PyTorch's checks: a floating-point input; normalized_shape of at least one dim and
// equal to the input's trailing dims; weight and bias (when given) of exactly that shape. The
// output has the input's shape and dtype. Unlike PyTorch's mixed-type CPU path, weight and bias
// must have the input's dtype (convert them with to_dtype), so a kernel sees one dtype.
#include <string>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

std::string list_string(IntListView l) { return shape_string(l.data, l.len); }

void require_floating_input(const char* op, const TensorImpl& x) {
  if (!is_floating(x.dtype)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: the input is {}; {} needs a floating-point input (float32, float64, float16 or "
         "bfloat16): convert it with to_dtype", op, dtype_name(x.dtype), op);
  }
}

void require_trailing_dims(const char* op, const TensorImpl& x, IntListView ns) {
  if (ns.len < 1) {
    fail(KF_INVALID_ARGUMENT,
         "{}: normalized_shape must have at least one dim (the trailing dims to normalise "
         "over), got []", op);
  }
  bool ok = x.ndim >= ns.len;
  for (int32_t i = 0; ok && i < ns.len; ++i) ok = x.shape[x.ndim - ns.len + i] == ns.data[i];
  if (!ok) {
    const std::string s = list_string(ns);  // "[a, b]"
    fail(KF_INVALID_ARGUMENT,
         "{}: normalized_shape={} does not match the input of shape {}: expected an input of "
         "shape [*, {}] (normalized_shape lists the input's trailing dims)", op, s,
         shape_string(x.shape, x.ndim), s.substr(1, s.size() - 2));
  }
}

// weight or bias: None, or a tensor of shape normalized_shape and the input's dtype.
void require_affine(const char* op, const char* name, const TensorImpl* t, const TensorImpl& x,
                    IntListView ns) {
  if (t == nullptr) return;
  bool ok = t->ndim == ns.len;
  for (int32_t i = 0; ok && i < ns.len; ++i) ok = t->shape[i] == ns.data[i];
  if (!ok) {
    fail(KF_INVALID_ARGUMENT, "{}: {} has shape {} but normalized_shape is {}; they must be equal",
         op, name, shape_string(t->shape, t->ndim), list_string(ns));
  }
  if (t->dtype != x.dtype) {
    fail(KF_INVALID_ARGUMENT,
         "{}: {} is {} but the input is {}; they must have one dtype (convert {} with to_dtype)",
         op, name, dtype_name(t->dtype), dtype_name(x.dtype), name);
  }
}

void norm_common(const char* op, const CallArgs& a, const TensorImpl* bias, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  const IntListView ns = a.ints(1);
  require_floating_input(op, x);
  require_trailing_dims(op, x, ns);
  require_affine(op, "weight", a.optional_tensor(2), x, ns);
  require_affine(op, "bias", bias, x, ns);
  same_shape(x, m.out[0]);
  m.out[0].dtype = x.dtype;
  m.compute_dtype = x.dtype;
}

}  // namespace

// layer_norm(input, normalized_shape, weight, bias, eps)
void layer_norm(const CallArgs& a, MetaResult& m) {
  norm_common("layer_norm", a, a.optional_tensor(3), m);
}

// rms_norm(input, normalized_shape, weight, eps)
void rms_norm(const CallArgs& a, MetaResult& m) { norm_common("rms_norm", a, nullptr, m); }

}  // namespace kf::meta
