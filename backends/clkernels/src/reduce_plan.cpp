// Note [Reduction work-group shapes]: reduce.cl gives each output ry work-items and packs ox
// outputs in a work-group (ox * ry <= kMaxGroup). Two kinds of device run that differently:
//  - GPUs run a work-group's items side by side: neighbouring items must read neighbouring
//    elements (coalescing), so item y takes positions y, y + ry, ... (chunk 1), up to
//    kMaxGroup items per output; when the outputs themselves are neighbours in memory (a sum
//    over dim 0 of a row-major matrix) kColumnWidth of them share a work-group, each of its
//    rows reading consecutive elements; short reductions pack several outputs in a group.
//  - CPU devices (PoCL) run a work-group's items one after another on one core and spread
//    work-groups over the cores, so more items per output add no parallelism: an item streams
//    through one contiguous chunk (reduce.cl keeps four accumulators there, for the core's
//    pipelines), and a work-group serves as many outputs as make about kCpuGroupWork elements
//    while leaving work-groups for every core. Only when there are too few outputs to spread
//    (kCpuSplitBelow) does each get a tree of items over contiguous chunks: it costs a few
//    barriers and sums in more, shorter pieces. Outputs that are neighbours in the input go to
//    the column-block kernels (Note [Column blocks] in reduce.cl), up to kCpuColumnGroup
//    blocks per work-group.
// The backend says which kind the device is (Capabilities::items_in_sequence: the opencl
// backend from CL_DEVICE_TYPE_CPU; xpu devices are GPUs);
// KERNFORGE_CLKERNELS_SCHEDULE=gpu|cpu overrides it (schedule.hpp; the CTS runs the GPU shapes
// on PoCL).
// The shape depends on the shapes, strides and capabilities only: the same call rounds the
// same way on every run.
#include "reduce_plan.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "kernforge/plugin.hpp"
#include "schedule.hpp"

namespace kf::clk {
namespace {

constexpr int64_t kMinPerItem = 16;       // positions per item before another item helps
constexpr size_t kColumnWidth = 32;       // outputs per work-group row, column reductions (GPU)
constexpr int64_t kCpuSplitBelow = 64;    // CPU: fewer outputs than this get a tree each
constexpr int64_t kCpuGroupWork = 65536;  // CPU: elements a work-group reduces, about
constexpr size_t kCpuColumnGroup = 16;    // CPU: column blocks per work-group, at most

size_t floor_pow2(int64_t n) {
  size_t p = 1;
  while (static_cast<int64_t>(p * 2) <= n) p *= 2;
  return p;
}

size_t ceil_pow2(int64_t n) {
  size_t p = 1;
  while (static_cast<int64_t>(p) < n) p *= 2;
  return p;
}

/// A view of `n` dims with the given shape and strides (the layout merger reads views).
kf_tensor_view_t dims_view(const int64_t* shape, const int64_t* strides, int32_t n) {
  kf_tensor_view_t v{};
  v.ndim = n;
  v.shape = shape;
  v.strides = strides;
  return v;
}

/// Reduced dims sorted by decreasing |stride| (stable), so the densest is innermost.
void sort_by_stride(int64_t* shape, int64_t* stride, int32_t n) {
  for (int32_t i = 1; i < n; ++i) {
    for (int32_t j = i; j > 0; --j) {
      const int64_t a = stride[j - 1] < 0 ? -stride[j - 1] : stride[j - 1];
      const int64_t b = stride[j] < 0 ? -stride[j] : stride[j];
      if (a >= b) break;
      std::swap(shape[j - 1], shape[j]);
      std::swap(stride[j - 1], stride[j]);
    }
  }
}

/// Splits `in`'s dims: kept ones with their output and input strides, reduced ones with their
/// input strides. Counts the outputs and reduced elements into `p`.
void split_dims(const kf_tensor_view_t& in, const kf_tensor_view_t& out, const bool* reduced,
                bool keepdim, int64_t (&k)[3][kMaxDims], int32_t& nk, int64_t (&r)[2][kMaxDims],
                int32_t& nr, ReducePlan& p) {
  nk = 0;
  nr = 0;
  int32_t od = 0;
  for (int32_t d = 0; d < in.ndim; ++d) {
    if (reduced[d]) {
      p.n_red *= in.shape[d];
      r[0][nr] = in.shape[d];
      r[1][nr++] = in.strides[d];
      if (keepdim) ++od;
      continue;
    }
    p.n_out *= in.shape[d];
    k[0][nk] = in.shape[d];
    k[1][nk] = out.strides[od++];
    k[2][nk++] = in.strides[d];
  }
}

void check_ranks(const kf_tensor_view_t& in, const kf_tensor_view_t& out, const bool* reduced,
                 bool keepdim) {
  if (in.ndim > kMaxDims || out.ndim > kMaxDims) {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                  "reductions take at most " + std::to_string(kMaxDims) +
                                      " dims; the input has " + std::to_string(in.ndim));
  }
  int32_t kept = 0;
  for (int32_t d = 0; d < in.ndim; ++d) kept += reduced[d] ? 0 : 1;
  const int32_t want = keepdim ? in.ndim : kept;
  if (out.ndim != want) {
    throw kf::plugin::KernelError(KF_INTERNAL, "reduction output has " +
                                                   std::to_string(out.ndim) + " dims, expected " +
                                                   std::to_string(want));
  }
}

/// GPUs: items side by side, neighbours reading neighbours (chunk 1).
ReduceShape gpu_shape(const ReducePlan& plan, size_t wg) {
  const ReduceLayout& l = plan.layout;
  const bool columns = l.kdim >= 1 && l.kin[l.kdim - 1] == 1 && plan.n_red > 1 &&
                       l.rin[l.rdim - 1] != 1;
  ReduceShape s;
  if (columns) {
    s.ox = std::min({wg, kColumnWidth, ceil_pow2(l.kshape[l.kdim - 1])});
    s.ry = std::min(wg / s.ox, floor_pow2(std::max<int64_t>(plan.n_red / kMinPerItem, 1)));
  } else {
    s.ry = std::min(wg, floor_pow2(plan.n_red));
    s.ox = std::min(wg / s.ry, ceil_pow2(plan.n_out));  // short reductions share a group
  }
  return s;
}

/// CPUs: items one after another, each through one contiguous chunk; work-groups spread over
/// the cores.
ReduceShape cpu_shape(const ReducePlan& plan, size_t wg) {
  const ReduceLayout& l = plan.layout;
  ReduceShape s;
  const int64_t n_red = std::max<int64_t>(plan.n_red, 1);
  if (l.kdim >= 1 && l.kin[l.kdim - 1] == 1 && l.rdim == 1 && l.rin[0] != 1 && n_red > 1) {
    s.column_blocks = true;
    const int64_t items = reduce_items(plan, s);
    s.ox = std::min(kCpuColumnGroup, floor_pow2(std::max<int64_t>(items / kCpuSplitBelow, 1)));
    return s;
  }
  if (plan.n_out < kCpuSplitBelow) {
    s.ry = std::min(wg, floor_pow2(n_red / kMinPerItem));
  } else {
    s.ox = std::min({wg, floor_pow2(std::max<int64_t>(kCpuGroupWork / n_red, 1)),
                     floor_pow2(std::max<int64_t>(plan.n_out / kCpuSplitBelow, 1))});
  }
  const int64_t ry = static_cast<int64_t>(s.ry);
  s.chunk = (n_red + ry - 1) / ry;
  return s;
}

}  // namespace

