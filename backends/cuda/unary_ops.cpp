// unary_ops.cpp — the host side of the same-dtype unary ops (tag pointwise): neg abs exp log
// sqrt relu sigmoid tanh rsqrt sin cos erf reciprocal gelu silu. The input arrives in the
// computation dtype, which is also the output's (the core converts integer inputs of the
// float ops to float32); the output may be any strided view and may alias the input exactly.
// Kernels: unary.cu (launch_unary); dtype masks: unary_launch.hpp, the CPU backend's.
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"
#include "pointwise_host.hpp"
#include "unary_launch.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void run_unary(UnaryOp op, const char* name, const kf_tensor_view_t& self,
               const kf_tensor_view_t& out, const kf_kernel_call_t& call,
               const UnaryScalars& scalars = {}) {
  pointwise::require_dtype(self, out.dtype, "self", name);
  pointwise::require_supported(out.dtype, unary_dtype_mask(op), name);
  if (out.numel == 0) return;
  KernelScope scope(call, out);
  launch_unary(op, out.dtype, make_operands({&out, &self}), scalars, scope.stream());
  scope.check(name);
}

// The kernel of op `name` (UnaryOp::k<Op>), for the ops without scalar arguments.
#define KF_CUDA_UNARY_KERNEL(name, Op)                                   \
  void name##_kernel(const ops::name::Args& a) {                        \
    run_unary(UnaryOp::Op, #name, a.self, a.out, a.call);                \
  }
KF_CUDA_UNARY_KERNEL(neg, kNeg)
KF_CUDA_UNARY_KERNEL(abs, kAbs)
KF_CUDA_UNARY_KERNEL(exp, kExp)
KF_CUDA_UNARY_KERNEL(log, kLog)
KF_CUDA_UNARY_KERNEL(sqrt, kSqrt)
KF_CUDA_UNARY_KERNEL(relu, kRelu)
KF_CUDA_UNARY_KERNEL(sigmoid, kSigmoid)
KF_CUDA_UNARY_KERNEL(tanh, kTanh)
KF_CUDA_UNARY_KERNEL(rsqrt, kRsqrt)
KF_CUDA_UNARY_KERNEL(sin, kSin)
KF_CUDA_UNARY_KERNEL(cos, kCos)
KF_CUDA_UNARY_KERNEL(erf, kErf)
KF_CUDA_UNARY_KERNEL(reciprocal, kReciprocal)
KF_CUDA_UNARY_KERNEL(silu, kSilu)
#undef KF_CUDA_UNARY_KERNEL

void gelu_kernel(const ops::gelu::Args& a) {
  UnaryScalars s;
  s.approximate = a.approximate;
  run_unary(UnaryOp::kGelu, "gelu", a.self, a.out, a.call, s);
}

}  // namespace

kf_status_t register_unary_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, neg, neg_kernel, unary_dtype_mask(UnaryOp::kNeg));
  KF_REGISTER_KERNEL(reg, abs, abs_kernel, unary_dtype_mask(UnaryOp::kAbs));
  KF_REGISTER_KERNEL(reg, exp, exp_kernel, unary_dtype_mask(UnaryOp::kExp));
  KF_REGISTER_KERNEL(reg, log, log_kernel, unary_dtype_mask(UnaryOp::kLog));
  KF_REGISTER_KERNEL(reg, sqrt, sqrt_kernel, unary_dtype_mask(UnaryOp::kSqrt));
  KF_REGISTER_KERNEL(reg, relu, relu_kernel, unary_dtype_mask(UnaryOp::kRelu));
  KF_REGISTER_KERNEL(reg, sigmoid, sigmoid_kernel, unary_dtype_mask(UnaryOp::kSigmoid));
  KF_REGISTER_KERNEL(reg, tanh, tanh_kernel, unary_dtype_mask(UnaryOp::kTanh));
  KF_REGISTER_KERNEL(reg, rsqrt, rsqrt_kernel, unary_dtype_mask(UnaryOp::kRsqrt));
  KF_REGISTER_KERNEL(reg, sin, sin_kernel, unary_dtype_mask(UnaryOp::kSin));
  KF_REGISTER_KERNEL(reg, cos, cos_kernel, unary_dtype_mask(UnaryOp::kCos));
  KF_REGISTER_KERNEL(reg, erf, erf_kernel, unary_dtype_mask(UnaryOp::kErf));
  KF_REGISTER_KERNEL(reg, reciprocal, reciprocal_kernel,
                     unary_dtype_mask(UnaryOp::kReciprocal));
  KF_REGISTER_KERNEL(reg, gelu, gelu_kernel, unary_dtype_mask(UnaryOp::kGelu));
  KF_REGISTER_KERNEL(reg, silu, silu_kernel, unary_dtype_mask(UnaryOp::kSilu));
  return KF_OK;
}

}  // namespace kf::cuda
