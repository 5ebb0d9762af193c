// layout.hpp — the strided layout a kernel gets (kf_layout in kernels/common.clh), built from
// the views of one call with their dimensions merged where memory allows.
#pragma once

#include <cstdint>

#include "kernforge/plugin.h"

namespace kf::clk {

constexpr int32_t kMaxDims = 16;     // KF_MAX_DIMS in common.clh (KF_MAX_NDIM)
constexpr int32_t kMaxOperands = 4;  // KF_MAX_OPERANDS

/// The bytes of kf_layout: one shape, each operand's element strides in it.
struct KernelLayout {
  int64_t shape[kMaxDims];
  int64_t stride[kMaxOperands][kMaxDims];
  int32_t ndim;
  int32_t pad;
};
static_assert(sizeof(KernelLayout) == 8 * kMaxDims * (1 + kMaxOperands) + 8,
              "KernelLayout must have the bytes of kf_layout");

/// The layout of `n` views that all have the shape of views[0] (elementwise operands, already
/// broadcast): size-1 dimensions dropped, neighbours merged where every operand's strides let
/// them. `contiguous` is set when every operand is dense row-major in that shape.
KernelLayout merged_layout(const kf_tensor_view_t* const* views, int32_t n, bool* contiguous);

}  // namespace kf::clk
