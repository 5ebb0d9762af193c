// norm_kernels.cpp — fused layer_norm and rms_norm for float32, float64, float16 and bfloat16,
// overriding the core's composites (dispatcher/composite/norm_composites.cpp).
//
// The core's meta rule has checked the arguments: input, weight, bias (each optional) and out
// share one floating dtype; the normalised trailing dims of the input are normalized_shape, and
// weight and bias have exactly that shape; out has the input's shape. Any of them may be
// strided. A "row" is the block of the trailing dims through one index of the leading dims.
//
// Note [Norm passes]
// Each row is read twice from memory and written once:
//  1. the statistics, in double, in one pass: layer_norm's mean and biased variance by chunks
//     of kChunk elements (each chunk's mean and sum of squared deviations from it, computed
//     from a buffer in L1), merged with Chan's formula, so there is no cancellation of
//     E[x^2] - E[x]^2 even when the mean is large; rms_norm's mean of squares;
//  2. y = (x - mean) * rstd * w + b (rms_norm: y = x * rstd * w) in the compute type (float for
//     the 16-bit floats, as PyTorch), rounded once into out.
// Contiguous float32 rows take both passes through simd_math.hpp (Note [SIMD rows]): the
// statistics in float per block of 256 around the block's first element, merged in double.
// A missing weight is ones and a missing bias zeros (exact). The rows are split over threads;
// a row whose trailing dims do not collapse into one strided line (a permuted input) is
// gathered into a per-thread buffer first, and an output row likewise scattered from one.
// IEEE arithmetic gives PyTorch's special values: a NaN or inf in a row makes its statistics
// and so its whole row NaN.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "simd_math.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kNormMask = kAllFloatMask;
constexpr int64_t kChunk = 256;
constexpr int kLanes = 8;

/// The elements of one row relative to its first: the trailing dims of a view without size-1
/// dims, merged where contiguous (innermost last, element strides). One dim left (or none) is
/// a line of `step`.
struct RowLayout {
  int nd = 0;
  int64_t shape[KF_MAX_NDIM];
  int64_t stride[KF_MAX_NDIM];
  bool line() const { return nd <= 1; }
  int64_t step() const { return nd == 1 ? stride[0] : 1; }
};

RowLayout row_layout(const kf_tensor_view_t& v, int k) {
  RowLayout r;
  for (int d = v.ndim - k; d < v.ndim; ++d) {
    if (v.shape[d] == 1) continue;
    if (r.nd > 0 && r.stride[r.nd - 1] == v.strides[d] * v.shape[d]) {
      r.shape[r.nd - 1] *= v.shape[d];
      r.stride[r.nd - 1] = v.strides[d];
      continue;
    }
    r.shape[r.nd] = v.shape[d];
    r.stride[r.nd] = v.strides[d];
    ++r.nd;
  }
  return r;
}

/// Calls f(j, offset) for the row's elements j = 0.. in row-major order (offset in elements).
template <class F>
void for_each_element(const RowLayout& r, F f) {
  int64_t idx[KF_MAX_NDIM] = {};
  int64_t n = 1;
  for (int d = 0; d < r.nd; ++d) n *= r.shape[d];
  int64_t off = 0;
  for (int64_t j = 0; j < n; ++j) {
    f(j, off);
    for (int d = r.nd - 1; d >= 0; --d) {
      off += r.stride[d];
      if (++idx[d] < r.shape[d]) break;
      off -= r.stride[d] * r.shape[d];
      idx[d] = 0;
    }
  }
}

/// The leading (row-indexing) dims of the input and the output, and their element strides.
struct RowIndex {
  int nd = 0;
  int64_t shape[KF_MAX_NDIM];
  int64_t in[KF_MAX_NDIM];
  int64_t out[KF_MAX_NDIM];

  void offsets(int64_t row, int64_t& in_off, int64_t& out_off) const {
    in_off = out_off = 0;
    for (int d = nd - 1; d >= 0; --d) {
      const int64_t i = row % shape[d];
      row /= shape[d];
      in_off += i * in[d];
      out_off += i * out[d];
    }
  }
};

/// weight or bias as D values of the compute type M; `fill` when absent.
template <class T, class M = OpMath<T>>
std::vector<M> affine_values(const kf_tensor_view_t* t, int k, int64_t d, M fill) {
  std::vector<M> v(static_cast<size_t>(d), fill);
  if (t == nullptr) return v;
  const T* p = static_cast<const T*>(t->data);
  for_each_element(row_layout(*t, k), [&](int64_t j, int64_t off) { v[j] = load(p[off]); });
  return v;
}

