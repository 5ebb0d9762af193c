// simd_math.cpp — see simd_math.hpp.
//
// Note [SIMD math]
// Highway's foreach_target.h compiles this file once per instruction set it targets; the code
// between HWY_BEFORE_NAMESPACE and HWY_AFTER_NAMESPACE is that per-target part, and
// HWY_DYNAMIC_DISPATCH calls the best one this CPU runs (chosen on the first call). Each array
// function walks whole vectors; a vector with a lane outside the function's valid range (the
// `outside` predicate, true for NaN too because comparisons with NaN are false) is computed
// with the scalar C function, and so is the tail shorter than a vector. exp is exp_below_88
// (Note [SIMD rows]: the Cephes expf polynomial, as Highway's Exp, in fewer steps), the others
// Highway's contrib/math (log, tanh 4 ULP; sin, cos 3 ULP on |x| <= 39000).
//
// Note [SIMD rows]
// The softmax row primitives. max_f32 keeps two vector maxima (two independent chains).
// exp_shift_sum_f32 computes e^(x - shift) and its sum in one pass, the sum in a float vector
// over a block of 16 vectors (at most 16 additions per lane: within 16 float roundings of the
// exact block sum) and the blocks' sums in double. Its vector exp (exp_below_88, shorter than
// Highway's Exp, whose range it does not need) covers every lane up to 88: a lane below -87
// (e^-87 is about 1.6e-38, where the normal floats end) gives 0 rather than libm's subnormal,
// -inf included; a lane above 88 or NaN sends its vector to the C library.
// moments_f32 works per block of 256 elements around the block's first element x0: with
// d = x - x0 (exact when x and x0 are within a factor of two of each other), the block's mean
// x0 + sum(d) / n in double and its sum of squared deviations sum((d - mean(d))^2) in float
// lanes, blocks merged with Chan's formula in double. So a large mean next to a small spread
// loses nothing to cancellation; sum_squares_f32 sums blocks the same way.
#include "simd_math.hpp"

#include <algorithm>
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

float MaxArray(const float* x, int64_t n) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  V m0 = hn::Set(d, -HUGE_VALF), m1 = m0;
  int64_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    m0 = hn::Max(m0, hn::LoadU(d, x + i));
    m1 = hn::Max(m1, hn::LoadU(d, x + i + lanes));
  }
  for (; i + lanes <= n; i += lanes) m0 = hn::Max(m0, hn::LoadU(d, x + i));
  float m = hn::GetLane(hn::MaxOfLanes(d, hn::Max(m0, m1)));
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

/// e^v on lanes v <= 88 that are not NaN, 0 below -87 (Note [SIMD rows]): v = n ln2 + r with
/// n = round(v / ln2) (the addition of 1.5 * 2^23 rounds it into the low bits of t), ln2 in
/// two parts (Cody and Waite), e^r - 1 - r as r^2 times a degree-5 polynomial (the Cephes
/// expf coefficients, which Highway's Exp uses too), and 2^n built from n's bits.
HWY_INLINE V exp_below_88(D d, V v) {
  const hn::RebindToSigned<D> di;
  const V magic = hn::Set(d, 12582912.0f);  // 1.5 * 2^23
  const V t = hn::MulAdd(v, hn::Set(d, 1.44269504088896341f), magic);
  const V n = hn::Sub(t, magic);
  V r = hn::MulAdd(n, hn::Set(d, -0.693145751953125f), v);
  r = hn::MulAdd(n, hn::Set(d, -1.428606765330187045e-6f), r);
  V p = hn::Set(d, 1.98527617612853646278381e-4f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.39304355252534151077271e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 8.33336077630519866943359e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 4.16664853692054748535156e-2f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.66666671633720397949219e-1f));
  p = hn::MulAdd(p, r, hn::Set(d, 0.5f));
  const V e = hn::Add(hn::MulAdd(p, hn::Mul(r, r), r), hn::Set(d, 1.0f));
  const V two_n = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(hn::BitCast(di, t), hn::Set(di, 127))));
  return hn::IfThenZeroElse(hn::Lt(v, hn::Set(d, -87.0f)), hn::Mul(e, two_n));
}

/// e^x: exp_below_88 on vectors within [-87, 88], where its results are normal floats (the C
/// library's subnormals below -87 and its infinities above 88 come from the scalar path).
void ExpArray(const float* x, float* y, int64_t n) {
  apply(x, y, n, [](D d, V v) { return exp_below_88(d, v); },
        [](D d, V v) { return not_within(d, v, -87.0f, 88.0f); }, scalar::exp);
}

