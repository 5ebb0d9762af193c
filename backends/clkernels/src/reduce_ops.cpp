// sum, mean, prod, amax, amin, argmax, argmin, all, any, var, std, logsumexp (kernels/reduce.cl),
// with the CPU backend's semantics and dtype sets: sum/mean/prod/amax/amin/var/std/logsumexp
// get their input already converted to the output dtype (the meta's dtype= and integer
// promotion), argmax/argmin get the input in its own dtype and write int64, all/any get it in
// its own dtype and write bool (uint8 for a uint8 input); an empty reduction is 0 for sum, 1 for
// prod, NaN for mean, true for all, false for any, -inf for logsumexp, and refused for
// amax/amin/argmax/argmin.
#include <cstdio>
#include <optional>
#include <string>

#include "kernforge/scalar.hpp"
#include "ops.hpp"
#include "reduce_plan.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kSumMask = kNumericMask | kComplexMask;
constexpr uint32_t kMeanMask = kFloatMask | kComplexMask;
constexpr uint32_t kAmaxMask = kRealMask;
constexpr uint32_t kArgmaxMask = kRealMask;
constexpr uint32_t kProdMask = kAllMask;
constexpr uint32_t kLogicalMask = kAllMask;
constexpr uint32_t kMomentsMask = kFloatMask;

void require_dtype(const kf_tensor_view_t& t, int32_t dtype, const char* what, const char* op) {
  if (t.dtype == dtype) return;
  throw kf::plugin::KernelError(KF_INVALID_ARGUMENT, std::string(op) + ": " + what + " is " +
                                                         short_name(t.dtype) + ", expected " +
                                                         short_name(dtype));
}

void require_nonempty(const ReducePlan& p, const char* op) {
  if (p.n_red == 0 && p.n_out > 0) {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                  std::string("cannot take ") + op + " of an empty dimension");
  }
}

/// Launches reduce.cl's `kernel` (program: the family built for `dtype`) over `plan`, with
/// `param` (var's correction) as the kernels' KF_REAL: double on fp64 devices, else float.
void launch_reduce(const kf_kernel_call_t& call, const char* kernel, int32_t dtype,
                   const kf_tensor_view_t& in, const kf_tensor_view_t& out,
                   const ReducePlan& plan, double param = 0) {
  if (plan.n_out == 0) return;
  Device& device = device_of(call, out);
  const ReduceShape shape = reduce_shape(plan, device.capabilities());
  const size_t items = static_cast<size_t>(reduce_items(plan, shape));
  const size_t groups = (items + shape.ox - 1) / shape.ox;
  char name[32];
  std::snprintf(name, sizeof name, "%s%s", kernel, shape.column_blocks ? "_columns" : "");
  Launch launch;
  launch.program = {Family::Reduce, dtype};
  launch.kernel = name;
  launch.arg(pointer_arg(out.data))
      .arg(pointer_arg(in.data))
      .arg(value_arg(plan.n_out))
      .arg(value_arg(plan.n_red))
      .arg(value_arg(shape.chunk))
      .arg(value_arg(plan.layout));
  const float param_f32 = static_cast<float>(param);
  launch.arg(device.capabilities().fp64 ? value_arg(param) : value_arg(param_f32));
  launch.dims = shape.column_blocks ? 1 : 2;
  launch.local[0] = shape.ox;
  launch.local[1] = shape.ry;
  launch.global[0] = groups * shape.ox;
  launch.global[1] = shape.ry;
  run(call, device, launch);
}

