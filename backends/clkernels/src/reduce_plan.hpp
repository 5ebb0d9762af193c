// reduce_plan.hpp — how a reduction (sum, mean, amax, argmax) is laid out for kernels/reduce.cl:
// the input's dims split into kept dims (one output each) and reduced dims, each side merged
// where memory allows (layout.hpp), and the work-group shape that reduces them.
//
// Plain values built per call on the caller's thread; nothing is shared.
#pragma once

#include <cstddef>
#include <cstdint>

#include "clkernels/device.hpp"
#include "kernforge/plugin.h"
#include "layout.hpp"

namespace kf::clk {

/// The bytes of kf_reduce_layout in kernels/reduce.cl.
struct ReduceLayout {
  int64_t kshape[kMaxDims];  // kept dims, row-major (output number o decodes in them)
  int64_t kout[kMaxDims];    // their strides in the output (elements)
  int64_t kin[kMaxDims];     // their strides in the input
  int64_t rshape[kMaxDims];  // reduced dims, row-major (reduced position r decodes in them)
  int64_t rin[kMaxDims];     // their strides in the input
  int32_t kdim;              // 0: a single output
  int32_t rdim;              // >= 1 (a lone reduced dim of size 1 and stride 0 when none)
};
static_assert(sizeof(ReduceLayout) == 8 * kMaxDims * 5 + 8,
              "ReduceLayout must have the bytes of kf_reduce_layout");

struct ReducePlan {
  ReduceLayout layout;
  int64_t n_out = 1;  // outputs (the product of the kept dims)
  int64_t n_red = 1;  // reduced elements per output (0 for an empty reduction)
};

/// Marks the dims in `dims` (negative ones wrap; none = all) in `reduced` (kMaxDims entries),
/// as the CPU backend does: a 0-dim tensor accepts dim 0 and -1. Throws KernelError
/// (KF_OUT_OF_RANGE) for a dim out of range, KF_INVALID_ARGUMENT for more than kMaxDims dims.
void mark_reduced(const int64_t* dims, int32_t len, int32_t ndim, bool* reduced);

/// The plan of reducing `in` over `reduced` into `out`, whose dims are the kept ones (and a
/// size-1 dim per reduced one when keepdim). `logical_order` keeps the reduced dims in the
/// input's row-major order (argmax counts positions in it); otherwise they are sorted by
/// decreasing stride first, so the innermost reduced dim is the densest. Throws KernelError
/// (KF_INVALID_ARGUMENT, KF_INTERNAL) for more than kMaxDims dims or an output of the wrong rank.
ReducePlan make_reduce_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out,
                            const bool* reduced, bool keepdim, bool logical_order);

/// The work-group of reduce.cl's kernels: ox outputs x ry work-items per output, each item
/// reducing blocks of `chunk` consecutive positions (Note [Deterministic work-group trees]).
/// `column_blocks`: the <op>_columns kernel instead (CPU devices, outputs that are neighbours
/// in the input): each item reduces kColumnBlock outputs at once, ox items per work-group.
struct ReduceShape {
  size_t ox = 1;
  size_t ry = 1;
  int64_t chunk = 1;
  bool column_blocks = false;
};

constexpr size_t kMaxGroup = 256;       // KF_RED_WG in reduce.cl
constexpr int64_t kColumnBlock = 128;   // KF_COLS in reduce.cl

/// The work-items a launch of `shape` over `plan` needs in dim 0 (outputs, or blocks of them).
int64_t reduce_items(const ReducePlan& plan, const ReduceShape& shape);

/// The work-group shape for `plan` on a device with `caps`: a function of the shapes, strides
/// and capabilities only, so a reduction's float rounding is the same on every run.
ReduceShape reduce_shape(const ReducePlan& plan, const Capabilities& caps);

}  // namespace kf::clk