/// e^v for one vector of v = x - shift (Note [SIMD rows]).
HWY_INLINE V exp_lanes(D d, V v) {
  if (HWY_UNLIKELY(!hn::AllFalse(d, hn::Not(hn::Le(v, hn::Set(d, 88.0f)))))) {
    HWY_ALIGN float buf[hn::MaxLanes(D())];
    hn::Store(v, d, buf);
    for (size_t j = 0; j < hn::Lanes(d); ++j) buf[j] = std::exp(buf[j]);
    return hn::Load(d, buf);
  }
  return exp_below_88(d, v);
}

template <bool kStore>
double exp_shift_sum(const float* x, float* y, int64_t n, float shift) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const V s = hn::Set(d, shift);
  double total = 0;
  int64_t i = 0;
  while (i + lanes <= n) {
    V acc = hn::Zero(d);
    const int64_t end = std::min(n, i + 16 * lanes);
    for (; i + lanes <= end; i += lanes) {
      const V e = exp_lanes(d, hn::Sub(hn::LoadU(d, x + i), s));
      acc = hn::Add(acc, e);
      if constexpr (kStore) hn::StoreU(e, d, y + i);
    }
    total += static_cast<double>(hn::GetLane(hn::SumOfLanes(d, acc)));
  }
  for (; i < n; ++i) {
    const float e = std::exp(x[i] - shift);
    total += static_cast<double>(e);
    if constexpr (kStore) y[i] = e;
  }
  return total;
}

double ExpShiftSumArray(const float* x, float* y, int64_t n, float shift) {
  return y != nullptr ? exp_shift_sum<true>(x, y, n, shift) : exp_shift_sum<false>(x, y, n, shift);
}

void ScaleArray(float* y, int64_t n, float s) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const V vs = hn::Set(d, s);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(hn::Mul(hn::LoadU(d, y + i), vs), d, y + i);
  for (; i < n; ++i) y[i] *= s;
}

constexpr int64_t kBlockVectors = 16;  // vectors per float block of the sums

/// The sum of f(v) over whole vectors of x[i, end) into a float vector; i moves past them.
template <class F>
HWY_INLINE V block_sum(D d, const float* x, int64_t& i, int64_t end, F f) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  V acc = hn::Zero(d);
  for (; i + lanes <= end; i += lanes) acc = hn::Add(acc, f(hn::LoadU(d, x + i)));
  return acc;
}

void MomentsArray(const float* x, int64_t n, double* mean, double* m2) {
  const D d;
  const int64_t block = kBlockVectors * static_cast<int64_t>(hn::Lanes(d));
  double total = 0, mu = 0, sq = 0;
  for (int64_t b = 0; b < n; b += block) {
    const int64_t end = std::min(n, b + block);
    const float x0 = x[b];
    const V v0 = hn::Set(d, x0);
    int64_t i = b;
    float s1 = hn::GetLane(hn::SumOfLanes(d, block_sum(d, x, i, end, [&](V v) {
      return hn::Sub(v, v0);
    })));
    for (int64_t j = i; j < end; ++j) s1 += x[j] - x0;
    const double cn = static_cast<double>(end - b);
    const float dm = s1 / static_cast<float>(cn);
    const V vdm = hn::Set(d, dm);
    i = b;
    float s2 = hn::GetLane(hn::SumOfLanes(d, block_sum(d, x, i, end, [&](V v) {
      const V dev = hn::Sub(hn::Sub(v, v0), vdm);
      return hn::Mul(dev, dev);
    })));
    for (int64_t j = i; j < end; ++j) s2 += (x[j] - x0 - dm) * (x[j] - x0 - dm);
    const double cmean = static_cast<double>(x0) + static_cast<double>(s1) / cn;
    const double all = total + cn, delta = cmean - mu;  // Chan's merge
    mu += delta * (cn / all);
    sq += static_cast<double>(s2) + delta * delta * (total * cn / all);
    total = all;
  }
  *mean = mu;
  *m2 = sq;
}

double SumSquaresArray(const float* x, int64_t n) {
  const D d;
  const int64_t block = kBlockVectors * static_cast<int64_t>(hn::Lanes(d));
  double sum = 0;
  for (int64_t b = 0; b < n; b += block) {
    const int64_t end = std::min(n, b + block);
    int64_t i = b;
    float s = hn::GetLane(hn::SumOfLanes(d, block_sum(d, x, i, end, [](V v) {
      return hn::Mul(v, v);
    })));
    for (; i < end; ++i) s += x[i] * x[i];
    sum += static_cast<double>(s);
  }
  return sum;
}

