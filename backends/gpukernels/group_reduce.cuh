// group_reduce.cuh — how the threads that share one output or one line cooperate in the
// reduction and row kernels. A "group" is 1 thread, one warp (32) or one whole block (kThreads)
// and always lies within one block; its lane is threadIdx.x % group.
//
//   group_reduce(c, acc, group)     a fixed tree of c.combine(acc, later) over the group's
//                                   accumulators (warp shuffles, then shared memory across the
//                                   warps of a block); the result is in lane 0
//   group_allreduce(c, acc, group)  the same, the result in every lane
//   group_scan(v, group, total)     inclusive prefix sums over the lanes, in lane order
//
// The order of every combination depends only on the lane numbers, so results are the same
// bits on every run (no atomics). A block group calls __syncthreads: every thread of the block
// must make the same calls (the kernels' loops are uniform over a group). Accumulators are
// trivially copyable structs (shuffled 32 bits at a time).
#pragma once

#include <cstring>
#include <type_traits>

#include "device_common.cuh"
#include "reduce_plan.hpp"

namespace kf::cuda {

static_assert(kRedThreads == kThreads, "reduce_plan.hpp's block size must be kThreads");

// The width of a "warp" group: 32 lanes on both vendors. CUDA's warp is 32; AMD's wavefront is
// 64 on CDNA (32 on RDNA), and its shuffles (KF_GPU_SHFL*, gpu_vendor.hpp) are confined to
// 32-lane halves, so the groups, the lanes and the host's plan (reduce_plan.cpp) are the same.
constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = kThreads / kWarpSize;

/// `a` of the lane `delta` above (its own value past the warp's end). Arithmetic values go
/// through the intrinsic (narrow ones widened to int), structs 32 bits at a time.
template <class A>
__device__ __forceinline__ A shfl_down_value(const A& a, unsigned delta) {
  static_assert(std::is_trivially_copyable_v<A>, "accumulators are shuffled as raw words");
  if constexpr (std::is_arithmetic_v<A> && sizeof(A) >= 4) {
    return KF_GPU_SHFL_DOWN(a, delta);
  } else if constexpr (std::is_arithmetic_v<A>) {
    return static_cast<A>(KF_GPU_SHFL_DOWN(static_cast<int>(a), delta));
  } else {
    constexpr int kWords = (sizeof(A) + 3) / 4;
    unsigned w[kWords] = {};
    memcpy(w, &a, sizeof(A));
#pragma unroll
    for (int k = 0; k < kWords; ++k) w[k] = KF_GPU_SHFL_DOWN(w[k], delta);
    A r;
    memcpy(&r, w, sizeof(A));
    return r;
  }
}

/// `a` of lane `src` of this warp.
template <class A>
__device__ __forceinline__ A shfl_value(const A& a, int src) {
  if constexpr (std::is_arithmetic_v<A> && sizeof(A) >= 4) {
    return KF_GPU_SHFL(a, src);
  } else if constexpr (std::is_arithmetic_v<A>) {
    return static_cast<A>(KF_GPU_SHFL(static_cast<int>(a), src));
  } else {
    constexpr int kWords = (sizeof(A) + 3) / 4;
    unsigned w[kWords] = {};
    memcpy(w, &a, sizeof(A));
#pragma unroll
    for (int k = 0; k < kWords; ++k) w[k] = KF_GPU_SHFL(w[k], src);
    A r;
    memcpy(&r, w, sizeof(A));
    return r;
  }
}

/// Tree over the 32 lanes of a warp: lane 0 gets combine(...(a0, a1)...) in a fixed order.
template <class C, class A>
__device__ __forceinline__ A warp_reduce(const C& c, A acc) {
#pragma unroll
  for (int off = kWarpSize / 2; off > 0; off >>= 1) {
    const A other = shfl_down_value(acc, static_cast<unsigned>(off));
    c.combine(acc, other);
  }
  return acc;
}

/// The group's accumulators combined; valid in lane 0 (Note at the top of the file).
template <class C, class A>
__device__ A group_reduce(const C& c, A acc, int group) {
  if (group == 1) return acc;
  acc = warp_reduce(c, acc);
  if (group == kWarpSize) return acc;
  __shared__ __align__(16) unsigned char raw[kWarpsPerBlock * sizeof(A)];
  A* part = reinterpret_cast<A*>(raw);
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  if (lane == 0) part[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = lane < kWarpsPerBlock ? part[lane] : c.identity();
#pragma unroll
    for (int off = kWarpsPerBlock / 2; off > 0; off >>= 1) {
      const A other = shfl_down_value(acc, static_cast<unsigned>(off));
      c.combine(acc, other);
    }
  }
  __syncthreads();  // part is free for the next call
  return acc;
}

/// Lane 0's `v` in every lane of the group.
template <class A>
__device__ A group_broadcast(A v, int group) {
  if (group == 1) return v;
  if (group == kWarpSize) return shfl_value(v, 0);
  __shared__ __align__(16) unsigned char raw[sizeof(A)];
  A* slot = reinterpret_cast<A*>(raw);
  if (threadIdx.x == 0) *slot = v;
  __syncthreads();
  v = *slot;
  __syncthreads();
  return v;
}

template <class C, class A>
__device__ A group_allreduce(const C& c, A acc, int group) {
  return group_broadcast(group_reduce(c, acc, group), group);
}

/// Inclusive prefix sums of `v` over the group's lanes in lane order (A: double or an unsigned
/// integer, which wraps); `total` gets the sum of all lanes, the same in every lane.
template <class A>
__device__ A group_scan(A v, int group, A& total) {
  if (group == 1) {
    total = v;
    return v;
  }
  const int lane = threadIdx.x % kWarpSize;
#pragma unroll
  for (int off = 1; off < kWarpSize; off <<= 1) {
    const A t = KF_GPU_SHFL_UP(v, off);
    if (lane >= off) v += t;
  }
  if (group == kWarpSize) {
    total = KF_GPU_SHFL(v, kWarpSize - 1);
    return v;
  }
  __shared__ A warp_total[kWarpsPerBlock];
  const int warp = threadIdx.x / kWarpSize;
  if (lane == kWarpSize - 1) warp_total[warp] = v;
  __syncthreads();
  A before = A(0), all = A(0);  // the same sums in the same order in every thread
#pragma unroll
  for (int w = 0; w < kWarpsPerBlock; ++w) {
    if (w == warp) before = all;
    all += warp_total[w];
  }
  __syncthreads();  // warp_total is free for the next call
  total = all;
  return before + v;
}

/// The sum of doubles (softmax's and rms_norm's statistics).
struct SumCombine {
  __device__ double identity() const { return 0.0; }
  __device__ void combine(double& a, const double& b) const { a += b; }
};

/// An element as its compute type (load() of one value).
template <class T>
__device__ __forceinline__ compute_t<T> value_of(T v) {
  return load(&v, 0);
}

template <class M>
__device__ __forceinline__ M exp_of(M x) {
  if constexpr (std::is_same_v<M, float>) {
    return expf(x);
  } else {
    return exp(x);
  }
}

// --------------------------------------------------------------------- moments --

/// Note [Moments accumulator]
/// The count, mean and sum of squared deviations of a set of values, kept in double as
/// shifted sums around k, the first value seen: s1 = sum(x - k), s2 = sum((x - k)^2), so that
/// mean = k + s1 / n and m2 = s2 - s1^2 / n without the cancellation of sum(x^2) - n mean^2
/// (k is one of the values, so near the mean on the scale of the spread). Two sets merge with
/// Chan et al.'s update (delta = mean_b - mean_a, m2 = m2_a + m2_b + delta^2 n_a n_b / n), the
/// result re-centred (k = mean, s1 = 0, s2 = m2). NaN and inf make the mean or m2 NaN, as on
/// the CPU.
struct Moments {
  double n, k, s1, s2;
};

__device__ __forceinline__ void moments_add(Moments& a, double x) {
  if (a.n == 0) a.k = x;
  const double d = x - a.k;
  a.n += 1;
  a.s1 += d;
  a.s2 += d * d;
}

__device__ __forceinline__ double moments_mean(const Moments& a) {
  return a.n == 0 ? 0.0 : a.k + a.s1 / a.n;
}

__device__ __forceinline__ double moments_m2(const Moments& a) {
  if (a.n == 0) return 0.0;
  const double m2 = a.s2 - a.s1 * (a.s1 / a.n);
  return m2 < 0 ? 0.0 : m2;  // rounding; a NaN stays
}

struct MomentsCombine {
  __device__ Moments identity() const { return Moments{0, 0, 0, 0}; }
  __device__ void combine(Moments& a, const Moments& b) const {
    if (b.n == 0) return;
    if (a.n == 0) {
      a = b;
      return;
    }
    const double ma = moments_mean(a), mb = moments_mean(b);
    const double n = a.n + b.n, delta = mb - ma;
    const double m2 = moments_m2(a) + moments_m2(b) + delta * delta * (a.n * (b.n / n));
    a = Moments{n, ma + delta * (b.n / n), 0.0, m2};
  }
};

}  // namespace kf::cuda
