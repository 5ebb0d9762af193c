// softmax.cu — softmax and log_softmax along one dim: a group of threads per line (1, a warp
// or a block; reduce_plan.hpp's LineSchedule), the line's elements at any stride.
//
// Each line is computed as on the CPU (Note [Softmax passes] in softmax_kernels.cpp), in three
// passes over its elements:
//  1. m = max(x) in the compute type (float for the 16-bit floats), skipping NaN;
//  2. s = the sum in double of e^(x - m), the exponential in the compute type;
//  3. softmax: y = e^(x - m) * (1 / s), the factor rounded to the compute type;
//     log_softmax: y = (x - m) - log(s), log(s) in double rounded to the compute type.
// Passes 1 and 2 end in group_allreduce (fixed order: the same bits every run). IEEE arithmetic
// then gives PyTorch's special values: a NaN or a +inf (inf - inf) makes its line NaN, a line
// of only -inf is NaN (-inf - -inf), a -inf beside finite values gives 0 (log_softmax: -inf);
// a 0-dim tensor is one line of one element (1, or 0 for log_softmax).
#include <cmath>
#include <limits>

#include "group_reduce.cuh"
#include "reduce_engine.cuh"
#include "softmax_launch.hpp"

namespace kf::cuda {
namespace {

template <class M>
struct MaxCombine {
  __device__ M identity() const { return -std::numeric_limits<M>::infinity(); }
  __device__ void combine(M& a, const M& b) const { a = b > a ? b : a; }  // NaN skipped
};

template <class T, bool Log>
__global__ void __launch_bounds__(kThreads)
    softmax_lines(const __grid_constant__ LinePlan p, const int32_t group, const T* in, T* out) {
  using M = compute_t<T>;
  const int64_t lane = threadIdx.x % group;
  const int64_t step = grid_stride() / group;
  const int64_t n = p.n, si = p.si, so = p.so;
  for (int64_t line = global_thread() / group; line < p.lines.numel_out; line += step) {
    int64_t in_off, out_off;
    kept_offsets(p.lines, line, in_off, out_off);
    const T* x = in + in_off;
    T* y = out + out_off;
    M m = MaxCombine<M>{}.identity();
    for (int64_t j = lane; j < n; j += group) {
      const M v = value_of(x[j * si]);
      m = v > m ? v : m;
    }
    m = group_allreduce(MaxCombine<M>{}, m, group);
    double s = 0.0;
    for (int64_t j = lane; j < n; j += group) {
      s += static_cast<double>(exp_of<M>(value_of(x[j * si]) - m));
    }
    s = group_allreduce(SumCombine{}, s, group);
    if constexpr (Log) {
      const M log_s = static_cast<M>(log(s));
      for (int64_t j = lane; j < n; j += group) {
        y[j * so] = to_storage<T>((value_of(x[j * si]) - m) - log_s);
      }
    } else {
      const M inv = static_cast<M>(1.0 / s);
      for (int64_t j = lane; j < n; j += group) {
        y[j * so] = to_storage<T>(exp_of<M>(value_of(x[j * si]) - m) * inv);
      }
    }
  }
}

template <bool Log>
void launch_typed(const LineLaunch& l, cudaStream_t stream) {
  (void)dispatch<kSoftmaxDtypes>(l.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    softmax_lines<T, Log><<<l.sched.blocks, kThreads, 0, stream>>>(
        l.plan, l.sched.group, static_cast<const T*>(l.in), static_cast<T*>(l.out));
  });
}

}  // namespace

void launch_softmax(bool log, const LineLaunch& l, cudaStream_t stream) {
  if (l.plan.lines.numel_out == 0 || l.plan.n == 0) return;
  if (log) {
    launch_typed<true>(l, stream);
  } else {
    launch_typed<false>(l, stream);
  }
}

}  // namespace kf::cuda
