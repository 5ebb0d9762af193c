// reference.hpp — the transformer of transformer.cpp in double precision with plain loops,
// written from the definitions (no kernforge call), so the example can check kernforge's
// float32 forward pass against it.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace ref {

using Mat = std::vector<double>;  // row-major [rows, cols]

/// [n, k] @ [k, m].
inline Mat matmul(const Mat& a, const Mat& b, int64_t n, int64_t k, int64_t m) {
  Mat out(static_cast<size_t>(n * m), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < m; ++j) out[i * m + j] += a[i * k + p] * b[p * m + j];
  return out;
}

/// x / sqrt(mean(x^2) + eps) * w over each row of [n, d].
inline Mat rms_norm(const Mat& x, const Mat& w, int64_t n, int64_t d, double eps) {
  Mat out(x.size());
  for (int64_t i = 0; i < n; ++i) {
    double ss = 0;
    for (int64_t j = 0; j < d; ++j) ss += x[i * d + j] * x[i * d + j];
    const double r = 1.0 / std::sqrt(ss / static_cast<double>(d) + eps);
    for (int64_t j = 0; j < d; ++j) out[i * d + j] = x[i * d + j] * r * w[j];
  }
  return out;
}

inline double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
inline double silu(double x) { return x / (1.0 + std::exp(-x)); }

/// Causal multi-head attention of q, k, v [s, heads * dh] (head h is columns h*dh..).
inline Mat causal_attention(const Mat& q, const Mat& k, const Mat& v, int64_t s, int64_t heads,
                            int64_t dh) {
  const int64_t d = heads * dh;
  Mat out(static_cast<size_t>(s * d), 0.0);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
  std::vector<double> w(static_cast<size_t>(s));
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t i = 0; i < s; ++i) {
      double mx = -INFINITY, sum = 0;
      for (int64_t j = 0; j <= i; ++j) {
        double dot = 0;
        for (int64_t e = 0; e < dh; ++e) dot += q[i * d + h * dh + e] * k[j * d + h * dh + e];
        w[j] = dot * scale;
        mx = std::max(mx, w[j]);
      }
      for (int64_t j = 0; j <= i; ++j) sum += (w[j] = std::exp(w[j] - mx));
      for (int64_t j = 0; j <= i; ++j)
        for (int64_t e = 0; e < dh; ++e) out[i * d + h * dh + e] += w[j] / sum * v[j * d + h * dh + e];
    }
  }
  return out;
}

inline void add_into(Mat& x, const Mat& y) {
  for (size_t i = 0; i < x.size(); ++i) x[i] += y[i];
}

}  // namespace ref
