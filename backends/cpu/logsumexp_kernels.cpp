// logsumexp_kernels.cpp — logsumexp (tag reduction) for the floating dtypes, over
// reduce_plan.hpp.
//
// Input and output share one floating dtype (meta reduce_logsumexp converts integer and bool
// inputs to float32). The result is log(sum(exp(x))) computed stably.
//
// Note [Logsumexp accumulation]
// The accumulator is (m, s, special): m the largest finite value seen (-inf when none), s the
// sum in double of exp(x - m) over the finite values, special the sum of the contributions of
// +inf (inf) and NaN (NaN); -inf contributes nothing. The result is special when it is not 0
// (inf or NaN, as PyTorch: +inf gives inf, NaN gives NaN), else -inf when no finite value was
// seen (an empty or all -inf reduction), else m + log(s). A contiguous run (Reducer::row) takes
// its maximum in a first vectorisable pass and then sums exp(x - max) in chunks (float32: the
// fused SIMD pass of simd_math.hpp, Note [SIMD rows]); the column
// schedule does the same two passes across a block of outputs (column_passes); single
// elements (strided runs, runs with an infinity or no finite value) update (m, s) online,
// rescaling s by exp(m_old - m_new) when a larger value comes; partials merge the same way.
#include <algorithm>
#include <cmath>
#include <limits>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "reducer_util.hpp"
#include "simd_math.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kLogsumexpMask = kAllFloatMask;
constexpr int kLanes = kReduceLanes;
constexpr int64_t kChunk = 256;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

struct Lse {
  double m;
  double s;
  double special;
};

/// s rescaled from shift `from` to shift `to` (>= from); 0 when nothing was summed.
inline double rescale(double s, double from, double to) {
  return from == kNegInf ? 0.0 : s * std::exp(from - to);
}

inline void merge(Lse& a, const Lse& b) {
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

/// The largest value of x[0, n) skipping NaN (inf included; -inf when none).
template <class T>
OpMath<T> run_max(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float>) return simd::max_f32(x, n);  // NaN or the max
  using M = OpMath<T>;
  M lane[kLanes];
  for (int k = 0; k < kLanes; ++k) lane[k] = -std::numeric_limits<M>::infinity();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) {
      const M v = load(x[i + k]);
      lane[k] = v > lane[k] ? v : lane[k];
    }
  }
  for (; i < n; ++i) {
    const M v = load(x[i]);
    lane[0] = v > lane[0] ? v : lane[0];
  }
  M acc = lane[0];
  for (int k = 1; k < kLanes; ++k) acc = lane[k] > acc ? lane[k] : acc;
  return acc;
}

/// The sum in double of exp(x - m) over x[0, n), a chunk of exponentials at a time.
template <class T>
double run_exp_sum(const T* x, int64_t n, OpMath<T> m) {
  if constexpr (std::is_same_v<T, float>) return simd::exp_shift_sum_f32(x, nullptr, n, m);
  using M = OpMath<T>;
  M buf[kChunk];
  double sum = 0;
  for (int64_t c = 0; c < n; c += kChunk) {
    const int64_t len = std::min(kChunk, n - c);
    for (int64_t i = 0; i < len; ++i) buf[i] = std::exp(load(x[c + i]) - m);
    double lane[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= len; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) lane[k] += static_cast<double>(buf[i + k]);
    }
    for (; i < len; ++i) lane[0] += static_cast<double>(buf[i]);
    for (int k = 0; k < kLanes; ++k) sum += lane[k];
  }
  return sum;
}

template <class T>
struct LogsumexpReducer {
  using Acc = Lse;
  Acc identity() const { return Acc{kNegInf, 0.0, 0.0}; }
  void step(Acc& acc, T v, int64_t) const {
    const double x = static_cast<double>(load(v));
    if (std::isfinite(x)) {
      merge(acc, Lse{x, 1.0, 0.0});
    } else if (x != kNegInf) {
      acc.special += x;  // +inf or NaN
    }
  }
  void row(Acc& acc, const char* p, int64_t s, int64_t n, int64_t pos) const {
    const T* x = reinterpret_cast<const T*>(p);
    const OpMath<T> m = s == static_cast<int64_t>(sizeof(T)) ? run_max(x, n)
                                                             : OpMath<T>(0);
    if (s != static_cast<int64_t>(sizeof(T)) || !std::isfinite(m)) {
      for (int64_t i = 0; i < n; ++i) step(acc, row_elem<T>(p, i, s), pos + i);
      return;  // strided, or no finite maximum / an infinity: the rare per-element path
    }
    const double sum = run_exp_sum(x, n, m);
    if (std::isnan(sum)) {
      acc.special += sum;  // a NaN in the run
      return;
    }
    merge(acc, Lse{static_cast<double>(m), sum, 0.0});
  }
  void combine(Acc& acc, const Acc& later) const { merge(acc, later); }
  /// The column schedule: per output the maximum m (NaN skipped), then the sum of
  /// exp(x - shift) with shift = m when finite, else 0. A NaN or +inf makes that sum NaN or
  /// inf (special); with m = -inf it is 0 (nothing finite: the identity).
  static constexpr bool kColumnPasses = true;
  template <class Walk>
  void column_passes(Acc* acc, int64_t w, Walk&& walk) const {
    using M = OpMath<T>;
    M shift[kColumnBlock];
    double sum[kColumnBlock] = {};
    for (int64_t j = 0; j < w; ++j) shift[j] = -std::numeric_limits<M>::infinity();
    walk([&](const T* x) {
      for (int64_t j = 0; j < w; ++j) {
        const M v = load(x[j]);
        shift[j] = v > shift[j] ? v : shift[j];
      }
    });
    for (int64_t j = 0; j < w; ++j) shift[j] = std::isfinite(shift[j]) ? shift[j] : M(0);
    walk([&](const T* x) {
      M buf[kColumnBlock];
      for (int64_t j = 0; j < w; ++j) buf[j] = std::exp(load(x[j]) - shift[j]);
      for (int64_t j = 0; j < w; ++j) sum[j] += static_cast<double>(buf[j]);
    });
    for (int64_t j = 0; j < w; ++j) {
      if (!std::isfinite(sum[j])) {
        acc[j] = Acc{kNegInf, 0.0, sum[j]};
      } else if (sum[j] != 0) {
        acc[j] = Acc{static_cast<double>(shift[j]), sum[j], 0.0};
      }  // else: no finite value, acc[j] stays the identity
    }
  }
  void store(char* out, const Acc& acc) const {
    double r;
    if (acc.special != 0 || std::isnan(acc.special)) {
      r = acc.special;
    } else if (acc.m == kNegInf) {
      r = kNegInf;
    } else {
      r = acc.m + std::log(acc.s);
    }
    *reinterpret_cast<T*>(out) = convert<T>(r);
  }
};

void logsumexp_kernel(const ops::logsumexp::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "logsumexp");
  check_ndim(a.self);
  bool reduced[KF_MAX_NDIM];
  mark_dims(a.dim.data, a.dim.len, a.self.ndim, reduced);
  dispatch<kLogsumexpMask>(a.out.dtype, "logsumexp", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ReducePlan p =
        make_reduce_plan(a.self, a.out, reduced, a.keepdim, sizeof(T), sizeof(T), true);
    run_reduce<T>(p, LogsumexpReducer<T>{}, a.self, a.out);
  });
}

}  // namespace

kf_status_t register_logsumexp_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, logsumexp, logsumexp_kernel, kLogsumexpMask);
  return KF_OK;
}

}  // namespace kf::cpu
