// moments_kernels.cpp — var and std (tag reduction) for the floating dtypes, over
// reduce_plan.hpp.
//
// Input and output share self's floating dtype (meta reduce_var). The result is
// sum((x - mean)^2) / max(0, N - correction) (correction 1 unless given; a float correction
// is allowed), std its square root: N - correction <= 0 gives inf (or NaN when the squares sum
// to 0, e.g. N == 0 or N == 1), as PyTorch.
//
// Note [Moments accumulation]
// The accumulator is (count, mean, m2) in double. A contiguous run of the reduced space
// (Reducer::row) is done in two vectorisable passes, its mean and then the sum of squared
// deviations from it, which does not cancel the way sum(x^2) - N mean^2 does; runs, single
// elements and thread partials are merged with Chan et al.'s pairwise
// update: delta = mb - ma, mean = ma + delta nb / n, m2 = m2a + m2b + delta^2 na nb / n.
// The column schedule (outputs adjacent in memory) makes one pass over a block of outputs with
// shifted sums instead (column_passes). NaN and inf propagate to a NaN result, as PyTorch.
#include <cmath>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "reducer_util.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kMomentsMask = kAllFloatMask;
constexpr int kLanes = kReduceLanes;

struct Moments {
  double n;
  double mean;
  double m2;
};

/// b merged into a (Note [Moments accumulation]).
inline void merge(Moments& a, const Moments& b) {
  if (b.n == 0) return;
  if (a.n == 0) {
    a = b;
    return;
  }
  const double n = a.n + b.n;
  const double delta = b.mean - a.mean;
  a.mean += delta * (b.n / n);
  a.m2 += b.m2 + delta * delta * (a.n * b.n / n);
  a.n = n;
}

/// The moments of a contiguous run x[0, n), in two passes.
template <class T>
Moments run_moments(const T* x, int64_t n) {
  double lane[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) lane[k] += static_cast<double>(load(x[i + k]));
  }
  for (; i < n; ++i) lane[0] += static_cast<double>(load(x[i]));
  double sum = 0;
  for (int k = 0; k < kLanes; ++k) sum += lane[k];
  const double mean = sum / static_cast<double>(n);
  double sq[kLanes] = {};
  i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) {
      const double d = static_cast<double>(load(x[i + k])) - mean;
      sq[k] += d * d;
    }
  }
  for (; i < n; ++i) {
    const double d = static_cast<double>(load(x[i])) - mean;
    sq[0] += d * d;
  }
  double m2 = 0;
  for (int k = 0; k < kLanes; ++k) m2 += sq[k];
  return Moments{static_cast<double>(n), mean, m2};
}

template <class T, bool Std>
struct MomentsReducer {
  using Acc = Moments;
  double correction = 1;
  Acc identity() const { return Acc{0, 0, 0}; }
  void step(Acc& acc, T v, int64_t) const {  // Welford's update
    const double x = static_cast<double>(load(v));
    acc.n += 1;
    const double delta = x - acc.mean;
    acc.mean += delta / acc.n;
    acc.m2 += delta * (x - acc.mean);
  }
  void row(Acc& acc, const char* p, int64_t s, int64_t n, int64_t pos) const {
    if (n <= 0) return;
    if (s != static_cast<int64_t>(sizeof(T))) {
      for (int64_t i = 0; i < n; ++i) step(acc, row_elem<T>(p, i, s), pos + i);
      return;
    }
    merge(acc, run_moments(reinterpret_cast<const T*>(p), n));
  }
  void combine(Acc& acc, const Acc& later) const { merge(acc, later); }
  /// The column schedule, in one vectorisable pass: sums of d = x - k and of d^2 with k each
  /// output's first element (shifted data: no cancellation while k is near the mean, which
  /// a sample of the data is), m2 = sum(d^2) - sum(d)^2 / n, in double.
  static constexpr bool kColumnPasses = true;
  template <class Walk>
  void column_passes(Acc* acc, int64_t w, Walk&& walk) const {
    double k[kColumnBlock], s1[kColumnBlock] = {}, s2[kColumnBlock] = {};
    double count = 0;
    walk([&](const T* x) {
      if (count == 0) {
        for (int64_t j = 0; j < w; ++j) k[j] = static_cast<double>(load(x[j]));
      }
      for (int64_t j = 0; j < w; ++j) {
        const double d = static_cast<double>(load(x[j])) - k[j];
        s1[j] += d;
        s2[j] += d * d;
      }
      count += 1;
    });
    for (int64_t j = 0; j < w; ++j) {
      const double mean_d = s1[j] / count;
      acc[j] = Acc{count, k[j] + mean_d, std::max(0.0, s2[j] - s1[j] * mean_d)};
    }
  }
  void store(char* out, const Acc& acc) const {
    const double dof = std::max(0.0, acc.n - correction);
    const double var = acc.m2 / dof;
    *reinterpret_cast<T*>(out) = convert<T>(Std ? std::sqrt(var) : var);
  }
};

double correction_of(const std::optional<kf_scalar_t>& c) {
  return c ? scalar_to<double>(*c) : 1.0;
}

template <bool Std, class Args>
void moments_kernel(const Args& a, const char* op) {
  require_dtype(a.self, a.out.dtype, "self", op);
  check_ndim(a.self);
  bool reduced[KF_MAX_NDIM];
  mark_optional_dims(a.dim, a.self.ndim, reduced);
  dispatch<kMomentsMask>(a.out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ReducePlan p =
        make_reduce_plan(a.self, a.out, reduced, a.keepdim, sizeof(T), sizeof(T), true);
    MomentsReducer<T, Std> r;
    r.correction = correction_of(a.correction);
    run_reduce<T>(p, r, a.self, a.out);
  });
}

void var_kernel(const ops::var::Args& a) { moments_kernel<false>(a, "var"); }
void std_kernel(const ops::std::Args& a) { moments_kernel<true>(a, "std"); }

}  // namespace

kf_status_t register_moments_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, var, var_kernel, kMomentsMask);
  KF_CPU_KERNEL(reg, std, std_kernel, kMomentsMask);
  return KF_OK;
}

}  // namespace kf::cpu
