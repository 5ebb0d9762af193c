#include "meta/meta_util.hpp"

#include "core/dtype.hpp"
#include "core/error.hpp"

namespace kf::meta {

void broadcast_into(const char* op, OutputMeta& out, const TensorImpl& t) {
  if (out.ndim == t.ndim) {  // the common case: equal shapes, nothing to broadcast
    bool equal = true;
    for (int32_t i = 0; i < t.ndim && equal; ++i) equal = out.shape[i] == t.shape[i];
    if (equal) return;
  }
  const int32_t nd = out.ndim > t.ndim ? out.ndim : t.ndim;
  int64_t shape[KF_MAX_NDIM];
  for (int32_t i = 0; i < nd; ++i) {
    const int32_t ia = i - (nd - out.ndim), ib = i - (nd - t.ndim);
    const int64_t a = ia >= 0 ? out.shape[ia] : 1;
    const int64_t b = ib >= 0 ? t.shape[ib] : 1;
    if (a != b && a != 1 && b != 1) {
      fail(KF_INVALID_ARGUMENT,
           "{}: shapes {} and {} cannot be broadcast: size {} vs {} at dim {} (sizes must match "
           "or one must be 1)", op, shape_string(out.shape, out.ndim),
           shape_string(t.shape, t.ndim), a, b, i - nd);
    }
    shape[i] = a == 1 ? b : a;
  }
  out.ndim = nd;
  for (int32_t i = 0; i < nd; ++i) out.shape[i] = shape[i];
}

namespace {

/// promote(a, b), or an error naming both when no dtype holds them (uint64 with a signed one).
kf_dtype_t promote_or_fail(const char* op, kf_dtype_t a, kf_dtype_t b) {
  const kf_dtype_t r = promote(a, b);
  if (r == KF_DTYPE_UNDEFINED) {
    fail(KF_INVALID_ARGUMENT,
         "{}: no dtype holds both {} and {} (uint64 values reach 2^64 - 1, signed ones go below "
         "0): cast one operand first, e.g. .to(float64) or .to(int64)", op, dtype_name(a),
         dtype_name(b));
  }
  return r;
}

}  // namespace

kf_dtype_t result_type(const char* op, const TensorImpl* const* tensors, int32_t n) {
  if (n == 2 && tensors[0] != nullptr && tensors[1] != nullptr &&
      tensors[0]->dtype == tensors[1]->dtype) {
    return tensors[0]->dtype;  // the common case
  }
  kf_dtype_t dim_result = KF_DTYPE_UNDEFINED, zero_result = KF_DTYPE_UNDEFINED;
  for (int32_t i = 0; i < n; ++i) {
    if (tensors[i] == nullptr) continue;
    kf_dtype_t& r = tensors[i]->ndim > 0 ? dim_result : zero_result;
    r = r == KF_DTYPE_UNDEFINED ? tensors[i]->dtype : promote_or_fail(op, r, tensors[i]->dtype);
  }
  if (dim_result == KF_DTYPE_UNDEFINED) return zero_result;
  if (zero_result != KF_DTYPE_UNDEFINED &&
      dtype_category(zero_result) > dtype_category(dim_result)) {
    return promote_or_fail(op, dim_result, zero_result);
  }
  return dim_result;
}

int32_t wrap_dim(const char* op, int64_t dim, int32_t ndim) {
  const int64_t n = ndim > 0 ? ndim : 1;
  if (dim < -n || dim >= n) {
    fail(KF_INVALID_ARGUMENT,
         "{}: dim {} is out of range for a tensor of {} dims (valid: {}..{})", op, dim, ndim, -n,
         n - 1);
  }
  return static_cast<int32_t>(dim < 0 ? dim + n : dim);
}

void reduced_dims(const char* op, const IntListView* dims, int32_t ndim,
                  bool reduce[KF_MAX_NDIM]) {
  const bool all = dims == nullptr || dims->len == 0;
  for (int32_t i = 0; i < KF_MAX_NDIM; ++i) reduce[i] = all && i < ndim;
  if (all) return;
  for (int32_t k = 0; k < dims->len; ++k) {
    const int32_t d = wrap_dim(op, dims->data[k], ndim);
    if (ndim == 0) continue;
    if (reduce[d]) fail(KF_INVALID_ARGUMENT, "{}: dim {} appears more than once", op, d);
    reduce[d] = true;
  }
}

void reduce_shape(const TensorImpl& t, const bool reduce[KF_MAX_NDIM], bool keepdim,
                  OutputMeta& out) {
  out.ndim = 0;
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (!reduce[i]) {
      out.shape[out.ndim++] = t.shape[i];
    } else if (keepdim) {
      out.shape[out.ndim++] = 1;
    }
  }
}

void same_shape(const TensorImpl& t, OutputMeta& out) {
  out.ndim = t.ndim;
  for (int32_t i = 0; i < t.ndim; ++i) out.shape[i] = t.shape[i];
}

void elementwise(const CallArgs& args, MetaResult& out, kf_dtype_t compute, kf_dtype_t result) {
  OutputMeta& o = out.out[0];
  o.ndim = -1;
  for (int32_t k = 0; k < args.def->ntensor_args; ++k) {
    const TensorImpl* t = args.tensors[args.tensor_index[k]];
    if (t == nullptr) continue;
    if (o.ndim < 0) {
      same_shape(*t, o);
    } else {
      broadcast_into(args.name(), o, *t);
    }
    out.broadcast_mask |= 1u << k;
  }
  if (o.ndim < 0) o.ndim = 0;
  o.dtype = result;
  out.compute_dtype = compute;
}

}  // namespace kf::meta
