// neg, abs, relu, square, bitwise_not, exp, log, sqrt, sigmoid, tanh, tan, asin, acos, atan,
// sinh, cosh, asinh, acosh, atanh, expm1, log1p, log2, log10, trunc, and the predicates isnan,
// isinf, isfinite, signbit, logical_not (kernels/unary.cl). trunc runs floats only (integers,
// where it is the identity, take the CPU fallback, as floor does).
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

}  // namespace

kf_status_t register_unary_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, neg, unary_kernel<ops::neg>, kNumericMask);
  KF_CLK_REGISTER(reg, abs, unary_kernel<ops::abs>, kAllMask);
  KF_CLK_REGISTER(reg, relu, unary_kernel<ops::relu>, kNumericMask);
  KF_CLK_REGISTER(reg, exp, unary_kernel<ops::exp>, kFloatMask);
  KF_CLK_REGISTER(reg, log, unary_kernel<ops::log>, kFloatMask);
  KF_CLK_REGISTER(reg, sqrt, unary_kernel<ops::sqrt>, kFloatMask);
  KF_CLK_REGISTER(reg, sigmoid, unary_kernel<ops::sigmoid>, kFloatMask);
  KF_CLK_REGISTER(reg, tanh, unary_kernel<ops::tanh>, kFloatMask);
  KF_CLK_REGISTER(reg, square, unary_kernel<ops::square>, kNumericMask);
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
  KF_CLK_REGISTER(reg, trunc, unary_kernel<ops::trunc>, kFloatMask);
  KF_CLK_REGISTER(reg, isnan, predicate_kernel<ops::isnan>, kAllMask);
  KF_CLK_REGISTER(reg, isinf, predicate_kernel<ops::isinf>, kAllMask);
  KF_CLK_REGISTER(reg, isfinite, predicate_kernel<ops::isfinite>, kAllMask);
  KF_CLK_REGISTER(reg, signbit, predicate_kernel<ops::signbit>, kAllMask);
  KF_CLK_REGISTER(reg, logical_not, predicate_kernel<ops::logical_not>, kAllMask);
  return KF_OK;
}

}  // namespace kf::clk
