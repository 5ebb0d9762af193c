// softmax_kernels.cpp — softmax and log_softmax along one dim for float32, float64, float16
// and bfloat16.
//
// The core hands over the input already converted to the output's dtype (the meta's
// convert_mask), so input and output share one floating dtype; the output has the input's
// shape. A "row" is the 1-D line along dim through one index of the other dims; the rows are
// the outputs of a keepdim reduction over dim, so reduce_plan.hpp maps them (kept_offsets).
//
// Note [Softmax passes]
// Each row is computed as PyTorch does, stably: m = max(x), s = sum(e^(x - m)),
// y = e^(x - m) / s. That is two reading passes and the write:
//  1. the maximum, in the compute type (float for the 16-bit floats), skipping NaN;
//  2. e^(x - m) in the compute type, summed in double (as the sums of reduce_kernels.cpp;
//     a contiguous float32 row in float over blocks of 256, Note [SIMD rows] in simd_math.cpp);
//     float32 and float64 store each e^(x - m) into the output already, in its own dtype, so
//  3. only scales the output by 1/s (float32 in float, float64 in double). The 16-bit floats would round
//     e^(x - m) twice that way, so their pass 3 computes it again from the input instead.
// IEEE arithmetic then gives PyTorch's special cases: a NaN x makes e^(x - m), s and so the
// whole row NaN; +inf gives inf - inf = NaN and so a NaN sum and a NaN row; a row of only -inf
// has m = -inf and -inf - -inf = NaN, a NaN row; a -inf beside finite values gives e^-inf = 0.
// A 0-dim tensor is one row of one element (1, or NaN for an infinite or NaN value).
//
// log_softmax (Log = true in the templates below) shares the plan, the schedules and passes
// 1 and 2, but pass 2 stores nothing and pass 3 writes y = (x - m) - log(s), with x - m in the
// compute type and log(s) in double; the same IEEE special cases follow (a NaN, a +inf or a
// row of only -inf gives a NaN row; a -inf beside finite values gives -inf). A 0-dim tensor
// gives 0 (or NaN for an infinite or NaN value).
//
// Schedules (run_softmax): rows split over threads (parallel.hpp); rows that lie next to each
// other in memory (softmax over a non-innermost dim of a contiguous tensor) in blocks of up to
// kBlock, each pass walking dim once for the whole block so that it reads whole cache lines;
// and few long rows, each split over the threads (partial maxima and sums combined in thread
// order: the result is deterministic for a given thread count).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "line_plan.hpp"
#include "reduce_plan.hpp"
#include "simd_math.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kSoftmaxMask = kAllFloatMask;
constexpr int kLanes = 8;        // independent maxima or partial sums over a contiguous range
constexpr int64_t kBlock = 64;   // rows processed together by the column schedule
constexpr int64_t kChunk = 256;  // exponentials buffered at a time by pass 2

/// The rows of a softmax (line_plan.hpp).
using SoftmaxPlan = LinePlan;

/// One row, or a part of one: element i lies at in + i * si and out + i * so.
struct Row {
  char* in;
  char* out;
  int64_t si;
  int64_t so;
};

/// The larger of acc and x, acc when either is NaN: one MAXSS/MAXSD, no branch. A NaN the
/// maximum skips still makes its row NaN (Note [Softmax passes]).
template <class F>
inline F fmax_of(F acc, F x) {
  return x > acc ? x : acc;
}

template <class T>
inline OpMath<T> lowest() {
  return -std::numeric_limits<OpMath<T>>::infinity();
}

/// Pass 1 over elements [b, e): their maximum (-inf when empty or all NaN).
template <class T>
OpMath<T> range_max(const Row& r, int64_t b, int64_t e) {
  if constexpr (std::is_same_v<T, float>) {  // a contiguous float row: simd_math.hpp
    if (r.si == static_cast<int64_t>(sizeof(float))) {
      return simd::max_f32(reinterpret_cast<const float*>(r.in) + b, e - b);
    }
  }
  OpMath<T> acc = lowest<T>();
  if (r.si != static_cast<int64_t>(sizeof(T))) {
    for (int64_t i = b; i < e; ++i) acc = fmax_of(acc, load(at<T>(r.in, i, r.si)));
    return acc;
  }
  const T* x = reinterpret_cast<const T*>(r.in);
  OpMath<T> lane[kLanes];
  for (int k = 0; k < kLanes; ++k) lane[k] = acc;
  int64_t i = b;
  for (; i + kLanes <= e; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) lane[k] = fmax_of(lane[k], load(x[i + k]));
  }
  for (; i < e; ++i) lane[0] = fmax_of(lane[0], load(x[i]));
  for (int k = 0; k < kLanes; ++k) acc = fmax_of(acc, lane[k]);
  return acc;
}

