// binary_ops.cpp — the host side of add, sub, mul, div, maximum, minimum, pow and where (tag
// pointwise). Inputs arrive broadcast to the output's shape (zero strides) and converted to
// the computation dtype, which is the output's (where's condition is bool); the output may be
// any strided view and may alias an input exactly (in-place forms). Kernels: binary.cu
// (launch_binary); dtype masks: binary_launch.hpp, the CPU backend's.
#include "binary_launch.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"
#include "pointwise_host.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void run_binary(BinaryOp op, const char* name, const kf_tensor_view_t& self,
                const kf_tensor_view_t& other, const kf_tensor_view_t& out,
                const kf_kernel_call_t& call, const BinaryScalars& scalars = {}) {
  pointwise::require_dtype(self, out.dtype, "self", name);
  pointwise::require_dtype(other, out.dtype, op == BinaryOp::kPow ? "exponent" : "other", name);
  pointwise::require_supported(out.dtype, binary_dtype_mask(op), name);
  if (out.numel == 0) return;
  KernelScope scope(call, out);
  launch_binary(op, out.dtype, make_operands({&out, &self, &other}), scalars, scope.stream());
  scope.check(name);
}

BinaryScalars with_alpha(const kf_scalar_t& alpha) {
  BinaryScalars s;
  s.alpha = pointwise::scalar_arg(alpha);
  return s;
}

void add_kernel(const ops::add::Args& a) {
  run_binary(BinaryOp::kAdd, "add", a.self, a.other, a.out, a.call, with_alpha(a.alpha));
}
void sub_kernel(const ops::sub::Args& a) {
  run_binary(BinaryOp::kSub, "sub", a.self, a.other, a.out, a.call, with_alpha(a.alpha));
}
void mul_kernel(const ops::mul::Args& a) {
  run_binary(BinaryOp::kMul, "mul", a.self, a.other, a.out, a.call);
}
void div_kernel(const ops::div::Args& a) {
  run_binary(BinaryOp::kDiv, "div", a.self, a.other, a.out, a.call);
}
void maximum_kernel(const ops::maximum::Args& a) {
  run_binary(BinaryOp::kMaximum, "maximum", a.self, a.other, a.out, a.call);
}
void minimum_kernel(const ops::minimum::Args& a) {
  run_binary(BinaryOp::kMinimum, "minimum", a.self, a.other, a.out, a.call);
}
void pow_kernel(const ops::pow::Args& a) {
  run_binary(BinaryOp::kPow, "pow", a.self, a.exponent, a.out, a.call);
}

void where_kernel(const ops::where::Args& a) {
  pointwise::require_dtype(a.condition, KF_BOOL, "condition", "where");
  pointwise::require_dtype(a.self, a.out.dtype, "self", "where");
  pointwise::require_dtype(a.other, a.out.dtype, "other", "where");
  pointwise::require_supported(a.out.dtype, binary_dtype_mask(BinaryOp::kWhere), "where");
  if (a.out.numel == 0) return;
  KernelScope scope(a.call, a.out);
  launch_binary(BinaryOp::kWhere, a.out.dtype,
                make_operands({&a.out, &a.condition, &a.self, &a.other}), BinaryScalars{},
                scope.stream());
  scope.check("where");
}

}  // namespace

kf_status_t register_binary_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, add, add_kernel, binary_dtype_mask(BinaryOp::kAdd));
  KF_REGISTER_KERNEL(reg, sub, sub_kernel, binary_dtype_mask(BinaryOp::kSub));
  KF_REGISTER_KERNEL(reg, mul, mul_kernel, binary_dtype_mask(BinaryOp::kMul));
  KF_REGISTER_KERNEL(reg, div, div_kernel, binary_dtype_mask(BinaryOp::kDiv));
  KF_REGISTER_KERNEL(reg, maximum, maximum_kernel, binary_dtype_mask(BinaryOp::kMaximum));
  KF_REGISTER_KERNEL(reg, minimum, minimum_kernel, binary_dtype_mask(BinaryOp::kMinimum));
  KF_REGISTER_KERNEL(reg, pow, pow_kernel, binary_dtype_mask(BinaryOp::kPow));
  KF_REGISTER_KERNEL(reg, where, where_kernel, binary_dtype_mask(BinaryOp::kWhere));
  return KF_OK;
}

}  // namespace kf::cuda