/// Mean and sum of squared deviations of n values, merged chunk by chunk (Note [Norm passes]).
struct Moments {
  double n = 0, mean = 0, m2 = 0;
  void merge(double cn, double cmean, double cm2) {
    const double total = n + cn, delta = cmean - mean;
    mean += delta * (cn / total);
    m2 += cm2 + delta * delta * (n * cn / total);
    n = total;
  }
};

double lane_sum(const double* v, int64_t n) {
  double lane[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) lane[k] += v[i + k];
  }
  for (; i < n; ++i) lane[0] += v[i];
  double s = 0;
  for (int k = 0; k < kLanes; ++k) s += lane[k];
  return s;
}

template <class T>
void load_chunk(const T* x, int64_t step, int64_t n, double* buf) {
  if (step == 1) {
    for (int64_t i = 0; i < n; ++i) buf[i] = static_cast<double>(load(x[i]));
  } else {
    for (int64_t i = 0; i < n; ++i) buf[i] = static_cast<double>(load(x[i * step]));
  }
}

template <class T>
Moments row_moments(const T* x, int64_t step, int64_t d) {
  Moments m;
  double buf[kChunk];
  for (int64_t c = 0; c < d; c += kChunk) {
    const int64_t n = std::min(kChunk, d - c);
    load_chunk(x + c * step, step, n, buf);
    const double cmean = lane_sum(buf, n) / static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) buf[i] = (buf[i] - cmean) * (buf[i] - cmean);
    m.merge(static_cast<double>(n), cmean, lane_sum(buf, n));
  }
  return m;
}

template <class T>
double row_mean_square(const T* x, int64_t step, int64_t d) {
  double buf[kChunk];
  double sum = 0;
  for (int64_t c = 0; c < d; c += kChunk) {
    const int64_t n = std::min(kChunk, d - c);
    load_chunk(x + c * step, step, n, buf);
    for (int64_t i = 0; i < n; ++i) buf[i] *= buf[i];
    sum += lane_sum(buf, n);
  }
  return sum / static_cast<double>(d);
}

/// Everything a row needs: the layouts, the affine values and the per-thread buffers.
template <class T>
struct NormPlan {
  using M = OpMath<T>;
  const T* in;
  T* out;
  RowLayout lin, lout;
  RowIndex rows;
  int64_t nrows = 0, d = 1;
  std::vector<M> w, b;
  std::vector<T> gather, scatter;  // d elements per thread, for rows that are not lines
};

template <class T>
NormPlan<T> make_plan(const kf_tensor_view_t& in, const kf_tensor_view_t& out, int k,
                      const kf_tensor_view_t* w, const kf_tensor_view_t* b, int nt) {
  using M = OpMath<T>;
  NormPlan<T> p;
  p.in = static_cast<const T*>(in.data);
  p.out = static_cast<T*>(out.data);
  p.lin = row_layout(in, k);
  p.lout = row_layout(out, k);
  for (int d = in.ndim - k; d < in.ndim; ++d) p.d *= in.shape[d];
  p.rows.nd = in.ndim - k;
  for (int d = 0; d < p.rows.nd; ++d) {
    p.rows.shape[d] = in.shape[d];
    p.rows.in[d] = in.strides[d];
    p.rows.out[d] = out.strides[d];
  }
  p.nrows = p.d == 0 ? 0 : in.numel / p.d;
  p.w = affine_values<T>(w, k, p.d, M(1));
  p.b = affine_values<T>(b, k, p.d, M(0));
  if (!p.lin.line()) p.gather.resize(static_cast<size_t>(nt * p.d));
  if (!p.lout.line()) p.scatter.resize(static_cast<size_t>(nt * p.d));
  return p;
}

/// Runs row(x, xs, y, ys, w, b) for every row, x and y lines (gathered and scattered as needed).
template <class T, class Row>
void for_each_norm_row(NormPlan<T>& p, int nt, Row row) {
  auto one = [&](int64_t r, int t) {
    int64_t in_off, out_off;
    p.rows.offsets(r, in_off, out_off);
    const T* x = p.in + in_off;
    int64_t xs = p.lin.step();
    if (!p.lin.line()) {
      T* g = p.gather.data() + t * p.d;
      for_each_element(p.lin, [&](int64_t j, int64_t off) { g[j] = x[off]; });
      x = g;
      xs = 1;
    }
    T* y = p.lout.line() ? p.out + out_off : p.scatter.data() + t * p.d;
    row(x, xs, y, p.lout.line() ? p.lout.step() : 1);
    if (!p.lout.line()) {
      T* dst = p.out + out_off;
      for_each_element(p.lout, [&](int64_t j, int64_t off) { dst[off] = y[j]; });
    }
  };
  if (nt <= 1) {
    for (int64_t r = 0; r < p.nrows; ++r) one(r, 0);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t r = 0; r < p.nrows; ++r) one(r, omp_get_thread_num());
}

