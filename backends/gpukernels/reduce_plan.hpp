// reduce_plan.hpp — the layouts and launch shapes of the CUDA reductions and row ops, as plain
// structs that the host side (g++, reduce_plan.cpp) fills and the kernels (nvcc) take by value.
//
// A ReducePlan splits the input's dims into two layouts:
//  - kept dims: the output's index space; output o (a flat index over them, innermost first)
//    has its first input element at sum(idx_d * k_in[d]) and its own at sum(idx_d * k_out[d]);
//  - reduced dims: the elements of one output; reduced element j (a flat index, innermost
//    first) lies at input offset base + sum(idx_d * r_in[d]).
// Dims of size 1 are dropped and neighbours that step as one are merged, so a contiguous
// reduction has one reduced dim. The kept dims are sorted by input stride (adjacent outputs read
// adjacent memory where possible); the reduced dims are sorted the same way except for
// argmax/argmin, whose position j must be the flattened (row-major) index.
//
// A LinePlan (softmax, log_softmax, cumsum) is the keepdim reduction over one dim: its kept
// layout maps the lines, each of n elements at strides si (input) and so (output).
//
// Offsets and strides are in elements. Schedules (how many threads share an output, how many
// chunks an output is split into) depend only on the shapes and the device's multiprocessor
// count, so a computation runs the same way every time (deterministic results).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernforge/dtypes.hpp"
#include "kernforge/plugin.h"

namespace kf::cuda {

// The dtype masks of the registrations and of the kernels' instantiations are the SDK's
// (kernforge/dtypes.hpp): kFloatDtypes, kRealDtypes, kAllDtypes.

struct ReducePlan {
  int32_t nk;  // kept dims, innermost first
  int32_t nr;  // reduced dims, innermost first (0: one element per output, r_in[0] == 0)
  int64_t numel_out;
  int64_t numel_red;
  int64_t k_shape[KF_MAX_NDIM];
  int64_t k_in[KF_MAX_NDIM];
  int64_t k_out[KF_MAX_NDIM];
  int64_t r_shape[KF_MAX_NDIM];
  int64_t r_in[KF_MAX_NDIM];
};

/// How pass 1 of a reduction runs: `group` threads (1, a warp of 32 or a block of kThreads)
/// reduce one chunk of `chunk` elements of one output; each output has `splits` chunks. With
/// splits > 1 the chunks' partial results go to scratch memory and pass 2 combines them in
/// chunk order.
struct ReduceSchedule {
  int32_t group;
  int32_t splits;
  int64_t chunk;
  uint32_t blocks;  // of pass 1 (grid-stride: may be fewer than the work needs)
};

/// Threads per block of every reduction and row kernel (device_common.cuh's kThreads).
constexpr int32_t kRedThreads = 256;

/// The largest accumulator of any reducer (var's four doubles); scratch is sized by it.
constexpr size_t kMaxAccBytes = 32;

/// One reduction launch.
struct ReduceLaunch {
  ReducePlan plan;
  ReduceSchedule sched;
  const void* in;
  void* out;
  void* partial;  // numel_out * splits * kMaxAccBytes bytes when splits > 1, else unused
  int32_t dtype;  // the input's dtype
  double param;   // var/std: the correction
};

struct LinePlan {
  ReducePlan lines;  // the kept layout maps the lines; the reduced layout is unused
  int64_t n;         // elements per line
  int64_t si;        // their stride in the input
  int64_t so;        // ... and in the output
};

/// How a row op runs: `group` threads (1, 32 or kThreads) per line.
struct LineSchedule {
  int32_t group;
  uint32_t blocks;
};

/// One row-op launch (softmax, log_softmax, cumsum: input and output of dtype `dtype`).
struct LineLaunch {
  LinePlan plan;
  LineSchedule sched;
  const void* in;
  void* out;
  int32_t dtype;
};

// ------------------------------------------------------- host side (reduce_plan.cpp) --
// Errors throw kf::plugin::KernelError (the kernel trampoline names the op).

/// Marks the dims in dims[0, len) (negative dims wrap) in reduced[0, ndim); len == 0 marks all.
/// A dim out of range is KF_OUT_OF_RANGE.
void mark_dims(const int64_t* dims, int32_t len, int32_t ndim, bool* reduced);

/// The plan of reducing `in` over `reduced` into `out` (which has the reduced shape, with size-1
/// dims when keepdim). sort_reduced = false keeps the reduced dims in row-major order.
ReducePlan make_reduce_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out,
                            const bool* reduced, bool keepdim, bool sort_reduced);

/// The lines of `in` along `dim` into `out` of the same shape; a 0-dim tensor is one line of
/// one element.
LinePlan make_line_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out, int64_t dim);

/// The schedule of a reduction on a device with `multiprocessors` SMs (Note [Reduction
/// schedules] in reduce_plan.cpp).
ReduceSchedule schedule_reduce(const ReducePlan& p, int32_t multiprocessors);

/// Scratch bytes a launch with schedule `s` needs (0 without splits).
size_t partial_bytes(const ReducePlan& p, const ReduceSchedule& s);

/// The schedule of a row op over `rows` lines of `n` elements; `columns`: neighbouring lines
/// are closer in memory than neighbouring elements of a line.
LineSchedule schedule_rows(int64_t rows, int64_t n, bool columns, int32_t multiprocessors);

/// The schedule of a row op over the lines of `p`.
LineSchedule schedule_lines(const LinePlan& p, int32_t multiprocessors);

/// KF_INVALID_ARGUMENT naming `what` (e.g. "an input") when `dtype` is not in `mask`.
void require_dtype_in(uint32_t mask, int32_t dtype, const char* what);

}  // namespace kf::cuda
