// moments_ops.cpp — var, std and logsumexp on CUDA: the host glue of moments.cu.
//
// Input and output share one floating dtype (meta reduce_var; reduce_logsumexp converts integer
// and bool inputs to float32). var/std reduce over `dim` (None or []: every dim) with
// `correction` (1 unless given; an int, bool or float scalar); logsumexp over `dim` ([]: every
// dim). The semantics are the CPU backend's (moments.cu's header).
#include <optional>

#include "kernforge/plugin.hpp"
#include "kernforge/scalar.hpp"
#include "moments_launch.hpp"
#include "reduce_host.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

double correction_of(const std::optional<kf_scalar_t>& c) {
  return c ? scalar_real(*c) : 1.0;
}

template <class Args>
void moments_kernel(MomentsOp op, const Args& a, const char* name) {
  require_dtype_in(kMomentsDtypes, a.out.dtype, "an output");
  require_same_dtype(a.self, a.out);
  bool reduced[KF_MAX_NDIM];
  mark_optional_dims(a.dim, a.self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, a.keepdim, true);
  launch_reduction(a.call, plan, a.self, a.out, correction_of(a.correction), name,
                   [&](const ReduceLaunch& l, cudaStream_t s) { launch_moments(op, l, s); });
}

void var_kernel(const ops::var::Args& a) { moments_kernel(MomentsOp::Var, a, "var"); }
void std_kernel(const ops::std::Args& a) { moments_kernel(MomentsOp::Std, a, "std"); }

void logsumexp_kernel(const ops::logsumexp::Args& a) {
  require_dtype_in(kLogsumexpDtypes, a.out.dtype, "an output");
  require_same_dtype(a.self, a.out);
  bool reduced[KF_MAX_NDIM];
  mark_dims(a.dim.data, a.dim.len, a.self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, a.keepdim, true);
  launch_reduction(a.call, plan, a.self, a.out, 0.0, "logsumexp",
                   [&](const ReduceLaunch& l, cudaStream_t s) {
                     launch_moments(MomentsOp::Logsumexp, l, s);
                   });
}

}  // namespace

kf_status_t register_moments_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, var, var_kernel, kMomentsDtypes);
  KF_REGISTER_KERNEL(reg, std, std_kernel, kMomentsDtypes);
  KF_REGISTER_KERNEL(reg, logsumexp, logsumexp_kernel, kLogsumexpDtypes);
  return KF_OK;
}

}  // namespace kf::cuda