/// The sum in double of v[0, n), over kLanes independent partial sums (vectorisable).
template <class M>
double sum_lanes(const M* v, int64_t n) {
  double lane[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) lane[k] += static_cast<double>(v[i + k]);
  }
  for (; i < n; ++i) lane[0] += static_cast<double>(v[i]);
  double sum = 0;
  for (int k = 0; k < kLanes; ++k) sum += lane[k];
  return sum;
}

/// Pass 2 over [b, e): the sum of e^(x - max), each stored into the output unless T is a
/// 16-bit float (Note [Softmax passes]). A chunk of exponentials at a time goes through a
/// buffer, so no loop both calls exp and carries the sum (which the call would spill); float
/// chunks (float32 and the 16-bit floats) go through the vectorised exp of simd_math.hpp.
template <class T, bool Log>
double range_exp_sum(const Row& r, OpMath<T> max, int64_t b, int64_t e) {
  constexpr int64_t f32 = sizeof(float);
  if constexpr (std::is_same_v<T, float>) {  // contiguous float rows: one fused SIMD pass
    if (r.si == f32 && (Log || r.so == f32)) {
      float* y = Log ? nullptr : reinterpret_cast<float*>(r.out) + b;
      return simd::exp_shift_sum_f32(reinterpret_cast<const float*>(r.in) + b, y, e - b, max);
    }
  }
  OpMath<T> buf[kChunk];
  double sum = 0;
  for (int64_t c = b; c < e; c += kChunk) {
    const int64_t len = std::min(kChunk, e - c);
    if constexpr (std::is_same_v<OpMath<T>, float>) {  // the vectorised exp (simd_math.hpp)
      for (int64_t i = 0; i < len; ++i) buf[i] = load(at<T>(r.in, c + i, r.si)) - max;
      simd::unary_f32(simd::UnaryFn::kExp, buf, buf, len);
    } else {
      for (int64_t i = 0; i < len; ++i) buf[i] = std::exp(load(at<T>(r.in, c + i, r.si)) - max);
    }
    sum += sum_lanes(buf, len);
    if constexpr (!is_half_v<T> && !Log) {
      for (int64_t i = 0; i < len; ++i) at<T>(r.out, c + i, r.so) = buf[i];
    }
  }
  return sum;
}

/// Pass 3 over [b, e): the output e^(x - max) * inv.
template <class T>
void range_scale(const Row& r, OpMath<T> max, double inv, int64_t b, int64_t e) {
  if constexpr (is_half_v<T>) {
    const float f = static_cast<float>(inv);
    for (int64_t i = b; i < e; ++i) {
      at<T>(r.out, i, r.so) = convert<T>(std::exp(load(at<T>(r.in, i, r.si)) - max) * f);
    }
  } else if (std::is_same_v<T, float> && r.so == static_cast<int64_t>(sizeof(T))) {
    simd::scale_f32(reinterpret_cast<float*>(r.out) + b, e - b, static_cast<float>(inv));
  } else if (r.so == static_cast<int64_t>(sizeof(T))) {
    T* o = reinterpret_cast<T*>(r.out);
    for (int64_t i = b; i < e; ++i) o[i] = static_cast<T>(static_cast<double>(o[i]) * inv);
  } else {
    for (int64_t i = b; i < e; ++i) {
      T& o = at<T>(r.out, i, r.so);
      o = static_cast<T>(static_cast<double>(o) * inv);
    }
  }
}

/// log_softmax's pass 3 over [b, e): the output (x - max) - log_sum.
template <class T>
void range_log(const Row& r, OpMath<T> max, double log_sum, int64_t b, int64_t e) {
  using M = OpMath<T>;
  const M ls = static_cast<M>(log_sum);
  for (int64_t i = b; i < e; ++i) {
    at<T>(r.out, i, r.so) = convert<T>((load(at<T>(r.in, i, r.si)) - max) - ls);
  }
}

/// Pass 3 of softmax (Log = false) or log_softmax, given the row's max and sum.
template <class T, bool Log>
void range_finish(const Row& r, OpMath<T> max, double sum, int64_t b, int64_t e) {
  if constexpr (Log) {
    range_log<T>(r, max, std::log(sum), b, e);
  } else {
    range_scale<T>(r, max, 1.0 / sum, b, e);
  }
}

