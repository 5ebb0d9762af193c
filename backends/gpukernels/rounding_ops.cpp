// rounding_ops.cpp — the host side of floor, ceil, trunc, round, sign and clamp (tag
// pointwise). The input has the output's dtype (for clamp the core has converted an integer
// self to float32 when a bound is a float, and range-checked integer bounds); the output may be
// any strided view and may alias the input exactly. Kernels: rounding.cu (launch_rounding);
// dtype masks: rounding_launch.hpp, the CPU backend's.
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"
#include "pointwise_host.hpp"
#include "rounding_launch.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void run_rounding(RoundingOp op, const char* name, const kf_tensor_view_t& self,
                  const kf_tensor_view_t& out, const kf_kernel_call_t& call,
                  const RoundingScalars& scalars = {}) {
  pointwise::require_dtype(self, out.dtype, "self", name);
  pointwise::require_supported(out.dtype, rounding_dtype_mask(op), name);
  if (out.numel == 0) return;
  KernelScope scope(call, out);
  launch_rounding(op, out.dtype, make_operands({&out, &self}), scalars, scope.stream());
  scope.check(name);
}

void floor_kernel(const ops::floor::Args& a) {
  run_rounding(RoundingOp::kFloor, "floor", a.self, a.out, a.call);
}
void ceil_kernel(const ops::ceil::Args& a) {
  run_rounding(RoundingOp::kCeil, "ceil", a.self, a.out, a.call);
}
void trunc_kernel(const ops::trunc::Args& a) {
  run_rounding(RoundingOp::kTrunc, "trunc", a.self, a.out, a.call);
}
void sign_kernel(const ops::sign::Args& a) {
  run_rounding(RoundingOp::kSign, "sign", a.self, a.out, a.call);
}

void round_kernel(const ops::round::Args& a) {
  if (a.decimals != 0 && kf_dtype_kind(a.out.dtype) != 'f') {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                  "round: decimals != 0 needs a floating-point tensor");
  }
  RoundingScalars s;
  s.decimals = a.decimals;
  run_rounding(RoundingOp::kRound, "round", a.self, a.out, a.call, s);
}

void clamp_kernel(const ops::clamp::Args& a) {
  RoundingScalars s;
  s.has_min = a.min.has_value();
  s.has_max = a.max.has_value();
  if (s.has_min) s.min = pointwise::scalar_arg(*a.min);
  if (s.has_max) s.max = pointwise::scalar_arg(*a.max);
  run_rounding(RoundingOp::kClamp, "clamp", a.self, a.out, a.call, s);
}

}  // namespace

kf_status_t register_rounding_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, floor, floor_kernel, rounding_dtype_mask(RoundingOp::kFloor));
  KF_REGISTER_KERNEL(reg, ceil, ceil_kernel, rounding_dtype_mask(RoundingOp::kCeil));
  KF_REGISTER_KERNEL(reg, trunc, trunc_kernel, rounding_dtype_mask(RoundingOp::kTrunc));
  KF_REGISTER_KERNEL(reg, round, round_kernel, rounding_dtype_mask(RoundingOp::kRound));
  KF_REGISTER_KERNEL(reg, sign, sign_kernel, rounding_dtype_mask(RoundingOp::kSign));
  KF_REGISTER_KERNEL(reg, clamp, clamp_kernel, rounding_dtype_mask(RoundingOp::kClamp));
  return KF_OK;
}

}  // namespace kf::cuda
