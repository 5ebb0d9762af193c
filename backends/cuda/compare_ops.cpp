// compare_ops.cpp — the host side of eq, ne, lt, le, gt, ge, logical_and and logical_or (tag
// pointwise, bool result). Both inputs arrive broadcast and converted to their promoted dtype
// (every dtype, bool included); the bool output may be any strided view. Kernels: compare.cu
// (launch_compare); dtype masks: compare_launch.hpp, the CPU backend's.
#include "compare_launch.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"
#include "pointwise_host.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void run_compare(CompareOp op, const char* name, const kf_tensor_view_t& self,
                 const kf_tensor_view_t& other, const kf_tensor_view_t& out,
                 const kf_kernel_call_t& call) {
  pointwise::require_dtype(out, KF_BOOL, "out", name);
  pointwise::require_dtype(other, self.dtype, "other", name);
  pointwise::require_supported(self.dtype, compare_dtype_mask(op), name);
  if (out.numel == 0) return;
  KernelScope scope(call, out);
  launch_compare(op, self.dtype, make_operands({&out, &self, &other}), scope.stream());
  scope.check(name);
}

// The kernel of op `name` (CompareOp::k<Op>).
#define KF_CUDA_COMPARE_KERNEL(name, Op)                          \
  void name##_kernel(const ops::name::Args& a) {                 \
    run_compare(CompareOp::Op, #name, a.self, a.other, a.out, a.call); \
  }
KF_CUDA_COMPARE_KERNEL(eq, kEq)
KF_CUDA_COMPARE_KERNEL(ne, kNe)
KF_CUDA_COMPARE_KERNEL(lt, kLt)
KF_CUDA_COMPARE_KERNEL(le, kLe)
KF_CUDA_COMPARE_KERNEL(gt, kGt)
KF_CUDA_COMPARE_KERNEL(ge, kGe)
KF_CUDA_COMPARE_KERNEL(logical_and, kAnd)
KF_CUDA_COMPARE_KERNEL(logical_or, kOr)
#undef KF_CUDA_COMPARE_KERNEL

}  // namespace

kf_status_t register_compare_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, eq, eq_kernel, compare_dtype_mask(CompareOp::kEq));
  KF_REGISTER_KERNEL(reg, ne, ne_kernel, compare_dtype_mask(CompareOp::kNe));
  KF_REGISTER_KERNEL(reg, lt, lt_kernel, compare_dtype_mask(CompareOp::kLt));
  KF_REGISTER_KERNEL(reg, le, le_kernel, compare_dtype_mask(CompareOp::kLe));
  KF_REGISTER_KERNEL(reg, gt, gt_kernel, compare_dtype_mask(CompareOp::kGt));
  KF_REGISTER_KERNEL(reg, ge, ge_kernel, compare_dtype_mask(CompareOp::kGe));
  KF_REGISTER_KERNEL(reg, logical_and, logical_and_kernel,
                     compare_dtype_mask(CompareOp::kAnd));
  KF_REGISTER_KERNEL(reg, logical_or, logical_or_kernel, compare_dtype_mask(CompareOp::kOr));
  return KF_OK;
}

}  // namespace kf::cuda