/// Note [One-pass float rows]
/// A contiguous float32 row of up to kMaxStripes * kStripe elements reads memory once for
/// passes 1 and 2: per stripe of kStripe elements (in L1 after its maximum is taken) m_b, the
/// stripe's maximum, then e^(x - m_b) stored and summed (s_b), so the exponentials overlap the
/// row's stream from memory. Then M = max m_b, S = sum s_b * e^(m_b - M) (in double, stripes
/// in order) and pass 3 scales stripe b by e^(m_b - M) / S (log_softmax: writes
/// (x - M) - log S). The special cases stay those of Note [Softmax passes]: a NaN or +inf makes
/// its s_b and so S NaN; a stripe of only -inf stores zeros with s_b = 0 and factor
/// e^(-inf - M) = 0 beside a finite M, while a row of only -inf has M = -inf, e^(-inf - -inf) =
/// NaN and so a NaN row.
constexpr int64_t kStripe = 1024;
constexpr int64_t kMaxStripes = 64;

template <bool Log>
bool float_row_one_pass(const Row& r, int64_t n) {
  constexpr int64_t f32 = sizeof(float);
  if (r.si != f32 || r.so != f32 || n > kStripe * kMaxStripes) return false;
  const float* x = reinterpret_cast<const float*>(r.in);
  float* y = reinterpret_cast<float*>(r.out);
  float m[kMaxStripes];
  double s[kMaxStripes];
  const int64_t stripes = (n + kStripe - 1) / kStripe;
  float max = lowest<float>();
  for (int64_t b = 0; b < stripes; ++b) {
    const int64_t lo = b * kStripe, len = std::min(kStripe, n - lo);
    m[b] = simd::max_f32(x + lo, len);
    if (m[b] == lowest<float>()) {
      s[b] = 0;
      if constexpr (!Log) std::fill(y + lo, y + lo + len, 0.0f);
    } else {
      s[b] = simd::exp_shift_sum_f32(x + lo, Log ? nullptr : y + lo, len, m[b]);
    }
    max = fmax_of(max, m[b]);
  }
  double sum = 0;
  for (int64_t b = 0; b < stripes; ++b) {
    sum += s[b] * std::exp(static_cast<double>(m[b]) - static_cast<double>(max));
  }
  if constexpr (Log) {
    range_log<float>(r, max, std::log(sum), 0, n);
  } else {
    for (int64_t b = 0; b < stripes; ++b) {
      const int64_t lo = b * kStripe, len = std::min(kStripe, n - lo);
      const double f = std::exp(static_cast<double>(m[b]) - static_cast<double>(max)) / sum;
      simd::scale_f32(y + lo, len, static_cast<float>(f));
    }
  }
  return true;
}

/// Row o of the plan.
inline Row row_at(const SoftmaxPlan& p, char* in, char* out, int64_t o) {
  int64_t in_off, out_off;
  kept_offsets(p.lines, o, in_off, out_off);
  return Row{in + in_off, out + out_off, p.si, p.so};
}

/// Every row on its own, rows split over `nt` threads.
template <class T, bool Log>
void softmax_rows(const SoftmaxPlan& p, char* in, char* out, int nt) {
  auto one = [&](int64_t o) {
    const Row r = row_at(p, in, out, o);
    if constexpr (std::is_same_v<T, float>) {
      if (float_row_one_pass<Log>(r, p.n)) return;
    }
    const OpMath<T> max = range_max<T>(r, 0, p.n);
    range_finish<T, Log>(r, max, range_exp_sum<T, Log>(r, max, 0, p.n), 0, p.n);
  };
  if (nt <= 1) {
    for (int64_t o = 0; o < p.lines.numel_out; ++o) one(o);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t o = 0; o < p.lines.numel_out; ++o) one(o);
}

/// Few long rows: each split over `nt` threads, the partial maxima and sums combined in order.
template <class T, bool Log>
void softmax_split(const SoftmaxPlan& p, char* in, char* out, int nt) {
  std::unique_ptr<OpMath<T>[]> part_max(new OpMath<T>[static_cast<size_t>(nt)]);
  std::unique_ptr<double[]> part_sum(new double[static_cast<size_t>(nt)]);
  for (int64_t o = 0; o < p.lines.numel_out; ++o) {
    const Row r = row_at(p, in, out, o);
#pragma omp parallel num_threads(nt)
    {
      const int t = omp_get_thread_num(), used = omp_get_num_threads();
      const int64_t b = p.n * t / used, e = p.n * (t + 1) / used;
      part_max[t] = range_max<T>(r, b, e);
#pragma omp barrier
      OpMath<T> max = part_max[0];
      for (int u = 1; u < used; ++u) max = fmax_of(max, part_max[u]);
      part_sum[t] = range_exp_sum<T, Log>(r, max, b, e);
#pragma omp barrier
      double sum = 0;
      for (int u = 0; u < used; ++u) sum += part_sum[u];
      range_finish<T, Log>(r, max, sum, b, e);
    }
  }
}

