// sum, mean, amax, argmax (kernels/reduce.cl), with the CPU backend's semantics and dtype sets:
// sum/mean/amax get their input already converted to the output dtype (the meta's dtype=
// and integer promotion), argmax gets the input in its own dtype and writes int64; an empty
// reduction is 0 for sum and NaN for mean, and refused for amax/argmax.
#include <cstdio>
#include <optional>
#include <string>

#include "ops.hpp"
#include "reduce_plan.hpp"
#include "run.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kSumMask = kNumericMask;
constexpr uint32_t kMeanMask = kFloatMask;
constexpr uint32_t kAmaxMask = kAllMask;
constexpr uint32_t kArgmaxMask = kAllMask;

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

/// Launches reduce.cl's `kernel` (program: the family built for `dtype`) over `plan`.
void launch_reduce(const kf_kernel_call_t& call, const char* kernel, int32_t dtype,
                   const kf_tensor_view_t& in, const kf_tensor_view_t& out,
                   const ReducePlan& plan) {
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
  launch.dims = shape.column_blocks ? 1 : 2;
  launch.local[0] = shape.ox;
  launch.local[1] = shape.ry;
  launch.global[0] = groups * shape.ox;
  launch.global[1] = shape.ry;
  run(call, device, launch);
}

void sum_mean(const kf_kernel_call_t& call, const kf_tensor_view_t& self,
              const std::optional<kf::plugin::IntList>& dim, bool keepdim,
              const kf_tensor_view_t& out, const char* op) {
  require_dtype(self, out.dtype, "self", op);
  bool reduced[kMaxDims];
  mark_reduced(dim ? dim->data : nullptr, dim ? dim->len : 0, self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(self, out, reduced, keepdim, false);
  launch_reduce(call, op, out.dtype, self, out, plan);
}

void sum_kernel(const ops::sum::Args& a) {
  sum_mean(a.call, a.self, a.dim, a.keepdim, a.out, "sum");
}
void mean_kernel(const ops::mean::Args& a) {
  sum_mean(a.call, a.self, a.dim, a.keepdim, a.out, "mean");
}

void amax_kernel(const ops::amax::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "amax");
  bool reduced[kMaxDims];
  mark_reduced(a.dim.data, a.dim.len, a.self.ndim, reduced);
  const ReducePlan plan = make_reduce_plan(a.self, a.out, reduced, a.keepdim, false);
  require_nonempty(plan, "amax");
  launch_reduce(a.call, "amax", a.out.dtype, a.self, a.out, plan);
}

/// argmax counts positions in the row-major order of the reduced dims (the flattened tensor
/// when dim is None), so they keep their logical order.
void argmax_kernel(const ops::argmax::Args& a) {
  require_dtype(a.out, KF_INT64, "out", "argmax");
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
  require_nonempty(plan, "argmax");
  launch_reduce(a.call, "argmax", a.self.dtype, a.self, a.out, plan);
}

}  // namespace

kf_status_t register_reduce_ops(const kf_registrar_t* reg, uint32_t mask) {
  KF_CLK_REGISTER(reg, sum, sum_kernel, kSumMask);
  KF_CLK_REGISTER(reg, mean, mean_kernel, kMeanMask);
  KF_CLK_REGISTER(reg, amax, amax_kernel, kAmaxMask);
  KF_CLK_REGISTER(reg, argmax, argmax_kernel, kArgmaxMask);
  return KF_OK;
}

}  // namespace kf::clk