/// A reduction over the optional `dim` (None: all) of self in the output's dtype (sum, mean,
/// prod, var, std), with `param` passed to the kernel (var's and std's correction).
void same_dtype(const kf_kernel_call_t& call, const kf_tensor_view_t& self,
                const std::optional<kf::plugin::IntList>& dim, bool keepdim,
                const kf_tensor_view_t& out, const char* op, double param = 0) {
  require_dtype(self, out.dtype, "self", op);
  bool reduced[kMaxDims];
  mark_reduced(dim ? dim->data : nullptr, dim ? dim->len : 0, self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(self, out, reduced, keepdim, false);
  launch_reduce(call, op, out.dtype, self, out, plan, param);
}

void sum_mean(const kf_kernel_call_t& call, const kf_tensor_view_t& self,
              const std::optional<kf::plugin::IntList>& dim, bool keepdim,
              const kf_tensor_view_t& out, const char* op) {
  same_dtype(call, self, dim, keepdim, out, op);
}

void sum_kernel(const ops::sum::Args& a) {
  sum_mean(a.call, a.self, a.dim, a.keepdim, a.out, "sum");
}
void mean_kernel(const ops::mean::Args& a) {
  sum_mean(a.call, a.self, a.dim, a.keepdim, a.out, "mean");
}

/// amax, amin, logsumexp: over the dims of `dim` (empty: all); `nonempty` refuses an empty
/// reduced dim (no identity).
template <class Op>
void listed_dims(const typename Op::Args& a, bool nonempty) {
  require_dtype(a.self, a.out.dtype, "self", Op::kName);
  bool reduced[kMaxDims];
  mark_reduced(a.dim.data, a.dim.len, a.self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, a.keepdim, false);
  if (nonempty) require_nonempty(plan, Op::kName);
  launch_reduce(a.call, Op::kName, a.out.dtype, a.self, a.out, plan);
}

template <class Op>
void extremum_kernel(const typename Op::Args& a) {
  listed_dims<Op>(a, true);
}
void logsumexp_kernel(const ops::logsumexp::Args& a) { listed_dims<ops::logsumexp>(a, false); }

/// argmax and argmin count positions in the row-major order of the reduced dims (the flattened
/// tensor when dim is None), so they keep their logical order.
template <class Op>
void arg_kernel(const typename Op::Args& a) {
  require_dtype(a.out, KF_INT64, "out", Op::kName);
  bool reduced[kMaxDims];
  bool keepdim = a.keepdim;
  if (a.dim) {
    const int64_t d = *a.dim;
    mark_reduced(&d, 1, a.self.ndim, reduced);
  } else {
    mark_reduced(nullptr, 0, a.self.ndim, reduced);
    keepdim = keepdim && a.out.ndim == a.self.ndim;  // flattened: 0-dim output unless kept
  }
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, keepdim, true);
  require_nonempty(plan, Op::kName);
  launch_reduce(a.call, Op::kName, a.self.dtype, a.self, a.out, plan);
}

void prod_kernel(const ops::prod::Args& a) {
  same_dtype(a.call, a.self, a.dim, a.keepdim, a.out, "prod");
}

/// all, any: the program of self's dtype, one byte per output (bool, or uint8 for uint8).
template <class Op>
void logical_kernel(const typename Op::Args& a) {
  if (a.out.dtype != KF_BOOL && a.out.dtype != KF_UINT8) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string(Op::kName) + ": the output is " +
                                                   short_name(a.out.dtype) +
                                                   ", expected bool or uint8");
  }
  bool reduced[kMaxDims];
  mark_reduced(a.dim ? a.dim->data : nullptr, a.dim ? a.dim->len : 0, a.self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, a.keepdim, false);
  const std::string kernel = std::string("logical_") + Op::kName;  // all/any: CL builtins
  launch_reduce(a.call, kernel.c_str(), a.self.dtype, a.self, a.out, plan);
}

/// var, std: the correction (1 unless given) as the kernels' `param`.
template <class Op>
void moments_kernel(const typename Op::Args& a) {
  const double correction = a.correction ? scalar_real(*a.correction) : 1.0;
  same_dtype(a.call, a.self, a.dim, a.keepdim, a.out, Op::kName, correction);
}

}  // namespace

kf_status_t register_reduce_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, sum, sum_kernel, kSumMask);
  KF_CLK_REGISTER(reg, mean, mean_kernel, kMeanMask);
  KF_CLK_REGISTER(reg, prod, prod_kernel, kProdMask);
  KF_CLK_REGISTER(reg, amax, extremum_kernel<ops::amax>, kAmaxMask);
  KF_CLK_REGISTER(reg, amin, extremum_kernel<ops::amin>, kAmaxMask);
  KF_CLK_REGISTER(reg, argmax, arg_kernel<ops::argmax>, kArgmaxMask);
  KF_CLK_REGISTER(reg, argmin, arg_kernel<ops::argmin>, kArgmaxMask);
  KF_CLK_REGISTER(reg, all, logical_kernel<ops::all>, kLogicalMask);
  KF_CLK_REGISTER(reg, any, logical_kernel<ops::any>, kLogicalMask);
  KF_CLK_REGISTER(reg, var, moments_kernel<ops::var>, kMomentsMask);
  KF_CLK_REGISTER(reg, std, moments_kernel<ops::std>, kMomentsMask);
  KF_CLK_REGISTER(reg, logsumexp, logsumexp_kernel, kMomentsMask);
  return KF_OK;
}

}  // namespace kf::clk
