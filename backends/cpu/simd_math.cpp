// simd_math.cpp — see simd_math.hpp.
//
// Note [SIMD math]
// Highway's foreach_target.h compiles this file once per instruction set it targets; the code
// between HWY_BEFORE_NAMESPACE and HWY_AFTER_NAMESPACE is that per-target part, and
// HWY_DYNAMIC_DISPATCH calls the best one this CPU runs (chosen on the first call). Each array
// function walks whole vectors; a vector with a lane outside the function's valid range (the
// `outside` predicate, true for NaN too because comparisons with NaN are false) is computed
// with the scalar C function, and so is the tail shorter than a vector. The vector functions
// are Highway's contrib/math (exp 1 ULP; log, tanh 4 ULP; sin, cos 3 ULP on |x| <= 39000).
#include "simd_math.hpp"

#include <cfloat>
#include <cmath>

#if KF_CPU_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_math.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>
#endif

// Highway includes this file once per target (Note [SIMD math]): what is not per target is
// compiled once.
#ifndef KF_CPU_SIMD_MATH_SCALAR
#define KF_CPU_SIMD_MATH_SCALAR
namespace kf::cpu::simd {
namespace scalar {

inline float exp(float x) { return std::exp(x); }
inline float log(float x) { return std::log(x); }
inline float tanh(float x) { return std::tanh(x); }
inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
inline float sin(float x) { return std::sin(x); }
inline float cos(float x) { return std::cos(x); }

}  // namespace scalar
}  // namespace kf::cpu::simd
#endif  // KF_CPU_SIMD_MATH_SCALAR

#if KF_CPU_HAVE_HWY
HWY_BEFORE_NAMESPACE();
namespace kf::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

/// y = vec(x) over whole vectors whose lanes are all inside; scalar() elsewhere.
template <class Vec, class Outside, class Scalar>
HWY_INLINE void apply(const float* x, float* y, int64_t n, Vec vec, Outside outside,
                      Scalar scalar) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const V v = hn::LoadU(d, x + i);
    if (hn::AllFalse(d, outside(d, v))) {
      hn::StoreU(vec(d, v), d, y + i);
    } else {
      for (int64_t j = i; j < i + lanes; ++j) y[j] = scalar(x[j]);
    }
  }
  for (; i < n; ++i) y[i] = scalar(x[i]);
}

/// Lanes not in [lo, hi] (NaN included).
HWY_INLINE hn::Mask<D> not_within(D d, V v, float lo, float hi) {
  return hn::Not(hn::And(hn::Ge(v, hn::Set(d, lo)), hn::Le(v, hn::Set(d, hi))));
}

void ExpArray(const float* x, float* y, int64_t n) {
  apply(x, y, n, [](D d, V v) { return hn::Exp(d, v); },
        [](D d, V v) { return not_within(d, v, -87.0f, 88.0f); }, scalar::exp);
}

void LogArray(const float* x, float* y, int64_t n) {
  apply(x, y, n, [](D d, V v) { return hn::Log(d, v); },
        [](D d, V v) { return not_within(d, v, FLT_MIN, FLT_MAX); }, scalar::log);
}

void TanhArray(const float* x, float* y, int64_t n) {
  apply(x, y, n, [](D d, V v) { return hn::Tanh(d, v); },
        [](D d, V v) { return not_within(d, v, -FLT_MAX, FLT_MAX); }, scalar::tanh);
}

void SigmoidArray(const float* x, float* y, int64_t n) {
  apply(x, y, n,
        [](D d, V v) {
          const V one = hn::Set(d, 1.0f);
          return hn::Div(one, hn::Add(one, hn::Exp(d, hn::Neg(v))));
        },
        [](D d, V v) { return not_within(d, v, -88.0f, 87.0f); }, scalar::sigmoid);
}

void SinArray(const float* x, float* y, int64_t n) {
  apply(x, y, n, [](D d, V v) { return hn::Sin(d, v); },
        [](D d, V v) { return not_within(d, v, -39000.0f, 39000.0f); }, scalar::sin);
}

void CosArray(const float* x, float* y, int64_t n) {
  apply(x, y, n, [](D d, V v) { return hn::Cos(d, v); },
        [](D d, V v) { return not_within(d, v, -39000.0f, 39000.0f); }, scalar::cos);
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace kf::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // KF_CPU_HAVE_HWY

#if !KF_CPU_HAVE_HWY || HWY_ONCE
namespace kf::cpu::simd {

#if KF_CPU_HAVE_HWY
HWY_EXPORT(ExpArray);
HWY_EXPORT(LogArray);
HWY_EXPORT(TanhArray);
HWY_EXPORT(SigmoidArray);
HWY_EXPORT(SinArray);
HWY_EXPORT(CosArray);
HWY_EXPORT(TargetName);

void unary_f32(UnaryFn fn, const float* x, float* y, int64_t n) {
  switch (fn) {
    case UnaryFn::kExp: return HWY_DYNAMIC_DISPATCH(ExpArray)(x, y, n);
    case UnaryFn::kLog: return HWY_DYNAMIC_DISPATCH(LogArray)(x, y, n);
    case UnaryFn::kTanh: return HWY_DYNAMIC_DISPATCH(TanhArray)(x, y, n);
    case UnaryFn::kSigmoid: return HWY_DYNAMIC_DISPATCH(SigmoidArray)(x, y, n);
    case UnaryFn::kSin: return HWY_DYNAMIC_DISPATCH(SinArray)(x, y, n);
    case UnaryFn::kCos: return HWY_DYNAMIC_DISPATCH(CosArray)(x, y, n);
  }
}

const char* target_name() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

#else  // no Highway: the scalar loops

template <class F>
void each(const float* x, float* y, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

void unary_f32(UnaryFn fn, const float* x, float* y, int64_t n) {
  switch (fn) {
    case UnaryFn::kExp: return each(x, y, n, scalar::exp);
    case UnaryFn::kLog: return each(x, y, n, scalar::log);
    case UnaryFn::kTanh: return each(x, y, n, scalar::tanh);
    case UnaryFn::kSigmoid: return each(x, y, n, scalar::sigmoid);
    case UnaryFn::kSin: return each(x, y, n, scalar::sin);
    case UnaryFn::kCos: return each(x, y, n, scalar::cos);
  }
}

const char* target_name() { return "scalar"; }

#endif  // KF_CPU_HAVE_HWY

}  // namespace kf::cpu::simd
#endif  // !KF_CPU_HAVE_HWY || HWY_ONCE
