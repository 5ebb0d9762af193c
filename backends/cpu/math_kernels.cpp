// math_kernels.cpp — rsqrt, sin, cos, erf, reciprocal (tag pointwise). Floating dtypes, and
// complex ones for sin and cos (std::sin, std::cos: C99's csin and ccos, whose special cases are
// the array API standard's): the core converts integer and bool inputs to float32 (meta
// unary_float). The input has the
// output's dtype; the output may be any strided view and may alias the input exactly. 16-bit
// floats compute in float. IEEE results: rsqrt(0) = inf, rsqrt(-1) = NaN, 1/0 = inf.
#include <cmath>

#include "kernels.hpp"
#include "unary_map.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kMathMask = kAllFloatMask;
constexpr uint32_t kSinCosMask = kAllFloatMask | kComplexMask;

template <class M>
inline M rsqrt_of(M x) {
  return M(1) / std::sqrt(x);
}

void rsqrt_kernel(const ops::rsqrt::Args& a) {
  unary_map<kMathMask>(a.self, a.out, "rsqrt", [](auto x) { return rsqrt_of(x); });
}
void sin_kernel(const ops::sin::Args& a) {
  unary_map_simd<kSinCosMask>(a.self, a.out, "sin", simd::UnaryFn::kSin,
                            [](auto x) { return std::sin(x); });
}
void cos_kernel(const ops::cos::Args& a) {
  unary_map_simd<kSinCosMask>(a.self, a.out, "cos", simd::UnaryFn::kCos,
                            [](auto x) { return std::cos(x); });
}
void erf_kernel(const ops::erf::Args& a) {
  unary_map<kMathMask>(a.self, a.out, "erf", [](auto x) { return std::erf(x); });
}
void reciprocal_kernel(const ops::reciprocal::Args& a) {
  unary_map<kMathMask>(a.self, a.out, "reciprocal",
                       [](auto x) { return decltype(x)(1) / x; });
}

}  // namespace

kf_status_t register_math_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, rsqrt, rsqrt_kernel, kMathMask);
  KF_CPU_KERNEL(reg, sin, sin_kernel, kSinCosMask);
  KF_CPU_KERNEL(reg, cos, cos_kernel, kSinCosMask);
  KF_CPU_KERNEL(reg, erf, erf_kernel, kMathMask);
  KF_CPU_KERNEL(reg, reciprocal, reciprocal_kernel, kMathMask);
  return KF_OK;
}

}  // namespace kf::cpu
