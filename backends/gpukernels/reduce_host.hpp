// reduce_host.hpp — the host steps shared by the glue of the reductions (reduce_ops.cpp,
// extremum_ops.cpp, moments_ops.cpp) and of the row ops (softmax_ops.cpp, cumsum_ops.cpp);
// g++ only: the dims of an `int[]? dim` argument, the check of an input's dtype against the
// output's, and the launches of a planned reduction (with its schedule and scratch memory) and
// of a row op.
#pragma once

#include <optional>
#include <string>

#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "reduce_plan.hpp"

namespace kf::cuda {

/// Marks the reduced dims of an `int[]? dim` argument (None or empty: all dims).
inline void mark_optional_dims(const std::optional<kf::plugin::IntList>& dim, int32_t ndim,
                               bool* reduced) {
  mark_dims(dim ? dim->data : nullptr, dim ? dim->len : 0, ndim, reduced);
}

/// The core converts a reduction's input to the output's dtype first; anything else is a bug.
inline void require_same_dtype(const kf_tensor_view_t& self, const kf_tensor_view_t& out) {
  if (self.dtype == out.dtype) return;
  throw kf::plugin::KernelError(
      KF_INTERNAL, std::string("the input is ") + kf_dtype_string(self.dtype) +
                       " but the output " + kf_dtype_string(out.dtype) +
                       " (the core converts the input to the output's dtype first)");
}

/// Queues the reduction planned in `plan` of `self` into `out` with launch(l, stream): the
/// schedule for out's device, scratch for the partial results of split outputs (freed in
/// stream order), and the launch check naming `op`. Nothing runs for an empty output.
template <class Launch>
void launch_reduction(const kf_kernel_call_t& call, const ReducePlan& plan,
                      const kf_tensor_view_t& self, const kf_tensor_view_t& out, double param,
                      const char* op, Launch&& launch) {
  if (plan.numel_out == 0) return;
  KernelScope scope(call, out);
  ReduceLaunch l{};
  l.plan = plan;
  l.sched = schedule_reduce(plan, scope.device().multiprocessors);
  StreamScratch scratch(partial_bytes(plan, l.sched), scope.stream());
  l.in = self.data;
  l.out = out.data;
  l.partial = scratch.get();
  l.dtype = self.dtype;
  l.param = param;
  launch(l, scope.stream());
  scope.check(op);
}

/// Queues the row op of `self` along `dim` into `out` (same shape and dtype) with
/// launch(l, stream), checked as `op`. Nothing runs when there is no element.
template <class Launch>
void launch_line_op(const kf_kernel_call_t& call, const kf_tensor_view_t& self,
                    const kf_tensor_view_t& out, int64_t dim, const char* op, Launch&& launch) {
  require_same_dtype(self, out);
  LineLaunch l{};
  l.plan = make_line_plan(self, out, dim);
  if (l.plan.lines.numel_out == 0 || l.plan.n == 0) return;
  KernelScope scope(call, out);
  l.sched = schedule_lines(l.plan, scope.device().multiprocessors);
  l.in = self.data;
  l.out = out.data;
  l.dtype = self.dtype;
  launch(l, scope.stream());
  scope.check(op);
}

}  // namespace kf::cuda
