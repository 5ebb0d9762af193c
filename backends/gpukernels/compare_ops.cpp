// compare_ops.cpp — the host side of eq, ne, lt, le, gt, ge, logical_and, logical_or and
// logical_xor, and of the unary isnan, isinf, isfinite, signbit and logical_not (tag pointwise,
// bool result). Both inputs arrive broadcast and converted to their promoted dtype (every
// dtype, bool included); a unary op's input keeps its dtype; the bool output may be any strided
// view. Complex inputs are left to the CPU fallback (not registered). Kernels: compare.cu
// (launch_compare); dtype masks: compare_launch.hpp, the CPU backend's.
#include "compare_launch.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "operands.hpp"
#include "pointwise_host.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

/// out = op(self, other), or op(self) for a unary op (other null).
void run_compare(CompareOp op, const char* name, const kf_tensor_view_t& self,
                 const kf_tensor_view_t* other, const kf_tensor_view_t& out,
                 const kf_kernel_call_t& call) {
  pointwise::require_dtype(out, KF_BOOL, "out", name);
  if (other != nullptr) pointwise::require_dtype(*other, self.dtype, "other", name);
  pointwise::require_supported(self.dtype, compare_dtype_mask(op), name);
  if (out.numel == 0) return;
  KernelScope scope(call, out);
  const Operands p = other != nullptr ? make_operands({&out, &self, other})
                                      : make_operands({&out, &self});
  launch_compare(op, self.dtype, p, scope.stream());
  scope.check(name);
}

// The kernel of op `name` (CompareOp::k<Op>), binary or unary.
#define KF_CUDA_COMPARE_KERNEL(name, Op)                                \
  void name##_kernel(const ops::name::Args& a) {                       \
    run_compare(CompareOp::Op, #name, a.self, &a.other, a.out, a.call); \
  }
#define KF_CUDA_PREDICATE_KERNEL(name, Op)                              \
  void name##_kernel(const ops::name::Args& a) {                       \
    run_compare(CompareOp::Op, #name, a.self, nullptr, a.out, a.call);  \
  }
KF_CUDA_COMPARE_KERNEL(eq, kEq)
KF_CUDA_COMPARE_KERNEL(ne, kNe)
KF_CUDA_COMPARE_KERNEL(lt, kLt)
KF_CUDA_COMPARE_KERNEL(le, kLe)
KF_CUDA_COMPARE_KERNEL(gt, kGt)
KF_CUDA_COMPARE_KERNEL(ge, kGe)
KF_CUDA_COMPARE_KERNEL(logical_and, kAnd)
KF_CUDA_COMPARE_KERNEL(logical_or, kOr)
KF_CUDA_COMPARE_KERNEL(logical_xor, kXor)
KF_CUDA_PREDICATE_KERNEL(isnan, kIsNan)
KF_CUDA_PREDICATE_KERNEL(isinf, kIsInf)
KF_CUDA_PREDICATE_KERNEL(isfinite, kIsFinite)
KF_CUDA_PREDICATE_KERNEL(signbit, kSignbit)
KF_CUDA_PREDICATE_KERNEL(logical_not, kNot)
#undef KF_CUDA_PREDICATE_KERNEL
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
  KF_REGISTER_KERNEL(reg, logical_xor, logical_xor_kernel,
                     compare_dtype_mask(CompareOp::kXor));
  KF_REGISTER_KERNEL(reg, isnan, isnan_kernel, compare_dtype_mask(CompareOp::kIsNan));
  KF_REGISTER_KERNEL(reg, isinf, isinf_kernel, compare_dtype_mask(CompareOp::kIsInf));
  KF_REGISTER_KERNEL(reg, isfinite, isfinite_kernel, compare_dtype_mask(CompareOp::kIsFinite));
  KF_REGISTER_KERNEL(reg, signbit, signbit_kernel, compare_dtype_mask(CompareOp::kSignbit));
  KF_REGISTER_KERNEL(reg, logical_not, logical_not_kernel,
                     compare_dtype_mask(CompareOp::kNot));
  return KF_OK;
}

}  // namespace kf::cuda
