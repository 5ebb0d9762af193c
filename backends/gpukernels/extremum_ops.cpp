// extremum_ops.cpp — amax, amin, argmax and argmin on CUDA: the host glue of extremum.cu.
//
// amax/amin read and write self's dtype over `dim` ([] reduces every dim); argmax/argmin read
// self and write int64 over one dim, or over the flattened tensor when dim is None (a 0-dim
// result unless keepdim). None of them has an identity: a reduction over an empty dim is
// refused (the core's meta refuses it first; the check here covers direct calls).
#include <optional>
#include <string>

#include "extremum_launch.hpp"
#include "kernforge/plugin.hpp"
#include "reduce_host.hpp"

namespace kf::cuda {
namespace {

namespace ops = kf::plugin::ops;

void require_nonempty(const ReducePlan& p) {
  if (p.numel_red == 0 && p.numel_out > 0) {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                  "cannot reduce over an empty dimension (there is no identity)");
  }
}

template <class Args>
void value_kernel(ExtremumOp op, const Args& a, const char* name) {
  require_dtype_in(kExtremumDtypes, a.out.dtype, "an output");
  require_same_dtype(a.self, a.out);
  bool reduced[KF_MAX_NDIM];
  mark_dims(a.dim.data, a.dim.len, a.self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, a.keepdim, true);
  require_nonempty(plan);
  launch_reduction(a.call, plan, a.self, a.out, 0.0, name,
                   [&](const ReduceLaunch& l, cudaStream_t s) { launch_extremum(op, l, s); });
}

template <class Args>
void index_kernel(ExtremumOp op, const Args& a, const char* name) {
  if (a.out.dtype != KF_INT64) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("the output must be int64, not ") +
                                                   kf_dtype_string(a.out.dtype));
  }
  require_dtype_in(kExtremumDtypes, a.self.dtype, "an input");
  bool reduced[KF_MAX_NDIM];
  bool keepdim = a.keepdim;
  if (a.dim) {
    const int64_t d = *a.dim;
    mark_dims(&d, 1, a.self.ndim, reduced);
  } else {
    mark_dims(nullptr, 0, a.self.ndim, reduced);
    keepdim = keepdim && a.out.ndim == a.self.ndim;
  }
  // Row-major reduced dims: the position in the reduced space is the flattened index.
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, keepdim, false);
  require_nonempty(plan);
  launch_reduction(a.call, plan, a.self, a.out, 0.0, name,
                   [&](const ReduceLaunch& l, cudaStream_t s) { launch_extremum(op, l, s); });
}

void amax_kernel(const ops::amax::Args& a) { value_kernel(ExtremumOp::Amax, a, "amax"); }
void amin_kernel(const ops::amin::Args& a) { value_kernel(ExtremumOp::Amin, a, "amin"); }
void argmax_kernel(const ops::argmax::Args& a) { index_kernel(ExtremumOp::Argmax, a, "argmax"); }
void argmin_kernel(const ops::argmin::Args& a) { index_kernel(ExtremumOp::Argmin, a, "argmin"); }

}  // namespace

kf_status_t register_extremum_ops(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, amax, amax_kernel, kExtremumDtypes);
  KF_REGISTER_KERNEL(reg, amin, amin_kernel, kExtremumDtypes);
  KF_REGISTER_KERNEL(reg, argmax, argmax_kernel, kExtremumDtypes);
  KF_REGISTER_KERNEL(reg, argmin, argmin_kernel, kExtremumDtypes);
  return KF_OK;
}

}  // namespace kf::cuda
