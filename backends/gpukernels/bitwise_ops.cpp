// bitwise_ops.cpp — the host side of bitwise_and, bitwise_or, bitwise_xor, bitwise_left_shift
// and bitwise_right_shift (tag pointwise). Both inputs arrive broadcast to the output's shape
// (zero strides) and converted to the promoted dtype, the output's: integers, and bool for
// and/or/xor (the meta refuses the rest); the output may be any strided view and may alias an
// input exactly. bitwise_not is in unary_ops.cpp. Kernels: bitwise.cu (launch_bitwise); dtype
// masks: bitwise_launch.hpp, the CPU backend's.
#include "bitwise_launch.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"
#include "pointwise_host.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void run_bitwise(BitwiseOp op, const char* name, const kf_tensor_view_t& self,
                 const kf_tensor_view_t& other, const kf_tensor_view_t& out,
                 const kf_kernel_call_t& call) {
  pointwise::require_dtype(self, out.dtype, "self", name);
  pointwise::require_dtype(other, out.dtype, "other", name);
  pointwise::require_supported(out.dtype, bitwise_dtype_mask(op), name);
  if (out.numel == 0) return;
  KernelScope scope(call, out);
  launch_bitwise(op, out.dtype, make_operands({&out, &self, &other}), scope.stream());
  scope.check(name);
}

// The kernel of op `name` (BitwiseOp::k<Op>).
#define KF_CUDA_BITWISE_KERNEL(name, Op)                              \
  void name##_kernel(const ops::name::Args& a) {                     \
    run_bitwise(BitwiseOp::Op, #name, a.self, a.other, a.out, a.call); \
  }
KF_CUDA_BITWISE_KERNEL(bitwise_and, kAnd)
KF_CUDA_BITWISE_KERNEL(bitwise_or, kOr)
KF_CUDA_BITWISE_KERNEL(bitwise_xor, kXor)
KF_CUDA_BITWISE_KERNEL(bitwise_left_shift, kLeftShift)
KF_CUDA_BITWISE_KERNEL(bitwise_right_shift, kRightShift)
#undef KF_CUDA_BITWISE_KERNEL

}  // namespace

kf_status_t register_bitwise_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, bitwise_and, bitwise_and_kernel, bitwise_dtype_mask(BitwiseOp::kAnd));
  KF_REGISTER_KERNEL(reg, bitwise_or, bitwise_or_kernel, bitwise_dtype_mask(BitwiseOp::kOr));
  KF_REGISTER_KERNEL(reg, bitwise_xor, bitwise_xor_kernel, bitwise_dtype_mask(BitwiseOp::kXor));
  KF_REGISTER_KERNEL(reg, bitwise_left_shift, bitwise_left_shift_kernel,
                     bitwise_dtype_mask(BitwiseOp::kLeftShift));
  KF_REGISTER_KERNEL(reg, bitwise_right_shift, bitwise_right_shift_kernel,
                     bitwise_dtype_mask(BitwiseOp::kRightShift));
  return KF_OK;
}

}  // namespace kf::cuda
