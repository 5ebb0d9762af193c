// add, sub, mul, div, atan2, hypot, copysign, logaddexp, nextafter, floor_divide, remainder,
// pow, maximum, minimum, bitwise_and, bitwise_or, bitwise_xor, bitwise_left_shift,
// bitwise_right_shift, eq, ne, lt, le, gt, ge, logical_and, logical_or, logical_xor, where
// (kernels/binary.cl). The host already broadcast the inputs to the output's
// shape and converted them to the computation dtype. Complex dtypes: add, sub, mul, div, eq, ne,
// the logical ops and where (the ordered ones have no complex meaning).
#include "ops.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

void arith(const kf_kernel_call_t& call, const char* op, const kf_tensor_view_t& out,
           const kf_tensor_view_t& a, const kf_tensor_view_t& b, const kf_scalar_t& alpha) {
  const ComputeScalar c = compute_scalar(out.dtype, alpha);
  run_elementwise(call, {Family::Binary, out.dtype}, op, {&out, &a, &b}, {c.arg()});
}

}  // namespace

void multiply(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
              const kf_tensor_view_t& src, const kf_tensor_view_t& factor) {
  arith(call, "mul", out, src, factor, kf_scalar_i64(1));
}

namespace {

void add_kernel(const ops::add::Args& a) { arith(a.call, "add", a.out, a.self, a.other, a.alpha); }
void sub_kernel(const ops::sub::Args& a) { arith(a.call, "sub", a.out, a.self, a.other, a.alpha); }

/// An op without alpha (the binary kernels take one, which these ignore).
template <class Op>
void plain_kernel(const typename Op::Args& a) {
  arith(a.call, Op::kName, a.out, a.self, a.other, kf_scalar_i64(1));
}

void compare(const kf_kernel_call_t& call, const char* op, const kf_tensor_view_t& out,
             const kf_tensor_view_t& a, const kf_tensor_view_t& b) {
  run_elementwise(call, {Family::Binary, a.dtype}, op, {&out, &a, &b}, {});
}

/// A comparison or logical op: a program of the inputs' dtype writing a bool output.
template <class Op>
void compare_kernel(const typename Op::Args& a) {
  compare(a.call, Op::kName, a.out, a.self, a.other);
}

void pow_kernel(const ops::pow::Args& a) {
  arith(a.call, "pow", a.out, a.self, a.exponent, kf_scalar_i64(1));
}

void where_kernel(const ops::where::Args& a) {
  run_elementwise(a.call, {Family::Binary, a.out.dtype}, "where",
                  {&a.out, &a.condition, &a.self, &a.other}, {});
}

}  // namespace

kf_status_t register_binary_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, add, add_kernel, kAllMask);
  KF_CLK_REGISTER(reg, sub, sub_kernel, kNumericMask | kComplexMask);
  KF_CLK_REGISTER(reg, mul, plain_kernel<ops::mul>, kAllMask);
  KF_CLK_REGISTER(reg, div, plain_kernel<ops::div>, kFloatMask | kComplexMask);
  KF_CLK_REGISTER(reg, atan2, plain_kernel<ops::atan2>, kFloatMask);
  KF_CLK_REGISTER(reg, hypot, plain_kernel<ops::hypot>, kFloatMask);
  KF_CLK_REGISTER(reg, copysign, plain_kernel<ops::copysign>, kFloatMask);
  KF_CLK_REGISTER(reg, logaddexp, plain_kernel<ops::logaddexp>, kFloatMask);
  KF_CLK_REGISTER(reg, nextafter, plain_kernel<ops::nextafter>, kFloatMask);
  KF_CLK_REGISTER(reg, floor_divide, plain_kernel<ops::floor_divide>, kNumericMask);
  KF_CLK_REGISTER(reg, remainder, plain_kernel<ops::remainder>, kNumericMask);
  KF_CLK_REGISTER(reg, bitwise_and, plain_kernel<ops::bitwise_and>, kIntMask | bit(KF_BOOL));
  KF_CLK_REGISTER(reg, bitwise_or, plain_kernel<ops::bitwise_or>, kIntMask | bit(KF_BOOL));
  KF_CLK_REGISTER(reg, bitwise_xor, plain_kernel<ops::bitwise_xor>, kIntMask | bit(KF_BOOL));
  KF_CLK_REGISTER(reg, bitwise_left_shift, plain_kernel<ops::bitwise_left_shift>, kIntMask);
  KF_CLK_REGISTER(reg, bitwise_right_shift, plain_kernel<ops::bitwise_right_shift>, kIntMask);
  KF_CLK_REGISTER(reg, pow, pow_kernel, kNumericMask);
  KF_CLK_REGISTER(reg, maximum, plain_kernel<ops::maximum>, kRealMask);
  KF_CLK_REGISTER(reg, minimum, plain_kernel<ops::minimum>, kRealMask);
  KF_CLK_REGISTER(reg, eq, compare_kernel<ops::eq>, kAllMask);
  KF_CLK_REGISTER(reg, ne, compare_kernel<ops::ne>, kAllMask);
  KF_CLK_REGISTER(reg, lt, compare_kernel<ops::lt>, kRealMask);
  KF_CLK_REGISTER(reg, le, compare_kernel<ops::le>, kRealMask);
  KF_CLK_REGISTER(reg, gt, compare_kernel<ops::gt>, kRealMask);
  KF_CLK_REGISTER(reg, ge, compare_kernel<ops::ge>, kRealMask);
  KF_CLK_REGISTER(reg, logical_and, compare_kernel<ops::logical_and>, kAllMask);
  KF_CLK_REGISTER(reg, logical_or, compare_kernel<ops::logical_or>, kAllMask);
  KF_CLK_REGISTER(reg, logical_xor, compare_kernel<ops::logical_xor>, kAllMask);
  KF_CLK_REGISTER(reg, where, where_kernel, kAllMask);
  return KF_OK;
}

}  // namespace kf::clk
