// neg, abs, relu, square, bitwise_not, exp, log, sqrt, sigmoid, tanh, tan, asin, acos, atan,
// sinh, cosh, asinh, acosh, atanh, expm1, log1p, log2, log10, rsqrt, sin, cos, erf, reciprocal,
// gelu, silu, floor, ceil, trunc, round, sign, clamp, and the predicates isnan, isinf, isfinite,
// signbit, logical_not, and conj, real and imag (kernels/unary.cl), with the CPU backend's dtype
// sets.
#include <cmath>
#include <string>
#include <type_traits>

#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

template <class Op>
void unary_kernel(const typename Op::Args& a) {
  run_elementwise(a.call, {Family::Unary, a.out.dtype}, Op::kName, {&a.out, &a.self}, {});
}

/// A predicate: a program of self's dtype writing a bool output.
template <class Op>
void predicate_kernel(const typename Op::Args& a) {
  run_elementwise(a.call, {Family::Unary, a.self.dtype}, Op::kName, {&a.out, &a.self}, {});
}

/// abs: a program of self's dtype (a complex self's writes its parts' real dtype).
void abs_kernel(const ops::abs::Args& a) {
  run_elementwise(a.call, {Family::Unary, a.self.dtype}, "abs", {&a.out, &a.self}, {});
}

void gelu_kernel(const ops::gelu::Args& a) {
  run_elementwise(a.call, {Family::Unary, a.out.dtype}, a.approximate ? "gelu_tanh" : "gelu",
                  {&a.out, &a.self}, {});
}

/// conj, real and imag of a complex self: its program's kernels (unary.cl). Of a real self, as
/// the CPU backend: conj and real copy it, imag is zeros, all in self's dtype.
template <class Op>
void complex_part_kernel(const typename Op::Args& a) {
  if (is_complex_dtype(a.self.dtype)) {
    run_elementwise(a.call, {Family::Unary, a.self.dtype}, Op::kName, {&a.out, &a.self}, {});
  } else if constexpr (std::is_same_v<Op, ops::imag>) {
    fill_with(a.call, a.out, kf_scalar_i64(0));
  } else {
    copy_converting(a.call, a.out, a.self);
  }
}

/// round at `decimals` places: scale = 10^|decimals| in the compute type, as the CPU backend.
void round_kernel(const ops::round::Args& a) {
  const bool floating = is_floating_dtype(a.out.dtype) || is_complex_dtype(a.out.dtype);
  if (!floating && a.decimals != 0) {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                  "round: decimals != 0 needs a floating-point tensor, got " +
                                      std::string(short_name(a.out.dtype)));
  }
  // |decimals| in double: -decimals overflows for INT64_MIN.
  const double d = std::fabs(static_cast<double>(a.decimals));
  const ComputeScalar scale =
      compute_scalar(a.out.dtype, kf_scalar_f64(floating ? std::pow(10.0, d) : 1.0));
  const int32_t unused = 0;
  run_elementwise(a.call, {Family::Unary, a.out.dtype}, "round", {&a.out, &a.self},
                  {value_arg(a.decimals), scale.arg(), value_arg(unused)});
}

/// clamp: a missing bound is passed as 0 with its bit of `has` clear (kf_clamp in unary.cl).
void clamp_kernel(const ops::clamp::Args& a) {
  const int32_t has = (a.min ? 1 : 0) | (a.max ? 2 : 0);
  const ComputeScalar lo = compute_scalar(a.out.dtype, a.min ? *a.min : kf_scalar_i64(0));
  const ComputeScalar hi = compute_scalar(a.out.dtype, a.max ? *a.max : kf_scalar_i64(0));
  run_elementwise(a.call, {Family::Unary, a.out.dtype}, "clamp", {&a.out, &a.self},
                  {lo.arg(), hi.arg(), value_arg(has)});
}

}  // namespace

