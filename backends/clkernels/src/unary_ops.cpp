// neg, abs, relu, exp, log, sqrt, sigmoid, tanh (kernels/unary.cl).
#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

template <class Op>
void unary_kernel(const typename Op::Args& a) {
  run_elementwise(a.call, {Family::Unary, a.out.dtype}, Op::kName, {&a.out, &a.self}, {});
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
  return KF_OK;
}

}  // namespace kf::clk
