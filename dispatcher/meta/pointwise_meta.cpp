// Meta functions of the pointwise ops: broadcasting and PyTorch's type promotion.
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

kf_dtype_t binary_result(const CallArgs& a) {
  const TensorImpl* ts[2] = {a.tensors[a.tensor_index[0]], a.tensors[a.tensor_index[1]]};
  return result_type(ts, 2);
}

void check_alpha(const CallArgs& a, kf_dtype_t result) {
  if (a.nargs < 3 || a.def->args[2].type != ArgType::Scalar) return;
  const kf_scalar_t alpha = a.scalar(2);
  if (alpha.tag == KF_SCALAR_FLOAT64 && !is_floating(result)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: alpha {} is a floating-point number but the inputs are {}: integral inputs need "
         "an integral alpha", a.name(), alpha.v.f64, dtype_name(result));
  }
  if (alpha.tag == KF_SCALAR_BOOL && result != KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "{}: a bool alpha needs bool inputs, got {}", a.name(),
         dtype_name(result));
  }
}

}  // namespace

void broadcast_binary(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t r = binary_result(a);
  check_alpha(a, r);
  elementwise(a, m, r, r);
  m.convert_mask = 0x3;
  m.compute_in_out_dtype = true;
}

void broadcast_binary_nobool(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t r = binary_result(a);
  if (r == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT,
         "{}: not supported for bool tensors; convert them to an integer dtype first",
         a.name());
  }
  broadcast_binary(a, m);
}

void broadcast_binary_float(const CallArgs& a, MetaResult& m) {
  kf_dtype_t r = binary_result(a);
  if (!is_floating(r)) r = KF_FLOAT32;
  elementwise(a, m, r, r);
  m.convert_mask = 0x3;
  m.compute_in_out_dtype = true;
}

void broadcast_compare(const CallArgs& a, MetaResult& m) {
  elementwise(a, m, binary_result(a), KF_BOOL);
  m.convert_mask = 0x3;
}

void where(const CallArgs& a, MetaResult& m) {
  const TensorImpl& cond = a.tensor(0);
  if (cond.dtype != KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "where: condition must be a bool tensor, got {}",
         dtype_name(cond.dtype));
  }
  const TensorImpl* ts[2] = {&a.tensor(1), &a.tensor(2)};
  const kf_dtype_t r = result_type(ts, 2);
  elementwise(a, m, r, r);
  m.convert_mask = 0x6;
  m.compute_in_out_dtype = true;
}

void unary(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  elementwise(a, m, d, d);
  m.convert_mask = 0x1;
  m.compute_in_out_dtype = true;
}

void unary_nobool(const CallArgs& a, MetaResult& m) {
  if (a.tensor(0).dtype == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT,
         "{}: not supported for bool tensors; convert to an integer dtype first", a.name());
  }
  unary(a, m);
}

void unary_float(const CallArgs& a, MetaResult& m) {
  kf_dtype_t d = a.tensor(0).dtype;
  if (!is_floating(d)) d = KF_FLOAT32;
  elementwise(a, m, d, d);
  m.convert_mask = 0x1;
  m.compute_in_out_dtype = true;
}

void copy(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  elementwise(a, m, self.dtype, self.dtype);
  m.broadcast_mask = 0x2;  // src only; self is the output
}

void to_dtype(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const kf_dtype_t d = a.v[1].v.dtype;
  same_shape(self, m.out[0]);
  m.out[0].dtype = d;
  m.compute_dtype = d;
}

}  // namespace kf::meta
