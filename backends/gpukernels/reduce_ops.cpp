// reduce_ops.cpp — sum, mean, prod, all and any on CUDA: the host glue of reduce.cu.
//
// The core hands sum, mean and prod their input already converted to the output's dtype (meta
// reduce_sum / reduce_mean: bool and integers sum and multiply as int64 unless dtype= is given;
// mean needs a floating dtype); all and any read the input in its own dtype and write bool, or
// uint8 for a uint8 input (meta reduce_logical). dim None or [] reduces every dim. The
// semantics are the CPU backend's (reduce.cu's header).
#include "kernforge/plugin.hpp"
#include "reduce_host.hpp"
#include "reduce_launch.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

template <class Args>
void arithmetic(ReduceOp op, uint32_t mask, const Args& a, const char* name) {
  require_dtype_in(mask, a.out.dtype, "an output");
  require_same_dtype(a.self, a.out);
  bool reduced[KF_MAX_NDIM];
  mark_optional_dims(a.dim, a.self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, a.keepdim, true);
  launch_reduction(a.call, plan, a.self, a.out, 0.0, name,
                   [&](const ReduceLaunch& l, cudaStream_t s) { launch_reduce(op, l, s); });
}

template <class Args>
void logical(ReduceOp op, const Args& a, const char* name) {
  if (a.out.dtype != KF_BOOL && a.out.dtype != KF_UINT8) {
    throw kf::plugin::KernelError(KF_INTERNAL, "the output must be bool or uint8, not " +
                                                   std::string(kf_dtype_string(a.out.dtype)));
  }
  require_dtype_in(kLogicalDtypes, a.self.dtype, "an input");
  bool reduced[KF_MAX_NDIM];
  mark_optional_dims(a.dim, a.self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, a.keepdim, true);
  launch_reduction(a.call, plan, a.self, a.out, 0.0, name,
                   [&](const ReduceLaunch& l, cudaStream_t s) { launch_reduce(op, l, s); });
}

void sum_kernel(const ops::sum::Args& a) { arithmetic(ReduceOp::Sum, kSumDtypes, a, "sum"); }
void mean_kernel(const ops::mean::Args& a) { arithmetic(ReduceOp::Mean, kMeanDtypes, a, "mean"); }
void prod_kernel(const ops::prod::Args& a) { arithmetic(ReduceOp::Prod, kProdDtypes, a, "prod"); }
void all_kernel(const ops::all::Args& a) { logical(ReduceOp::All, a, "all"); }
void any_kernel(const ops::any::Args& a) { logical(ReduceOp::Any, a, "any"); }

}  // namespace

kf_status_t register_reduce_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, sum, sum_kernel, kSumDtypes);
  KF_REGISTER_KERNEL(reg, mean, mean_kernel, kMeanDtypes);
  KF_REGISTER_KERNEL(reg, prod, prod_kernel, kProdDtypes);
  KF_REGISTER_KERNEL(reg, all, all_kernel, kLogicalDtypes);
  KF_REGISTER_KERNEL(reg, any, any_kernel, kLogicalDtypes);
  return KF_OK;
}

}  // namespace kf::cuda
