// Meta functions of the pointwise ops: broadcasting and PyTorch's type promotion, and the
// dtype checks of the ops that refuse some dtypes (bool pow, integer gelu/silu, integer round
// with decimals, clamp without bounds or on bool, complex operands of the real functions,
// non-integers of the bitwise ops).
#include <cstdint>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/scalar_conversion.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

kf_dtype_t promoted(const CallArgs& a) {
  const TensorImpl* ts[2] = {a.tensors[a.tensor_index[0]], a.tensors[a.tensor_index[1]]};
  return result_type(a.name(), ts, 2);
}

// The dtype of a binary op, whose scalar operands must fit it (Note [Scalars to dtypes]).
kf_dtype_t binary_result(const CallArgs& a) {
  const kf_dtype_t r = promoted(a);
  check_scalar_operands(a, 0x3, r);
  return r;
}

void check_alpha(const CallArgs& a, kf_dtype_t result) {
  if (a.nargs < 3 || a.def->args[2].type != ArgType::Scalar) return;
  const kf_scalar_t alpha = a.scalar(2);
  if (alpha.tag == KF_SCALAR_FLOAT64 && !is_inexact(result)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: alpha {} is a floating-point number but the inputs are {}: integral inputs need "
         "an integral alpha", a.name(), alpha.v.f64, dtype_name(result));
  }
  if (alpha.tag == KF_SCALAR_BOOL && result != KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "{}: a bool alpha needs bool inputs, got {}", a.name(),
         dtype_name(result));
  }
  (void)scalar_to_dtype(alpha, result, a.name(), "alpha");  // Note [Scalars to dtypes]
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
  const kf_dtype_t r = promoted(a);
  if (r == KF_BOOL) {
    fail(KF_INVALID_ARGUMENT,
         "{}: not supported for bool tensors; convert them to an integer dtype first",
         a.name());
  }
  broadcast_binary(a, m);
}

void broadcast_binary_float(const CallArgs& a, MetaResult& m) {
  kf_dtype_t r = promoted(a);
  if (!is_inexact(r)) r = KF_FLOAT32;
  check_scalar_operands(a, 0x3, r);
  elementwise(a, m, r, r);
  m.convert_mask = 0x3;
  m.compute_in_out_dtype = true;
}

// The real binary functions of floating results (atan2, hypot, copysign, logaddexp,
// nextafter): broadcast_binary_float, but complex numbers are refused (they have no order, no
// sign bit and no angle of a pair).
void broadcast_binary_real_float(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t r = promoted(a);
  if (is_complex_dtype(r)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: not defined for complex tensors (got {}); pass real tensors, for example the "
         "real or imag parts", a.name(), dtype_name(r));
  }
  broadcast_binary_float(a, m);
}

// floor_divide and remainder: real numbers, bool excluded (the floor of a complex quotient has
// no meaning; PyTorch refuses bool too).
void broadcast_binary_real(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t r = promoted(a);
  if (is_complex_dtype(r)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: not defined for complex tensors (got {}); pass real tensors", a.name(),
         dtype_name(r));
  }
  broadcast_binary_nobool(a, m);
}

// The bitwise ops: integers and bool (where they are the logical ops), as the standard says.
void broadcast_binary_integral(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t r = promoted(a);
  if (!is_integral(r, true)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: needs integer or bool tensors, got {}; a floating or complex value has no bits "
         "to combine (convert it with to_dtype first)", a.name(), dtype_name(r));
  }
  broadcast_binary(a, m);
}

// The shifts: integers only (a shifted bool has no meaning).
void broadcast_binary_integer(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t r = promoted(a);
  if (!is_integral(r, false)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: needs integer tensors, got {}; convert the operands to an integer dtype first",
         a.name(), dtype_name(r));
  }
  broadcast_binary(a, m);
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

// A comparison with a scalar operand its dtype cannot hold (`int8_tensor < 300`, `float16_tensor
// > 1e6`) is computed in int64 or float64, which hold both sides: the answer is exact instead of
// an error (NumPy 2 compares out-of-range Python integers the same way).
void broadcast_compare(const CallArgs& a, MetaResult& m) {
  kf_dtype_t r = promoted(a);
  if (!scalar_operands_fit(a, 0x3, r)) {
    r = is_floating(r) ? KF_FLOAT64 : KF_INT64;
    check_scalar_operands(a, 0x3, r);
  }
  elementwise(a, m, r, KF_BOOL);
  m.convert_mask = 0x3;
}

void where(const CallArgs& a, MetaResult& m) {
  const TensorImpl& cond = a.tensor(0);
  if (cond.dtype != KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "where: condition must be a bool tensor, got {}",
         dtype_name(cond.dtype));
  }
  const TensorImpl* ts[2] = {&a.tensor(1), &a.tensor(2)};
  const kf_dtype_t r = result_type(a.name(), ts, 2);
  check_scalar_operands(a, 0x6, r);  // Note [Scalars to dtypes]
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

// abs: a complex value's magnitude is real, in the dtype of its parts (float32 for complex64),
// as the array API standard and numpy say; every other dtype keeps its own.
void unary_abs(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  if (!is_complex_dtype(d)) {
    unary(a, m);
    return;
  }
  elementwise(a, m, d, complex_part_dtype(d));
  m.convert_mask = 0x1;
}

// A bool answer about each element (isnan, isinf, isfinite, logical_not): any dtype, computed in
// self's own.
void unary_predicate(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  elementwise(a, m, d, KF_BOOL);
  m.convert_mask = 0x1;
}

// signbit: a real number's sign bit; complex numbers have none.
void unary_predicate_real(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  if (is_complex_dtype(d)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: not defined for complex tensors (got {}); take the real or imag part first",
         a.name(), dtype_name(d));
  }
  unary_predicate(a, m);
}

// bitwise_not: integers and bool.
void unary_integral(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  if (!is_integral(d, true)) {
    fail(KF_INVALID_ARGUMENT,
         "{}: needs an integer or bool tensor, got {}; a floating or complex value has no bits "
         "to invert", a.name(), dtype_name(d));
  }
  unary(a, m);
}

// real and imag: the parts of a complex tensor in their real dtype (float32 for complex64); a
// real tensor keeps its dtype (its real part is itself, its imaginary part zeros), as numpy.
void unary_complex_part(const CallArgs& a, MetaResult& m) {
  const kf_dtype_t d = a.tensor(0).dtype;
  elementwise(a, m, d, is_complex_dtype(d) ? complex_part_dtype(d) : d);
  m.convert_mask = 0x1;
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
  if (!is_inexact(d)) d = KF_FLOAT32;
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
// dtype. A bound may be the result, so it must be a value of the result dtype (Note [Scalars to
// dtypes]; PyTorch wraps negative bounds of uint8 instead, kernforge refuses them).
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
  for (int32_t i = 1; i <= 2; ++i) {
    if (!a.none(i)) (void)scalar_to_dtype(a.scalar(i), r, a.name(), i == 1 ? "min" : "max");
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
