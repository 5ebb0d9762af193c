// norm.cu — fused layer_norm and rms_norm over contiguous rows: a group of threads per row (1, a
// warp or a block; reduce_plan.hpp's LineSchedule).
//
// As on the CPU (Note [Norm passes] in norm_kernels.cpp), each row is read twice and written
// once:
//  1. the statistics in double: layer_norm's mean and biased variance from the shifted sums of
//     Note [Moments accumulator] (group_reduce.cuh: no cancellation for a large mean), merged
//     across the group with Chan's update; rms_norm's mean of squares;
//  2. y = (x - mean) * rstd * w + b (rms_norm: x * rstd * w), rstd = 1 / sqrt(var + eps), in
//     the compute type (float for the 16-bit floats), rounded once into the output. A missing
//     weight is ones and a missing bias zeros.
// A NaN or inf in a row makes its statistics, and so the whole row, NaN (IEEE arithmetic).
#include <cmath>

#include "group_reduce.cuh"
#include "norm_launch.hpp"

namespace kf::cuda {
namespace {

/// The row's mean and variance (rms: 0 and the mean of squares), the same in every lane.
template <class T, bool Rms>
__device__ __forceinline__ void row_stats(const T* x, int64_t d, int64_t lane, int group,
                                          double& mean, double& var) {
  if constexpr (Rms) {
    double s = 0.0;
    for (int64_t j = lane; j < d; j += group) {
      const double v = static_cast<double>(value_of(x[j]));
      s += v * v;
    }
    s = group_allreduce(SumCombine{}, s, group);
    mean = 0.0;
    var = s / static_cast<double>(d);
  } else {
    Moments m = MomentsCombine{}.identity();
    for (int64_t j = lane; j < d; j += group) moments_add(m, static_cast<double>(value_of(x[j])));
    m = group_allreduce(MomentsCombine{}, m, group);
    mean = moments_mean(m);
    var = moments_m2(m) / static_cast<double>(d);
  }
}

template <class T, bool Rms>
__global__ void __launch_bounds__(kThreads) norm_rows(const NormLaunch l) {
  using M = compute_t<T>;
  const T* in = static_cast<const T*>(l.in);
  const T* w = static_cast<const T*>(l.weight);
  const T* b = static_cast<const T*>(l.bias);
  T* out = static_cast<T*>(l.out);
  const int group = l.sched.group;
  const int64_t lane = threadIdx.x % group;
  const int64_t step = grid_stride() / group;
  const int64_t d = l.d;
  for (int64_t row = global_thread() / group; row < l.rows; row += step) {  // uniform per group
    const T* x = in + row * d;
    T* y = out + row * d;
    double mean, var;
    row_stats<T, Rms>(x, d, lane, group, mean, var);
    const M shift = static_cast<M>(mean);
    const M scale = static_cast<M>(1.0 / sqrt(var + l.eps));
    for (int64_t j = lane; j < d; j += group) {
      const M wj = w != nullptr ? value_of(w[j]) : M(1);
      const M bj = b != nullptr ? value_of(b[j]) : M(0);
      y[j] = to_storage<T>((value_of(x[j]) - shift) * scale * wj + bj);
    }
  }
}

template <bool Rms>
void launch_typed(const NormLaunch& l, cudaStream_t stream) {
  (void)dispatch<kNormDtypes>(l.dtype, [&](auto tag) {
    norm_rows<typename decltype(tag)::type, Rms><<<l.sched.blocks, kThreads, 0, stream>>>(l);
  });
}

}  // namespace

void launch_norm(const NormLaunch& l, cudaStream_t stream) {
  if (l.rows == 0 || l.d == 0) return;
  if (l.rms) {
    launch_typed<true>(l, stream);
  } else {
    launch_typed<false>(l, stream);
  }
}

}  // namespace kf::cuda
