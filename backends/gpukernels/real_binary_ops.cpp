// real_binary_ops.cpp — the host side of atan2, hypot, copysign, logaddexp, nextafter,
// floor_divide and remainder (tag pointwise). Both inputs arrive broadcast to the output's
// shape (zero strides) and converted to the promoted dtype, the output's: floating for the
// first five (integers give float32), real for floor_divide and remainder (the meta refuses
// bool); the output may be any strided view and may alias an input exactly. Complex inputs are
// refused by the meta. Kernels: real_binary.cu (launch_real_binary); dtype masks:
// real_binary_launch.hpp, the CPU backend's.
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"
#include "pointwise_host.hpp"
#include "real_binary_launch.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void run_real_binary(RealBinaryOp op, const char* name, const kf_tensor_view_t& self,
                     const kf_tensor_view_t& other, const kf_tensor_view_t& out,
                     const kf_kernel_call_t& call) {
  pointwise::require_dtype(self, out.dtype, "self", name);
  pointwise::require_dtype(other, out.dtype, "other", name);
  pointwise::require_supported(out.dtype, real_binary_dtype_mask(op), name);
  if (out.numel == 0) return;
  KernelScope scope(call, out);
  launch_real_binary(op, out.dtype, make_operands({&out, &self, &other}), scope.stream());
  scope.check(name);
}

// The kernel of op `name` (RealBinaryOp::k<Op>).
#define KF_CUDA_REAL_BINARY_KERNEL(name, Op)                                   \
  void name##_kernel(const ops::name::Args& a) {                              \
    run_real_binary(RealBinaryOp::Op, #name, a.self, a.other, a.out, a.call); \
  }
KF_CUDA_REAL_BINARY_KERNEL(atan2, kAtan2)
KF_CUDA_REAL_BINARY_KERNEL(hypot, kHypot)
KF_CUDA_REAL_BINARY_KERNEL(copysign, kCopysign)
KF_CUDA_REAL_BINARY_KERNEL(logaddexp, kLogaddexp)
KF_CUDA_REAL_BINARY_KERNEL(nextafter, kNextafter)
KF_CUDA_REAL_BINARY_KERNEL(floor_divide, kFloorDivide)
KF_CUDA_REAL_BINARY_KERNEL(remainder, kRemainder)
#undef KF_CUDA_REAL_BINARY_KERNEL

}  // namespace

kf_status_t register_real_binary_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, atan2, atan2_kernel, real_binary_dtype_mask(RealBinaryOp::kAtan2));
  KF_REGISTER_KERNEL(reg, hypot, hypot_kernel, real_binary_dtype_mask(RealBinaryOp::kHypot));
  KF_REGISTER_KERNEL(reg, copysign, copysign_kernel,
                     real_binary_dtype_mask(RealBinaryOp::kCopysign));
  KF_REGISTER_KERNEL(reg, logaddexp, logaddexp_kernel,
                     real_binary_dtype_mask(RealBinaryOp::kLogaddexp));
  KF_REGISTER_KERNEL(reg, nextafter, nextafter_kernel,
                     real_binary_dtype_mask(RealBinaryOp::kNextafter));
  KF_REGISTER_KERNEL(reg, floor_divide, floor_divide_kernel,
                     real_binary_dtype_mask(RealBinaryOp::kFloorDivide));
  KF_REGISTER_KERNEL(reg, remainder, remainder_kernel,
                     real_binary_dtype_mask(RealBinaryOp::kRemainder));
  return KF_OK;
}

}  // namespace kf::cuda
