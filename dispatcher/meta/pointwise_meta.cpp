// Meta functions of the pointwise ops: broadcasting and PyTorch's type promotion, and the
// dtype checks of the ops that refuse some dtypes (bool pow, integer gelu/silu, integer round
// with decimals, clamp without bounds or on bool).
#include <cstdint>
#include <limits>

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


// The [lowest, max] of an integral dtype, for range checks of scalar arguments.
void int_range(kf_dtype_t d, int64_t& lo, uint64_t& hi) {
  switch (d) {
    case KF_INT8: lo = INT8_MIN; hi = INT8_MAX; return;
    case KF_UINT8: lo = 0; hi = UINT8_MAX; return;
    case KF_INT16: lo = INT16_MIN; hi = INT16_MAX; return;
    case KF_INT32: lo = INT32_MIN; hi = INT32_MAX; return;
    default: lo = INT64_MIN; hi = INT64_MAX; return;
  }
}

// clamp's bound `i` (1 min, 2 max) must be representable in an integral result dtype.
void check_int_bound(const CallArgs& a, int32_t i, kf_dtype_t r) {
  const kf_scalar_t s = a.scalar(i);
  if (s.tag != KF_SCALAR_INT64) return;
  int64_t lo = 0;
  uint64_t hi = 0;
  int_range(r, lo, hi);
  const int64_t v = s.v.i64;
  if (v < lo || (v > 0 && static_cast<uint64_t>(v) > hi)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: {} = {} is out of the range [{}, {}] of the {} input; pass a bound the dtype "
         "can hold or convert the input first", a.name(), i == 1 ? "min" : "max", v, lo, hi,
         dtype_name(r));
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

// pow computes in the promoted dtype itself, never in a wider out= dtype: integer pow (by
// squaring, wrapping; a negative exponent gives 0) differs from floating pow.
void broadcast_pow(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t r = binary_result(a);
  if (r == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT,
         "{}: not supported for bool tensors; convert self or exponent to an integer or "
         "floating dtype first", a.name());
  }
  elementwise(a, m, r, r);
  m.convert_mask = 0x3;
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

void unary_floating(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  if (!is_floating(d)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: expected a floating-point tensor, got {}; convert it with to_dtype first",
         a.name(), dtype_name(d));
  }
  unary(a, m);
}

// round(self, *, decimals): unary_nobool, and integers only with decimals = 0 (the identity).
void round(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  const int64_t decimals = a.int_arg(1);
  if (decimals != 0 && !is_floating(d)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: decimals = {} needs a floating-point tensor, got {}; convert it with to_dtype "
         "first or pass decimals = 0", a.name(), decimals, dtype_name(d));
  }
  unary_nobool(a, m);
}

// clamp(self, min?, max?): the bounds promote like Python numbers (PyTorch's wrapped
// numbers): a float bound makes an integral self float32, an int or bool bound keeps self's
// dtype. Integral bounds must fit an integral result (PyTorch wraps negative bounds of uint8
// instead; kernforge refuses them).
void clamp(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  if (a.none(1) && a.none(2)) {
    fail(KF_INVALID_ARGUMENT, "{}: min and max are both None; pass at least one bound",
         a.name());
  }
  if (d == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT,
         "{}: not supported for bool tensors; convert to an integer dtype first", a.name());
  }
  kf_dtype_t r = d;
  for (int32_t i = 1; i <= 2; ++i) {
    if (!a.none(i) && a.scalar(i).tag == KF_SCALAR_FLOAT64 && !is_floating(r)) r = KF_FLOAT32;
  }
  if (!is_floating(r)) {
    for (int32_t i = 1; i <= 2; ++i) {
      if (!a.none(i)) check_int_bound(a, i, r);
    }
  }
  elementwise(a, m, r, r);
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
