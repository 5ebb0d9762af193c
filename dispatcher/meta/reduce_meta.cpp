// Meta functions of the reductions: reduced dims, keepdim, accumulation dtypes.
// reduce_sum (sum, prod), reduce_mean, reduce_same (amax, amin), reduce_arg (argmax, argmin),
// reduce_var (var, std), reduce_logical (all, any), reduce_count (count_nonzero),
// reduce_logsumexp and cumsum.
#include <cmath>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

void reduce_common(const CallArgs& a, MetaResult& m, kf_dtype_t out_dtype) {
  const TensorImpl& self = a.tensor(0);
  bool reduce[KF_MAX_NDIM];
  const IntListView dims = a.none(1) ? IntListView{nullptr, 0} : a.ints(1);
  reduced_dims(a.name(), &dims, self.ndim, reduce);
  reduce_shape(self, reduce, a.bool_arg(2), m.out[0]);
  m.out[0].dtype = out_dtype;
  m.compute_dtype = out_dtype;
  m.convert_mask = 0x1;
}

void require_nonempty_reduction(const CallArgs& a, const bool reduce[KF_MAX_NDIM]) {
  const TensorImpl& self = a.tensor(0);
  if (self.numel != 0) return;
  for (int32_t i = 0; i < self.ndim; ++i) {
    if (reduce[i] && self.shape[i] == 0) {
      fail(KF_INVALID_ARGUMENT,
           "{}: cannot reduce over dim {} of size 0 (input shape {}); the result has no "
           "identity", a.name(), i, shape_string(self.shape, self.ndim));
    }
  }
}

/// The default dtype of a sum or product: int64 for bool and signed integers (PyTorch), uint64
/// for unsigned ones (numpy and the array API standard: a uint32 sum must not turn negative),
/// the input's own dtype otherwise.
kf_dtype_t accumulation_dtype(kf_dtype_t d) {
  if (kf_dtype_kind(d) == 'u') return KF_UINT64;
  return is_integral(d, true) ? KF_INT64 : d;
}

}  // namespace

void reduce_sum(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  const kf_dtype_t def = accumulation_dtype(d);
  reduce_common(a, m, a.dtype_or(3, def));
}

void reduce_mean(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.dtype_or(3, a.tensor(0).dtype);
  if (!is_inexact(d)) {
    fail(KF_INVALID_ARGUMENT,
         "mean: could not infer the output dtype: the input is {}; mean needs a floating-point "
         "or complex input, or such a dtype=", dtype_name(d));
  }
  reduce_common(a, m, d);
}

void reduce_same(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  reduce_common(a, m, self.dtype);
  bool reduce[KF_MAX_NDIM];
  const IntListView dims = a.ints(1);
  reduced_dims(a.name(), &dims, self.ndim, reduce);
  require_nonempty_reduction(a, reduce);
}

void reduce_arg(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  bool reduce[KF_MAX_NDIM];
  const bool keepdim = a.bool_arg(2);
  if (a.none(1)) {
    reduced_dims(a.name(), nullptr, self.ndim, reduce);
  } else {
    const int64_t dim = a.int_arg(1);
    const IntListView one{&dim, 1};
    reduced_dims(a.name(), &one, self.ndim, reduce);
  }
  if (self.numel == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: the input of shape {} is empty", a.name(),
         shape_string(self.shape, self.ndim));
  }
  reduce_shape(self, reduce, keepdim, m.out[0]);
  m.out[0].dtype = KF_INT64;
  m.compute_dtype = self.dtype;
}

void reduce_var(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  if (!is_floating(self.dtype)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: std and var only support floating point dtypes, but the input is {}; convert it "
         "first (e.g. to float32)", a.name(), dtype_name(self.dtype));
  }
  if (!a.none(2)) {
    const kf_scalar_t c = a.scalar(2);
    if (c.tag == KF_SCALAR_FLOAT64 && !std::isfinite(c.v.f64)) {
      fail(KF_INVALID_ARGUMENT, "{}: correction must be finite (got {}); the default is 1",
           a.name(), c.v.f64);
    }
  }
  bool reduce[KF_MAX_NDIM];
  const IntListView dims = a.none(1) ? IntListView{nullptr, 0} : a.ints(1);
  reduced_dims(a.name(), &dims, self.ndim, reduce);
  reduce_shape(self, reduce, a.bool_arg(3), m.out[0]);
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
  m.convert_mask = 0x1;
}

void reduce_logical(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  bool reduce[KF_MAX_NDIM];
  const IntListView dims = a.none(1) ? IntListView{nullptr, 0} : a.ints(1);
  reduced_dims(a.name(), &dims, self.ndim, reduce);
  reduce_shape(self, reduce, a.bool_arg(2), m.out[0]);
  m.out[0].dtype = self.dtype == KF_UINT8 ? KF_UINT8 : KF_BOOL;  // PyTorch keeps uint8
  m.compute_dtype = self.dtype;  // the kernel reads self in its own dtype
}

void reduce_count(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  bool reduce[KF_MAX_NDIM];
  const IntListView dims = a.none(1) ? IntListView{nullptr, 0} : a.ints(1);
  reduced_dims(a.name(), &dims, self.ndim, reduce);
  reduce_shape(self, reduce, a.bool_arg(2), m.out[0]);
  m.out[0].dtype = KF_INT64;
  m.compute_dtype = self.dtype;  // the kernel reads self in its own dtype
}

void reduce_logsumexp(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  reduce_common(a, m, is_floating(d) ? d : KF_FLOAT32);
}

void cumsum(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  wrap_dim(a.name(), a.int_arg(1), self.ndim);  // throws naming the dim and the valid range
  const kf_dtype_t def = accumulation_dtype(self.dtype);
  same_shape(self, m.out[0]);
  m.out[0].dtype = a.dtype_or(2, def);
  m.compute_dtype = m.out[0].dtype;
  m.convert_mask = 0x1;
}

}  // namespace kf::meta
