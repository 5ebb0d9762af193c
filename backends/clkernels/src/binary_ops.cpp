// add, sub, mul, div, eq, lt, gt, where (kernels/binary.cl). The host already broadcast the
// inputs to the output's shape and converted them to the computation dtype.
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

void add_kernel(const ops::add::Args& a) { arith(a.call, "add", a.out, a.self, a.other, a.alpha); }
void sub_kernel(const ops::sub::Args& a) { arith(a.call, "sub", a.out, a.self, a.other, a.alpha); }
void mul_kernel(const ops::mul::Args& a) {
  arith(a.call, "mul", a.out, a.self, a.other, kf_scalar_i64(1));
}
void div_kernel(const ops::div::Args& a) {
  arith(a.call, "div", a.out, a.self, a.other, kf_scalar_i64(1));
}

void compare(const kf_kernel_call_t& call, const char* op, const kf_tensor_view_t& out,
             const kf_tensor_view_t& a, const kf_tensor_view_t& b) {
  run_elementwise(call, {Family::Binary, a.dtype}, op, {&out, &a, &b}, {});
}

void eq_kernel(const ops::eq::Args& a) { compare(a.call, "eq", a.out, a.self, a.other); }
void lt_kernel(const ops::lt::Args& a) { compare(a.call, "lt", a.out, a.self, a.other); }
void gt_kernel(const ops::gt::Args& a) { compare(a.call, "gt", a.out, a.self, a.other); }

void where_kernel(const ops::where::Args& a) {
  run_elementwise(a.call, {Family::Binary, a.out.dtype}, "where",
                  {&a.out, &a.condition, &a.self, &a.other}, {});
}

}  // namespace

kf_status_t register_binary_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, add, add_kernel, kAllMask);
  KF_CLK_REGISTER(reg, sub, sub_kernel, kNumericMask);
  KF_CLK_REGISTER(reg, mul, mul_kernel, kAllMask);
  KF_CLK_REGISTER(reg, div, div_kernel, kFloatMask);
  KF_CLK_REGISTER(reg, eq, eq_kernel, kAllMask);
  KF_CLK_REGISTER(reg, lt, lt_kernel, kAllMask);
  KF_CLK_REGISTER(reg, gt, gt_kernel, kAllMask);
  KF_CLK_REGISTER(reg, where, where_kernel, kAllMask);
  return KF_OK;
}

}  // namespace kf::clk
