// reducer_util.hpp — small pieces shared by the reducers of reduce_plan.hpp that live outside
// reduce_kernels.cpp (prod/amin/argmin, var/std, all/any, logsumexp): element access of a
// strided row, the lane count of vectorisable loops, and the dim marking of an optional
// int[] argument.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kernforge/plugin_ops.hpp"

#include "reduce_plan.hpp"

namespace kf::cpu {

constexpr int kReduceLanes = 8;  // independent accumulators over a contiguous row

/// Element i of a strided row (stride in bytes).
template <class T>
inline T row_elem(const char* p, int64_t i, int64_t stride) {
  return *reinterpret_cast<const T*>(p + i * stride);
}

/// Marks the reduced dims of an `int[]? dim` argument (None or empty: all dims).
inline void mark_optional_dims(const std::optional<kf::plugin::IntList>& dim, int ndim,
                               bool* reduced) {
  mark_dims(dim ? dim->data : nullptr, dim ? dim->len : 0, ndim, reduced);
}

/// Refuses a reduction over an empty dim for ops without an identity (amin, argmin).
inline void require_nonempty_reduction(const ReducePlan& p, const char* op) {
  if (p.numel_red == 0 && p.numel_out > 0) {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                  std::string(op) + ": cannot reduce over an empty dimension");
  }
}

}  // namespace kf::cpu