/// y[j] = (x[j] - shift) * scale * w[j] + b[j] in the compute type, into a line of stride ys.
template <class T, class M = OpMath<T>>
void write_row(const T* x, int64_t xs, T* y, int64_t ys, int64_t d, M shift, M scale,
               const M* w, const M* b) {
  if (xs == 1 && ys == 1) {
    for (int64_t j = 0; j < d; ++j) y[j] = convert<T>((load(x[j]) - shift) * scale * w[j] + b[j]);
    return;
  }
  for (int64_t j = 0; j < d; ++j) {
    y[j * ys] = convert<T>((load(x[j * xs]) - shift) * scale * w[j] + b[j]);
  }
}

void check_norm_views(const kf_tensor_view_t& in, const kf_tensor_view_t& out, int64_t k,
                      const char* op) {
  check_ndim(in);
  check_ndim(out);
  require_dtype(out, in.dtype, "out", op);
  if (k < 1 || k > in.ndim || out.ndim != in.ndim) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("cpu ") + op +
                                                   ": normalized_shape does not fit the input");
  }
}

template <class T>
void layer_norm_typed(const ops::layer_norm::Args& a) {
  using M = OpMath<T>;
  const int k = a.normalized_shape.size();
  const int nt = threads_for(a.input.numel);
  NormPlan<T> p = make_plan<T>(a.input, a.out, k, a.weight, a.bias, nt);
  const double eps = a.eps;
  const int64_t d = p.d;
  for_each_norm_row(p, nt, [&](const T* x, int64_t xs, T* y, int64_t ys) {
    if constexpr (std::is_same_v<T, float>) {  // contiguous float rows: simd_math.hpp
      if (xs == 1 && ys == 1) {
        double mean, m2;
        simd::moments_f32(x, d, &mean, &m2);
        const double rstd = 1.0 / std::sqrt(m2 / static_cast<double>(d) + eps);
        simd::norm_affine_f32(x, y, d, static_cast<float>(mean), static_cast<float>(rstd),
                              p.w.data(), p.b.data());
        return;
      }
    }
    const Moments m = row_moments(x, xs, d);
    const double rstd = 1.0 / std::sqrt(m.m2 / static_cast<double>(d) + eps);
    write_row<T>(x, xs, y, ys, d, static_cast<M>(m.mean), static_cast<M>(rstd), p.w.data(),
                 p.b.data());
  });
}

template <class T>
void rms_norm_typed(const ops::rms_norm::Args& a) {
  using M = OpMath<T>;
  const int k = a.normalized_shape.size();
  const int nt = threads_for(a.input.numel);
  NormPlan<T> p = make_plan<T>(a.input, a.out, k, a.weight, nullptr, nt);
  // eps None: the compute type's machine epsilon, as PyTorch's rms_norm.
  const double eps = a.eps ? *a.eps : static_cast<double>(std::numeric_limits<M>::epsilon());
  const int64_t d = p.d;
  for_each_norm_row(p, nt, [&](const T* x, int64_t xs, T* y, int64_t ys) {
    if constexpr (std::is_same_v<T, float>) {  // contiguous float rows: simd_math.hpp
      if (xs == 1 && ys == 1) {
        const double ms = simd::sum_squares_f32(x, d) / static_cast<double>(d);
        const double rstd = 1.0 / std::sqrt(ms + eps);
        simd::norm_affine_f32(x, y, d, 0.0f, static_cast<float>(rstd), p.w.data(), p.b.data());
        return;
      }
    }
    const double rstd = 1.0 / std::sqrt(row_mean_square(x, xs, d) + eps);
    write_row<T>(x, xs, y, ys, d, M(0), static_cast<M>(rstd), p.w.data(), p.b.data());
  });
}

void layer_norm_kernel(const ops::layer_norm::Args& a) {
  check_norm_views(a.input, a.out, a.normalized_shape.size(), "layer_norm");
  if (a.out.numel == 0) return;
  dispatch<kNormMask>(a.out.dtype, "layer_norm",
                      [&](auto tag) { layer_norm_typed<typename decltype(tag)::type>(a); });
}

void rms_norm_kernel(const ops::rms_norm::Args& a) {
  check_norm_views(a.input, a.out, a.normalized_shape.size(), "rms_norm");
  if (a.out.numel == 0) return;
  dispatch<kNormMask>(a.out.dtype, "rms_norm",
                      [&](auto tag) { rms_norm_typed<typename decltype(tag)::type>(a); });
}

}  // namespace

kf_status_t register_norm_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, layer_norm, layer_norm_kernel, kNormMask);
  KF_CPU_KERNEL(reg, rms_norm, rms_norm_kernel, kNormMask);
  return KF_OK;
}

}  // namespace kf::cpu
