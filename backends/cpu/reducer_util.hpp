// reducer_util.hpp — small pieces shared by the reducers of reduce_plan.hpp that live outside
// reduce_kernels.cpp (prod/amin/argmin, var/std, all/any, logsumexp): element access of a
// strided row, the lane count of vectorisable loops, the dim marking of an optional int[]
// argument, and the drivers of the extremum (amax, amin) and index (argmax, argmin) reductions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "dtype_dispatch.hpp"
#include "element_read.hpp"
#include "elementwise.hpp"
#include "kernforge/plugin_ops.hpp"
#include "reduce_plan.hpp"

namespace kf::cpu {

constexpr int kReduceLanes = 8;  // independent accumulators over a contiguous row

/// Element i of a strided row (stride in bytes).
template <class T>
inline T row_elem(const char* p, int64_t i, int64_t stride) {
  return elem_at<T>(p, i, stride);  // a bool as its byte != 0 (Note [Bool bytes])
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

/// amax / amin: a same-dtype reduction of `self` over `dim` (empty: all) with reducer R<T>;
/// an empty reduced dim is refused (no identity).
template <uint32_t Mask, template <class> class R>
void extremum_reduce(const kf_tensor_view_t& self, const kf::plugin::IntList& dim, bool keepdim,
                     const kf_tensor_view_t& out, const char* op) {
  require_dtype(self, out.dtype, "self", op);
  check_ndim(self);
  bool reduced[KF_MAX_NDIM];
  mark_dims(dim.data, dim.len, self.ndim, reduced);
  dispatch<Mask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ReducePlan p = make_reduce_plan(self, out, reduced, keepdim, sizeof(T), sizeof(T), true);
    require_nonempty_reduction(p, op);
    run_reduce<T>(p, R<T>{}, self, out);
  });
}

/// argmax / argmin: the int64 index of reducer R<T>'s pick over `dim`, or over the flattened
/// tensor when None (then a 0-dim output unless keepdim); reduced dims keep their logical order,
/// so the position is the flattened index.
template <uint32_t Mask, template <class> class R>
void index_reduce(const kf_tensor_view_t& self, const std::optional<int64_t>& dim, bool keepdim,
                  const kf_tensor_view_t& out, const char* op) {
  require_dtype(out, KF_INT64, "out", op);
  check_ndim(self);
  bool reduced[KF_MAX_NDIM];
  if (dim) {
    const int64_t d = *dim;
    mark_dims(&d, 1, self.ndim, reduced);
  } else {
    mark_dims(nullptr, 0, self.ndim, reduced);
    keepdim = keepdim && out.ndim == self.ndim;
  }
  dispatch<Mask>(self.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ReducePlan p = make_reduce_plan(self, out, reduced, keepdim, sizeof(T), 8, false);
    require_nonempty_reduction(p, op);
    run_reduce<T>(p, R<T>{}, self, out);
  });
}

}  // namespace kf::cpu
