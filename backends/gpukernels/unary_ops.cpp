// unary_ops.cpp — the host side of the same-dtype unary ops (tag pointwise): neg abs square
// bitwise_not exp log sqrt relu sigmoid tanh rsqrt sin cos erf reciprocal gelu silu tan asin
// acos atan sinh cosh asinh acosh atanh expm1 log1p log2 log10. The input arrives in the
// computation dtype, which is also the output's (the core converts integer inputs of the
// float ops to float32); the output may be any strided view and may alias the input exactly.
// Complex inputs are left to the CPU fallback (not registered).
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
KF_CUDA_UNARY_KERNEL(tan, kTan)
KF_CUDA_UNARY_KERNEL(asin, kAsin)
KF_CUDA_UNARY_KERNEL(acos, kAcos)
KF_CUDA_UNARY_KERNEL(atan, kAtan)
KF_CUDA_UNARY_KERNEL(sinh, kSinh)
KF_CUDA_UNARY_KERNEL(cosh, kCosh)
KF_CUDA_UNARY_KERNEL(asinh, kAsinh)
KF_CUDA_UNARY_KERNEL(acosh, kAcosh)
KF_CUDA_UNARY_KERNEL(atanh, kAtanh)
KF_CUDA_UNARY_KERNEL(expm1, kExpm1)
KF_CUDA_UNARY_KERNEL(log1p, kLog1p)
KF_CUDA_UNARY_KERNEL(log2, kLog2)
KF_CUDA_UNARY_KERNEL(log10, kLog10)
KF_CUDA_UNARY_KERNEL(square, kSquare)
KF_CUDA_UNARY_KERNEL(bitwise_not, kBitwiseNot)
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
  KF_REGISTER_KERNEL(reg, tan, tan_kernel, unary_dtype_mask(UnaryOp::kTan));
  KF_REGISTER_KERNEL(reg, asin, asin_kernel, unary_dtype_mask(UnaryOp::kAsin));
  KF_REGISTER_KERNEL(reg, acos, acos_kernel, unary_dtype_mask(UnaryOp::kAcos));
  KF_REGISTER_KERNEL(reg, atan, atan_kernel, unary_dtype_mask(UnaryOp::kAtan));
  KF_REGISTER_KERNEL(reg, sinh, sinh_kernel, unary_dtype_mask(UnaryOp::kSinh));
  KF_REGISTER_KERNEL(reg, cosh, cosh_kernel, unary_dtype_mask(UnaryOp::kCosh));
  KF_REGISTER_KERNEL(reg, asinh, asinh_kernel, unary_dtype_mask(UnaryOp::kAsinh));
  KF_REGISTER_KERNEL(reg, acosh, acosh_kernel, unary_dtype_mask(UnaryOp::kAcosh));
  KF_REGISTER_KERNEL(reg, atanh, atanh_kernel, unary_dtype_mask(UnaryOp::kAtanh));
  KF_REGISTER_KERNEL(reg, expm1, expm1_kernel, unary_dtype_mask(UnaryOp::kExpm1));
  KF_REGISTER_KERNEL(reg, log1p, log1p_kernel, unary_dtype_mask(UnaryOp::kLog1p));
  KF_REGISTER_KERNEL(reg, log2, log2_kernel, unary_dtype_mask(UnaryOp::kLog2));
  KF_REGISTER_KERNEL(reg, log10, log10_kernel, unary_dtype_mask(UnaryOp::kLog10));
  KF_REGISTER_KERNEL(reg, square, square_kernel, unary_dtype_mask(UnaryOp::kSquare));
  KF_REGISTER_KERNEL(reg, bitwise_not, bitwise_not_kernel,
                     unary_dtype_mask(UnaryOp::kBitwiseNot));
  return KF_OK;
}

}  // namespace kf::cuda
