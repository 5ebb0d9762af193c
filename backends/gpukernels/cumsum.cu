// cumsum.cu — cumsum along one dim: a scan per line by a group of threads (1, a warp or a
// block; reduce_plan.hpp's LineSchedule), the line's elements at any stride.
//
// As on the CPU (cumsum_kernels.cpp): integers add in wrapping arithmetic of (at least) their
// width, two's complement, so any order gives the CPU's exact result; floating types accumulate
// in double and round once per element. One thread walks its line in order (the CPU's sums to
// the bit); a group scans tiles of `group` elements (group_scan: warp shuffles, then the warps
// of a block in order) and carries each tile's total into the next, a fixed order too. Each
// element is read and written by the same thread, so the output may be the input itself.
#include "cumsum_launch.hpp"
#include "group_reduce.cuh"
#include "reduce_engine.cuh"

namespace kf::cuda {
namespace {

template <class T>
using CumAcc = std::conditional_t<is_floating_v<T>, double,
                                  std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>>;

template <class T>
__device__ __forceinline__ CumAcc<T> widen(T v) {
  if constexpr (is_floating_v<T>) {
    return static_cast<double>(value_of(v));
  } else {
    return static_cast<CumAcc<T>>(v);  // sign-extended, modulo 2^width
  }
}

template <class T>
__device__ __forceinline__ T narrow(CumAcc<T> acc) {
  if constexpr (is_floating_v<T>) {
    return to_storage<T>(acc);
  } else {
    return static_cast<T>(acc);
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    cumsum_lines(const __grid_constant__ LinePlan p, const int32_t group, const T* in, T* out) {
  using A = CumAcc<T>;
  const int64_t lane = threadIdx.x % group;
  const int64_t step = grid_stride() / group;
  const int64_t n = p.n, si = p.si, so = p.so;
  for (int64_t line = global_thread() / group; line < p.lines.numel_out; line += step) {
    int64_t in_off, out_off;
    kept_offsets(p.lines, line, in_off, out_off);
    const T* x = in + in_off;
    T* y = out + out_off;
    A carry = A(0);
    if (group == 1) {
      for (int64_t j = 0; j < n; ++j) {
        carry += widen(x[j * si]);
        y[j * so] = narrow<T>(carry);
      }
      continue;
    }
    for (int64_t base = 0; base < n; base += group) {  // uniform over the group
      const int64_t j = base + lane;
      const A v = j < n ? widen(x[j * si]) : A(0);
      A total;
      const A prefix = group_scan(v, group, total);
      if (j < n) y[j * so] = narrow<T>(carry + prefix);
      carry += total;
    }
  }
}

}  // namespace

void launch_cumsum(const LineLaunch& l, cudaStream_t stream) {
  if (l.plan.lines.numel_out == 0 || l.plan.n == 0) return;
  (void)dispatch<kCumsumDtypes>(l.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    cumsum_lines<T><<<l.sched.blocks, kThreads, 0, stream>>>(
        l.plan, l.sched.group, static_cast<const T*>(l.in), static_cast<T*>(l.out));
  });
}

}  // namespace kf::cuda
