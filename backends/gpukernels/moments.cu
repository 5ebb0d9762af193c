// moments.cu — the reducers of var, std and logsumexp over reduce_engine.cuh.
//
// var/std (as moments_kernels.cpp on the CPU): sum((x - mean)^2) / max(0, N - correction) in
// double from the shifted sums of Note [Moments accumulator] (group_reduce.cuh), std its square
// root; N - correction <= 0 gives inf, or NaN when the squares sum to 0 (N == 0, N == 1).
//
// logsumexp (as logsumexp_kernels.cpp, Note [Logsumexp accumulation] there): the accumulator is
// (m, s, special): m the largest finite value seen (-inf when none), s the sum in double of
// e^(x - m) over the finite values (the exponential in the compute type, float for float32 and
// the 16-bit floats), rescaled by e^(m_old - m_new) when a larger value comes; special sums the
// +inf (inf) and NaN (NaN) elements, -inf adds nothing. The result is special when it is not 0,
// else -inf when nothing finite was seen (an empty or all -inf reduction), else m + log(s).
#include <cmath>

#include "moments_launch.hpp"
#include "reduce_engine.cuh"

namespace kf::cuda {
namespace {

template <class T>
struct MomentsReducer : MomentsCombine {
  using In = T;
  using Acc = Moments;
  using Out = T;
  double correction;
  bool std_dev;
  __device__ void step(Acc& a, T x, int64_t) const {
    moments_add(a, static_cast<double>(value_of(x)));
  }
  __device__ T finish(const Acc& a) const {
    const double dof = fmax(0.0, a.n - correction);
    const double var = moments_m2(a) / dof;
    return to_storage<T>(std_dev ? sqrt(var) : var);
  }
};

constexpr double kNegInf = -__builtin_huge_val();

struct Lse {
  double m;
  double s;
  double special;
};

/// s summed around shift `from`, moved to shift `to` (>= from); 0 when nothing was summed.
__device__ __forceinline__ double rescale(double s, double from, double to) {
  return from == kNegInf ? 0.0 : s * exp(from - to);
}

template <class T>
struct LogsumexpReducer {
  using M = compute_t<T>;
  using In = T;
  using Acc = Lse;
  using Out = T;
  __device__ Acc identity() const { return Acc{kNegInf, 0.0, 0.0}; }
  __device__ void step(Acc& a, T x, int64_t) const {
    const M v = value_of(x);
    if (isfinite(v)) {
      const double vd = static_cast<double>(v);
      if (vd > a.m) {
        a.s = rescale(a.s, a.m, vd) + 1.0;
        a.m = vd;
      } else {
        a.s += static_cast<double>(exp_of<M>(v - static_cast<M>(a.m)));  // a.m is an M value
      }
    } else if (!(v < M(0))) {
      a.special += static_cast<double>(v);  // +inf or NaN (-inf adds nothing)
    }
  }
  __device__ void combine(Acc& a, const Acc& b) const {
    a.special += b.special;
    if (b.m == kNegInf) return;
    if (a.m == kNegInf) {
      a.m = b.m;
      a.s = b.s;
    } else if (b.m > a.m) {
      a.s = rescale(a.s, a.m, b.m) + b.s;
      a.m = b.m;
    } else {
      a.s += rescale(b.s, b.m, a.m);
    }
  }
  __device__ T finish(const Acc& a) const {
    double r;
    if (a.special != 0 || a.special != a.special) {
      r = a.special;
    } else if (a.m == kNegInf) {
      r = kNegInf;
    } else {
      r = a.m + log(a.s);
    }
    return to_storage<T>(r);
  }
};

}  // namespace

void launch_moments(MomentsOp op, const ReduceLaunch& l, cudaStream_t stream) {
  if (op == MomentsOp::Logsumexp) {
    (void)dispatch<kLogsumexpDtypes>(l.dtype, [&](auto tag) {
      run_reduce(l, LogsumexpReducer<typename decltype(tag)::type>{}, stream);
    });
    return;
  }
  (void)dispatch<kMomentsDtypes>(l.dtype, [&](auto tag) {
    MomentsReducer<typename decltype(tag)::type> r;
    r.correction = l.param;
    r.std_dev = op == MomentsOp::Std;
    run_reduce(l, r, stream);
  });
}

}  // namespace kf::cuda
