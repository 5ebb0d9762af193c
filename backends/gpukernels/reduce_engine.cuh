// reduce_engine.cuh — the two kernels every reduction of the GPU backends runs (reduce.cu,
// extremum.cu, moments.cu), over a ReducePlan and ReduceSchedule (reduce_plan.hpp):
//
//  pass 1: each (output, chunk) unit is reduced by a group of sched.group threads: lane t
//          steps through the chunk's elements t, t + group, ... in order, then the group's
//          accumulators meet in group_reduce's fixed tree. Unsplit outputs are finished and
//          stored; split ones leave their chunk's accumulator in scratch memory.
//  pass 2: (split outputs only) a warp per output combines its chunks' accumulators in chunk
//          order (lane c takes chunks c, c + 32, ... then the warp tree) and stores the result.
//
// Units are numbered with the output fastest, so with one thread per unit the threads of a warp
// take neighbouring outputs (coalesced reads for reductions over an outer dim). A reducer R is
// a small struct passed by value with device members:
//   using In, Acc, Out;                  input element, accumulator (trivially copyable, at most
//                                        kMaxAccBytes), output element
//   Acc identity() const;
//   void step(Acc&, In x, int64_t pos) const;   pos: the element's index in the reduced space
//   void combine(Acc& a, const Acc& b) const;   b: a later or concurrent part
//   Out finish(const Acc&) const;
#pragma once

#include "gpu_vendor.hpp"

#include "group_reduce.cuh"
#include "reduce_plan.hpp"

namespace kf::cuda {

/// Element offsets of output o (a flat index over the kept dims) in the input and the output.
__host__ __device__ __forceinline__ void kept_offsets(const ReducePlan& p, int64_t o,
                                                      int64_t& in_off, int64_t& out_off) {
  in_off = 0;
  out_off = 0;
  for (int d = 0; d < p.nk; ++d) {
    const int64_t i = o % p.k_shape[d];
    o /= p.k_shape[d];
    in_off += i * p.k_in[d];
    out_off += i * p.k_out[d];
  }
}

/// Input offset of reduced element j relative to its output's first element.
__host__ __device__ __forceinline__ int64_t reduced_offset(const ReducePlan& p, int64_t j) {
  int64_t off = 0;
  const int last = p.nr > 0 ? p.nr - 1 : 0;
  for (int d = 0; d < last; ++d) {
    const int64_t i = j % p.r_shape[d];
    j /= p.r_shape[d];
    off += i * p.r_in[d];
  }
  return off + j * p.r_in[last];
}

/// Lane `lane`'s share of elements [begin, end) of the output at `in`.
template <class R>
__device__ __forceinline__ typename R::Acc reduce_lane(const ReducePlan& p, const R& r,
                                                       const typename R::In* in, int64_t begin,
                                                       int64_t end, int64_t lane, int64_t group) {
  typename R::Acc acc = r.identity();
  if (p.nr <= 1) {
    const int64_t stride = p.r_in[0];
#pragma unroll 4
    for (int64_t j = begin + lane; j < end; j += group) r.step(acc, elem(in, j * stride), j);
  } else {
    for (int64_t j = begin + lane; j < end; j += group) {
      r.step(acc, elem(in, reduced_offset(p, j)), j);
    }
  }
  return acc;
}

template <class R>
__global__ void __launch_bounds__(kThreads)
    reduce_pass1(const __grid_constant__ ReducePlan p, const ReduceSchedule s, const R r,
                 const typename R::In* in, typename R::Out* out, typename R::Acc* partial) {
  const int64_t group = s.group;
  const int64_t lane = threadIdx.x % group;
  const int64_t units = p.numel_out * s.splits;
  const int64_t step = grid_stride() / group;
  for (int64_t u = global_thread() / group; u < units; u += step) {  // uniform over a group
    const int64_t o = u % p.numel_out, c = u / p.numel_out;
    int64_t in_off, out_off;
    kept_offsets(p, o, in_off, out_off);
    const int64_t begin = c * s.chunk;
    const int64_t end = begin + s.chunk < p.numel_red ? begin + s.chunk : p.numel_red;
    typename R::Acc acc = reduce_lane(p, r, in + in_off, begin, end, lane, group);
    acc = group_reduce(r, acc, s.group);
    if (lane != 0) continue;
    if (s.splits == 1) {
      out[out_off] = r.finish(acc);
    } else {
      partial[o * s.splits + c] = acc;
    }
  }
}

template <class R>
__global__ void __launch_bounds__(kThreads)
    reduce_pass2(const __grid_constant__ ReducePlan p, const int32_t splits, const R r,
                 const typename R::Acc* partial, typename R::Out* out) {
  const int lane = threadIdx.x % kWarpSize;
  const int64_t step = grid_stride() / kWarpSize;
  for (int64_t o = global_thread() / kWarpSize; o < p.numel_out; o += step) {
    typename R::Acc acc = r.identity();
    for (int64_t c = lane; c < splits; c += kWarpSize) r.combine(acc, partial[o * splits + c]);
    acc = group_reduce(r, acc, kWarpSize);
    if (lane == 0) {
      int64_t in_off, out_off;
      kept_offsets(p, o, in_off, out_off);
      out[out_off] = r.finish(acc);
    }
  }
}

/// Queues the reduction of launch `l` with reducer r on `stream` (nothing for an empty output).
template <class R>
void run_reduce(const ReduceLaunch& l, const R& r, cudaStream_t stream) {
  using Acc = typename R::Acc;
  static_assert(sizeof(Acc) <= kMaxAccBytes, "scratch is sized for kMaxAccBytes per partial");
  static_assert(std::is_trivially_copyable_v<R>, "reducers are kernel arguments");
  if (l.plan.numel_out == 0) return;
  const auto* in = static_cast<const typename R::In*>(l.in);
  auto* out = static_cast<typename R::Out*>(l.out);
  auto* partial = static_cast<Acc*>(l.partial);
  reduce_pass1<R><<<l.sched.blocks, kThreads, 0, stream>>>(l.plan, l.sched, r, in, out, partial);
  if (l.sched.splits > 1) {
    reduce_pass2<R><<<blocks_for(l.plan.numel_out * kWarpSize), kThreads, 0, stream>>>(
        l.plan, l.sched.splits, r, partial, out);
  }
}

}  // namespace kf::cuda