/// w <= kBlock rows next to each other (input element j of row k at in + k * si + j * T):
/// the three passes of Note [Softmax passes], each walking dim once for all w rows.
template <class T, bool Log>
void softmax_block(const SoftmaxPlan& p, char* in, char* out, int64_t w) {
  const int64_t ob = p.lines.k_out[0];  // byte stride between the rows' outputs
  OpMath<T> max[kBlock];
  double inv[kBlock];
  for (int64_t j = 0; j < w; ++j) max[j] = lowest<T>();
  for (int64_t k = 0; k < p.n; ++k) {
    const T* x = reinterpret_cast<const T*>(in + k * p.si);
    for (int64_t j = 0; j < w; ++j) max[j] = fmax_of(max[j], load(x[j]));
  }
  for (int64_t j = 0; j < w; ++j) inv[j] = 0;
  for (int64_t k = 0; k < p.n; ++k) {
    const T* x = reinterpret_cast<const T*>(in + k * p.si);
    OpMath<T> buf[kBlock];
    for (int64_t j = 0; j < w; ++j) buf[j] = std::exp(load(x[j]) - max[j]);
    for (int64_t j = 0; j < w; ++j) inv[j] += static_cast<double>(buf[j]);
    if constexpr (!is_half_v<T> && !Log) {
      for (int64_t j = 0; j < w; ++j) at<T>(out + k * p.so, j, ob) = buf[j];
    }
  }
  for (int64_t j = 0; j < w; ++j) inv[j] = Log ? std::log(inv[j]) : 1.0 / inv[j];
  for (int64_t k = 0; k < p.n; ++k) {
    const Row r{in + k * p.si, out + k * p.so, static_cast<int64_t>(sizeof(T)), ob};
    for (int64_t j = 0; j < w; ++j) {
      if constexpr (Log) {
        range_log<T>(r, max[j], inv[j], j, j + 1);
      } else {
        range_scale<T>(r, max[j], inv[j], j, j + 1);
      }
    }
  }
}

/// Rows adjacent along the innermost kept dim, in blocks of kBlock over `nt` threads.
template <class T, bool Log>
void softmax_columns(const SoftmaxPlan& p, char* in, char* out, int nt) {
  const ReducePlan& rp = p.lines;
  const int64_t inner = rp.k_shape[0];
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  const int64_t tasks = rp.numel_out / inner * blocks;
  auto one = [&](int64_t task) {
    const int64_t j0 = (task % blocks) * kBlock;
    int64_t in_off = j0 * rp.k_in[0], out_off = j0 * rp.k_out[0], rest = task / blocks;
    for (int d = 1; d < rp.nk; ++d) {
      const int64_t i = rest % rp.k_shape[d];
      rest /= rp.k_shape[d];
      in_off += i * rp.k_in[d];
      out_off += i * rp.k_out[d];
    }
    softmax_block<T, Log>(p, in + in_off, out + out_off, std::min(kBlock, inner - j0));
  };
  if (nt <= 1 || tasks == 1) {
    for (int64_t task = 0; task < tasks; ++task) one(task);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t task = 0; task < tasks; ++task) one(task);
}


template <class T, bool Log>
void run_softmax(const SoftmaxPlan& p, const kf_tensor_view_t& in, const kf_tensor_view_t& out) {
  if (p.lines.numel_out == 0 || p.n == 0) return;  // empty: nothing to write
  char* in_data = static_cast<char*>(in.data);
  char* out_data = static_cast<char*>(out.data);
  const int nt = threads_for(p.lines.numel_out * p.n);
  const int64_t elem = static_cast<int64_t>(sizeof(T));
  const bool columns =
      p.lines.nk >= 1 && p.lines.k_in[0] == elem && p.lines.k_shape[0] >= 8 && p.si != elem;
  if (columns) {
    softmax_columns<T, Log>(p, in_data, out_data, nt);
  } else if (nt > 1 && p.lines.numel_out < nt && p.n >= kParallelGrain) {
    softmax_split<T, Log>(p, in_data, out_data, nt);
  } else {
    softmax_rows<T, Log>(p, in_data, out_data, nt);
  }
}

void softmax_kernel(const ops::softmax::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "softmax");
  dispatch<kSoftmaxMask>(a.out.dtype, "softmax", [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_softmax<T, false>(make_line_plan(a.self, a.out, a.dim, sizeof(T), "softmax"), a.self,
                          a.out);
  });
}

void log_softmax_kernel(const ops::log_softmax::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "log_softmax");
  dispatch<kSoftmaxMask>(a.out.dtype, "log_softmax", [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_softmax<T, true>(make_line_plan(a.self, a.out, a.dim, sizeof(T), "log_softmax"),
                         a.self, a.out);
  });
}

}  // namespace

kf_status_t register_softmax_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, softmax, softmax_kernel, kSoftmaxMask);
  KF_CPU_KERNEL(reg, log_softmax, log_softmax_kernel, kSoftmaxMask);
  return KF_OK;
}

}  // namespace kf::cpu
