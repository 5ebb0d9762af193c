// Note [Views of negative stride]
// A slice with a negative step is a view whose strides are negative along the sliced dims, as
// numpy's a[::-1] is: its data is its element [0, ..., 0], and those dims walk down from there
// (the layout rules bound its reach below and above, tensor/layout.hpp). A kernel registered
// with KF_KERNEL_NEGATIVE_STRIDES gets such views as they are. Every other kernel (a plugin
// built before the flag, or one that hands strides to an engine that refuses them, as BLAS
// does) never sees a negative stride:
//   - an input is read from flip(v, S): S the dims of negative stride and v the same elements
//     with S's strides negated (a view whose strides are all >= 0), which flip copies back
//     into the input's order, contiguously;
//   - a written tensor (out=, or self of an in-place op) is computed into a temporary, which
//     is then written into it as copy_(v, flip(temporary, S)).
// flip's and copy_'s own kernels then read and write views of non-negative strides only, so the
// rule applies once per tensor and never recurses further.
#pragma once

#include "dispatch/call_args.hpp"

namespace kf {

/// Whether a tensor with elements has a negative stride (at any dim).
inline bool has_negative_stride(const TensorImpl& t) noexcept {
  int64_t any = 0;
  for (int32_t d = 0; d < t.ndim; ++d) any |= t.strides[d];
  return any < 0 && t.numel > 0;
}

/// A contiguous copy of `t` (which has a negative stride), made by flip: a new reference.
TensorImpl* without_negative_strides(TensorImpl& t);

/// Whether some written tensor of an Out or Inplace call has a negative stride.
bool writes_negative_strides(const CallArgs& a, CallMode mode, TensorImpl* const* given);

/// Runs `run` with every written tensor replaced by a temporary of non-negative strides (for
/// Inplace, a copy of self, which the op also reads), then writes each temporary into its
/// written tensor.
void run_into_temporaries(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                          TensorImpl** results, RunCall run);

}  // namespace kf