void NormAffineArray(const float* x, float* y, int64_t n, float shift, float scale,
                     const float* w, const float* b) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const V vs = hn::Set(d, shift), vk = hn::Set(d, scale), one = hn::Set(d, 1.0f);
  const V zero = hn::Zero(d);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const V t = hn::Mul(hn::Sub(hn::LoadU(d, x + i), vs), vk);
    const V vw = w != nullptr ? hn::LoadU(d, w + i) : one;
    const V vb = b != nullptr ? hn::LoadU(d, b + i) : zero;
    hn::StoreU(hn::MulAdd(t, vw, vb), d, y + i);
  }
  for (; i < n; ++i) {
    y[i] = (x[i] - shift) * scale * (w != nullptr ? w[i] : 1.0f) + (b != nullptr ? b[i] : 0.0f);
  }
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

/// sum_f32: half a float vector's lanes at a time, widened to a vector of doubles.
double SumArray(const float* x, int64_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(dd));
  auto a0 = hn::Zero(dd), a1 = hn::Zero(dd), a2 = hn::Zero(dd), a3 = hn::Zero(dd);
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    a0 = hn::Add(a0, hn::PromoteTo(dd, hn::LoadU(df, x + i)));
    a1 = hn::Add(a1, hn::PromoteTo(dd, hn::LoadU(df, x + i + lanes)));
    a2 = hn::Add(a2, hn::PromoteTo(dd, hn::LoadU(df, x + i + 2 * lanes)));
    a3 = hn::Add(a3, hn::PromoteTo(dd, hn::LoadU(df, x + i + 3 * lanes)));
  }
  double sum = hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
  for (; i < n; ++i) sum += static_cast<double>(x[i]);
  return sum;
}

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
HWY_EXPORT(MaxArray);
HWY_EXPORT(ExpShiftSumArray);
HWY_EXPORT(ScaleArray);
HWY_EXPORT(MomentsArray);
HWY_EXPORT(SumSquaresArray);
HWY_EXPORT(SumArray);
HWY_EXPORT(NormAffineArray);
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

float max_f32(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(MaxArray)(x, n); }

double exp_shift_sum_f32(const float* x, float* y, int64_t n, float shift) {
  return HWY_DYNAMIC_DISPATCH(ExpShiftSumArray)(x, y, n, shift);
}

void scale_f32(float* y, int64_t n, float s) { HWY_DYNAMIC_DISPATCH(ScaleArray)(y, n, s); }

void moments_f32(const float* x, int64_t n, double* mean, double* m2) {
  HWY_DYNAMIC_DISPATCH(MomentsArray)(x, n, mean, m2);
}

double sum_squares_f32(const float* x, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(SumSquaresArray)(x, n);
}

void norm_affine_f32(const float* x, float* y, int64_t n, float shift, float scale,
                     const float* w, const float* b) {
  HWY_DYNAMIC_DISPATCH(NormAffineArray)(x, y, n, shift, scale, w, b);
}

double sum_f32(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(SumArray)(x, n); }

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

float max_f32(const float* x, int64_t n) {
  float m = -HUGE_VALF;
  for (int64_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

double exp_shift_sum_f32(const float* x, float* y, int64_t n, float shift) {
  double total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float e = std::exp(x[i] - shift);
    total += static_cast<double>(e);
    if (y != nullptr) y[i] = e;
  }
  return total;
}

void scale_f32(float* y, int64_t n, float s) {
  for (int64_t i = 0; i < n; ++i) y[i] *= s;
}

void moments_f32(const float* x, int64_t n, double* mean, double* m2) {
  double mu = 0, sq = 0;  // Welford's update, in double
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i], delta = v - mu;
    mu += delta / static_cast<double>(i + 1);
    sq += delta * (v - mu);
  }
  *mean = mu;
  *m2 = sq;
}

double sum_squares_f32(const float* x, int64_t n) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]) * x[i];
  return sum;
}

double sum_f32(const float* x, int64_t n) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]);
  return sum;
}

void norm_affine_f32(const float* x, float* y, int64_t n, float shift, float scale,
                     const float* w, const float* b) {
  for (int64_t i = 0; i < n; ++i) {
    y[i] = (x[i] - shift) * scale * (w != nullptr ? w[i] : 1.0f) + (b != nullptr ? b[i] : 0.0f);
  }
}

const char* target_name() { return "scalar"; }

#endif  // KF_CPU_HAVE_HWY

}  // namespace kf::cpu::simd
#endif  // !KF_CPU_HAVE_HWY || HWY_ONCE
