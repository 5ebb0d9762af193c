// log_exp_kernels.cpp — expm1, log1p, log2, log10 (tag pointwise). Floating and complex
// dtypes: the core converts integer and bool inputs to float32 (meta unary_float). The input
// has the output's dtype; the output may be any strided view and may alias the input exactly.
// 16-bit floats compute in float.
//
// Real values come from the C library. Complex values (std::complex has only log10):
//   log2(z)  = log(z) / ln 2, both parts (numpy's definition);
//   log1p(z) = log(1 + z), but near 0 the real part is log1p(2x + x^2 + y^2) / 2, which keeps
//              the digits 1 + z would round away (log1p(1e-10j) = 5e-21 + 1e-10j);
//   expm1(z) = e^z - 1, but for a finite z the real part is expm1(x) cos(y) - 2 sin^2(y / 2),
//              accurate where e^x cos(y) is close to 1.
#include <cmath>
#include <complex>

#include "kernels.hpp"
#include "unary_map.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kLogExpMask = kAllFloatMask | kComplexMask;

template <class M>
inline M expm1_of(M z) {
  if constexpr (is_complex_v<M>) {
    using R = typename M::value_type;
    const R x = z.real(), y = z.imag();
    if (!std::isfinite(x) || !std::isfinite(y)) return std::exp(z) - R(1);
    if (x == R(0) && y == R(0)) return M(R(0), y);  // +0 whichever zero x is (the standard's)
    const R half_sin = std::sin(y / R(2));
    return M(std::expm1(x) * std::cos(y) - R(2) * half_sin * half_sin, std::exp(x) * std::sin(y));
  } else {
    return std::expm1(z);
  }
}

template <class M>
inline M log1p_of(M z) {
  if constexpr (is_complex_v<M>) {
    using R = typename M::value_type;
    const R x = z.real(), y = z.imag();
    if (std::fabs(x) < R(0.5) && std::fabs(y) < R(0.5)) {
      return M(std::log1p(x * (R(2) + x) + y * y) / R(2), std::atan2(y, R(1) + x));
    }
    return std::log(R(1) + z);
  } else {
    return std::log1p(z);
  }
}

template <class M>
inline M log2_of(M z) {
  if constexpr (is_complex_v<M>) {
    using R = typename M::value_type;
    constexpr R kLn2 = R(0.693147180559945309417232121458176568L);
    const M l = std::log(z);
    return M(l.real() / kLn2, l.imag() / kLn2);
  } else {
    return std::log2(z);
  }
}

void expm1_kernel(const ops::expm1::Args& a) {
  unary_map<kLogExpMask>(a.self, a.out, "expm1", [](auto x) { return expm1_of(x); });
}
void log1p_kernel(const ops::log1p::Args& a) {
  unary_map<kLogExpMask>(a.self, a.out, "log1p", [](auto x) { return log1p_of(x); });
}
void log2_kernel(const ops::log2::Args& a) {
  unary_map<kLogExpMask>(a.self, a.out, "log2", [](auto x) { return log2_of(x); });
}
void log10_kernel(const ops::log10::Args& a) {
  unary_map<kLogExpMask>(a.self, a.out, "log10", [](auto x) { return std::log10(x); });
}

}  // namespace

kf_status_t register_log_exp_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, expm1, expm1_kernel, kLogExpMask);
  KF_CPU_KERNEL(reg, log1p, log1p_kernel, kLogExpMask);
  KF_CPU_KERNEL(reg, log2, log2_kernel, kLogExpMask);
  KF_CPU_KERNEL(reg, log10, log10_kernel, kLogExpMask);
  return KF_OK;
}

}  // namespace kf::cpu