kf_status_t register_unary_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, neg, unary_kernel<ops::neg>, kNumericMask | kComplexMask);
  KF_CLK_REGISTER(reg, abs, abs_kernel, kAllMask);
  KF_CLK_REGISTER(reg, relu, unary_kernel<ops::relu>, kNumericMask);
  KF_CLK_REGISTER(reg, exp, unary_kernel<ops::exp>, kFloatMask);
  KF_CLK_REGISTER(reg, log, unary_kernel<ops::log>, kFloatMask);
  KF_CLK_REGISTER(reg, sqrt, unary_kernel<ops::sqrt>, kFloatMask);
  KF_CLK_REGISTER(reg, sigmoid, unary_kernel<ops::sigmoid>, kFloatMask);
  KF_CLK_REGISTER(reg, tanh, unary_kernel<ops::tanh>, kFloatMask);
  KF_CLK_REGISTER(reg, square, unary_kernel<ops::square>, kNumericMask | kComplexMask);
  KF_CLK_REGISTER(reg, bitwise_not, unary_kernel<ops::bitwise_not>, kIntMask | bit(KF_BOOL));
  KF_CLK_REGISTER(reg, tan, unary_kernel<ops::tan>, kFloatMask);
  KF_CLK_REGISTER(reg, asin, unary_kernel<ops::asin>, kFloatMask);
  KF_CLK_REGISTER(reg, acos, unary_kernel<ops::acos>, kFloatMask);
  KF_CLK_REGISTER(reg, atan, unary_kernel<ops::atan>, kFloatMask);
  KF_CLK_REGISTER(reg, sinh, unary_kernel<ops::sinh>, kFloatMask);
  KF_CLK_REGISTER(reg, cosh, unary_kernel<ops::cosh>, kFloatMask);
  KF_CLK_REGISTER(reg, asinh, unary_kernel<ops::asinh>, kFloatMask);
  KF_CLK_REGISTER(reg, acosh, unary_kernel<ops::acosh>, kFloatMask);
  KF_CLK_REGISTER(reg, atanh, unary_kernel<ops::atanh>, kFloatMask);
  KF_CLK_REGISTER(reg, expm1, unary_kernel<ops::expm1>, kFloatMask);
  KF_CLK_REGISTER(reg, log1p, unary_kernel<ops::log1p>, kFloatMask);
  KF_CLK_REGISTER(reg, log2, unary_kernel<ops::log2>, kFloatMask);
  KF_CLK_REGISTER(reg, log10, unary_kernel<ops::log10>, kFloatMask);
  KF_CLK_REGISTER(reg, rsqrt, unary_kernel<ops::rsqrt>, kFloatMask);
  KF_CLK_REGISTER(reg, sin, unary_kernel<ops::sin>, kFloatMask);
  KF_CLK_REGISTER(reg, cos, unary_kernel<ops::cos>, kFloatMask);
  KF_CLK_REGISTER(reg, erf, unary_kernel<ops::erf>, kFloatMask);
  KF_CLK_REGISTER(reg, reciprocal, unary_kernel<ops::reciprocal>, kFloatMask);
  KF_CLK_REGISTER(reg, gelu, gelu_kernel, kFloatMask);
  KF_CLK_REGISTER(reg, silu, unary_kernel<ops::silu>, kFloatMask);
  KF_CLK_REGISTER(reg, floor, unary_kernel<ops::floor>, kNumericMask);
  KF_CLK_REGISTER(reg, ceil, unary_kernel<ops::ceil>, kNumericMask);
  KF_CLK_REGISTER(reg, trunc, unary_kernel<ops::trunc>, kNumericMask);
  KF_CLK_REGISTER(reg, round, round_kernel, kNumericMask | kComplexMask);
  KF_CLK_REGISTER(reg, sign, unary_kernel<ops::sign>, kAllMask);
  KF_CLK_REGISTER(reg, clamp, clamp_kernel, kNumericMask);
  KF_CLK_REGISTER(reg, isnan, predicate_kernel<ops::isnan>, kAllMask);
  KF_CLK_REGISTER(reg, isinf, predicate_kernel<ops::isinf>, kAllMask);
  KF_CLK_REGISTER(reg, isfinite, predicate_kernel<ops::isfinite>, kAllMask);
  KF_CLK_REGISTER(reg, signbit, predicate_kernel<ops::signbit>, kRealMask);
  KF_CLK_REGISTER(reg, logical_not, predicate_kernel<ops::logical_not>, kAllMask);
  KF_CLK_REGISTER(reg, conj, complex_part_kernel<ops::conj>, kAllMask);
  KF_CLK_REGISTER(reg, real, complex_part_kernel<ops::real>, kAllMask);
  KF_CLK_REGISTER(reg, imag, complex_part_kernel<ops::imag>, kAllMask);
  return KF_OK;
}

}  // namespace kf::clk
