// extremum.cu — the reducers of amax, amin (the extreme value) and argmax, argmin (the first
// index of it) over reduce_engine.cuh, one reducer for both orders (a runtime flag).
//
// As on the CPU (extremum_reducers.hpp): values compare in the compute type (float for the
// 16-bit floats); NaN beats every value in both orders, so amax/amin propagate it and
// argmax/argmin return the index of the first NaN; ties return the first index. An argmax
// accumulator is (value, index); two of them combine by value, ties (and two NaNs) to the
// smaller index, which makes the combination independent of the order in which a group's
// threads and an output's chunks meet. Empty reductions never get here (refused by the host).
#include <limits>

#include "extremum_launch.hpp"
#include "reduce_engine.cuh"

namespace kf::cuda {
namespace {

/// x beats y in the order (max: greater; min: less), NaN beating any number.
template <class M>
__device__ __forceinline__ bool beats(bool max, M x, M y) {
  const bool strict = max ? x > y : x < y;
  if constexpr (std::is_floating_point_v<M>) {
    return strict || (x != x && y == y);
  } else {
    return strict;
  }
}

template <class T>
struct ExtremumReducer {
  using In = T;
  using Acc = compute_t<T>;
  using Out = T;
  bool max;
  __device__ Acc identity() const {
    using L = std::numeric_limits<Acc>;
    if constexpr (std::is_floating_point_v<Acc>) {
      return max ? -L::infinity() : L::infinity();
    } else {
      return max ? L::lowest() : L::max();
    }
  }
  __device__ void combine(Acc& a, const Acc& b) const {
    if (beats(max, b, a)) a = b;
  }
  __device__ void step(Acc& a, T x, int64_t) const { combine(a, value_of(x)); }
  __device__ T finish(const Acc& a) const { return to_storage<T>(a); }
};

template <class M>
struct ArgPick {
  M value;
  int64_t index;  // -1: nothing seen
};

template <class T>
struct ArgReducer {
  using M = compute_t<T>;
  using In = T;
  using Acc = ArgPick<M>;
  using Out = int64_t;
  bool max;
  __device__ Acc identity() const { return Acc{M(0), -1}; }
  __device__ void step(Acc& a, T x, int64_t pos) const {  // positions come in increasing order
    const M v = value_of(x);
    if (a.index < 0 || beats(max, v, a.value)) a = Acc{v, pos};
  }
  __device__ void combine(Acc& a, const Acc& b) const {
    if (b.index < 0) return;
    if (a.index < 0 || beats(max, b.value, a.value) ||
        (!beats(max, a.value, b.value) && b.index < a.index)) {
      a = b;
    }
  }
  __device__ int64_t finish(const Acc& a) const { return a.index < 0 ? 0 : a.index; }
};

}  // namespace

void launch_extremum(ExtremumOp op, const ReduceLaunch& l, cudaStream_t stream) {
  const bool max = op == ExtremumOp::Amax || op == ExtremumOp::Argmax;
  if (op == ExtremumOp::Amax || op == ExtremumOp::Amin) {
    (void)dispatch<kExtremumDtypes>(l.dtype, [&](auto tag) {
      run_reduce(l, ExtremumReducer<typename decltype(tag)::type>{max}, stream);
    });
    return;
  }
  (void)dispatch<kExtremumDtypes>(l.dtype, [&](auto tag) {
    run_reduce(l, ArgReducer<typename decltype(tag)::type>{max}, stream);
  });
}

}  // namespace kf::cuda