void mark_reduced(const int64_t* dims, int32_t len, int32_t ndim, bool* reduced) {
  if (ndim > kMaxDims) {
    throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                  "reductions take at most " + std::to_string(kMaxDims) +
                                      " dims; the input has " + std::to_string(ndim));
  }
  for (int32_t d = 0; d < kMaxDims; ++d) reduced[d] = len == 0 && d < ndim;
  for (int32_t i = 0; i < len; ++i) {
    int64_t d = dims[i];
    if (ndim == 0 && (d == 0 || d == -1)) continue;  // a 0-dim tensor accepts dim 0 / -1
    if (d < 0) d += ndim;
    if (d < 0 || d >= ndim) {
      throw kf::plugin::KernelError(KF_OUT_OF_RANGE, "dim " + std::to_string(dims[i]) +
                                                         " out of range for a tensor of " +
                                                         std::to_string(ndim) + " dims");
    }
    reduced[d] = true;
  }
}

ReducePlan make_reduce_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out,
                            const bool* reduced, bool keepdim, bool logical_order) {
  check_ranks(in, out, reduced, keepdim);
  ReducePlan p;
  std::memset(&p.layout, 0, sizeof p.layout);
  int64_t k[3][kMaxDims], r[2][kMaxDims];
  int32_t nk = 0, nr = 0;
  split_dims(in, out, reduced, keepdim, k, nk, r, nr, p);
  // Kept dims: operand 0 the output, 1 the input.
  const kf_tensor_view_t kv[2] = {dims_view(k[0], k[1], nk), dims_view(k[0], k[2], nk)};
  const kf_tensor_view_t* kp[2] = {&kv[0], &kv[1]};
  const KernelLayout kl = merged_layout(kp, 2, nullptr);
  p.layout.kdim = kl.ndim;
  for (int32_t d = 0; d < kl.ndim; ++d) {
    p.layout.kshape[d] = kl.shape[d];
    p.layout.kout[d] = kl.stride[0][d];
    p.layout.kin[d] = kl.stride[1][d];
  }
  if (!logical_order) sort_by_stride(r[0], r[1], nr);
  const kf_tensor_view_t rv = dims_view(r[0], r[1], nr);
  const kf_tensor_view_t* rp[1] = {&rv};
  const KernelLayout rl = merged_layout(rp, 1, nullptr);
  p.layout.rdim = std::max<int32_t>(rl.ndim, 1);
  p.layout.rshape[0] = 1;  // no reduced dim left: one position, stride 0
  for (int32_t d = 0; d < rl.ndim; ++d) {
    p.layout.rshape[d] = rl.shape[d];
    p.layout.rin[d] = rl.stride[0][d];
  }
  return p;
}

int64_t reduce_items(const ReducePlan& plan, const ReduceShape& shape) {
  return shape.column_blocks ? (plan.n_out + kColumnBlock - 1) / kColumnBlock : plan.n_out;
}

ReduceShape reduce_shape(const ReducePlan& plan, const Capabilities& caps) {
  const size_t wg = floor_pow2(static_cast<int64_t>(std::min(kMaxGroup, caps.max_work_group)));
  return items_run_in_sequence(caps) ? cpu_shape(plan, wg) : gpu_shape(plan, wg);
}

}  // namespace kf::clk
