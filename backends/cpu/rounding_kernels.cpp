// rounding_kernels.cpp — floor, ceil, trunc, round, sign, clamp (tag pointwise). The input has
// the output's dtype (for clamp the core has converted an integer self to float32 when a bound is
// a float); the output may be any strided view and may alias the input exactly. 16-bit floats
// compute in float.
//
// floor/ceil/trunc/round are the identity on integers (bool is refused by the meta); round is
// half to even (std::nearbyint in the default rounding mode), with decimals as PyTorch computes it:
// nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d for negative d.
// Complex round rounds the real and the imaginary part each (the array API standard's). sign is
// (0 < x) - (x < 0), so sign(-0.0) = 0, but sign(NaN) is NaN (the array API standard's and
// numpy's; PyTorch gives 0); a bool stays itself; a complex z is z / |z|, 0 for 0 and NaN + NaN j
// when either part is NaN. clamp: see Note [clamp].
#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <type_traits>

#include "kernels.hpp"
#include "unary_map.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kRoundingMask = kNumericMask;
constexpr uint32_t kRoundMask = kNumericMask | kComplexMask;
constexpr uint32_t kSignMask = kOrderedMask | kComplexMask;
constexpr uint32_t kClampMask = kNumericMask;

template <class M>
inline M floor_of(M x) {
  if constexpr (std::is_floating_point_v<M>) return std::floor(x);
  return x;
}
template <class M>
inline M ceil_of(M x) {
  if constexpr (std::is_floating_point_v<M>) return std::ceil(x);
  return x;
}
template <class M>
inline M trunc_of(M x) {
  if constexpr (std::is_floating_point_v<M>) return std::trunc(x);
  return x;
}
template <class M>
inline M sign_of(M x) {
  if constexpr (std::is_same_v<M, bool>) {
    return x;
  } else if constexpr (is_complex_v<M>) {
    using R = typename M::value_type;
    if (std::isnan(x.real()) || std::isnan(x.imag())) {
      return M(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
    }
    if (x.real() == R(0) && x.imag() == R(0)) return M(R(0), R(0));
    return x / std::abs(x);
  } else {
    if constexpr (std::is_floating_point_v<M>) {
      if (std::isnan(x)) return x;
    }
    return static_cast<M>(static_cast<int>(M(0) < x) - static_cast<int>(x < M(0)));
  }
}

void floor_kernel(const ops::floor::Args& a) {
  unary_map<kRoundingMask>(a.self, a.out, "floor", [](auto x) { return floor_of(x); });
}
void ceil_kernel(const ops::ceil::Args& a) {
  unary_map<kRoundingMask>(a.self, a.out, "ceil", [](auto x) { return ceil_of(x); });
}
void trunc_kernel(const ops::trunc::Args& a) {
  unary_map<kRoundingMask>(a.self, a.out, "trunc", [](auto x) { return trunc_of(x); });
}
void sign_kernel(const ops::sign::Args& a) {
  unary_map<kSignMask>(a.self, a.out, "sign", [](auto x) { return sign_of(x); });
}

/// One real value rounded half to even at `decimals` places (scale = 10^|decimals|).
template <class R>
inline R round_at(R x, int64_t decimals, R scale) {
  if (decimals == 0) return std::nearbyint(x);
  return decimals < 0 ? std::nearbyint(x / scale) * scale : std::nearbyint(x * scale) / scale;
}

template <class T>
void round_typed(const kf_tensor_view_t& self, const kf_tensor_view_t& out, int64_t decimals) {
  using M = OpMath<T>;
  using R = typename std::conditional_t<is_complex_v<M>, M, std::complex<M>>::value_type;
  // |decimals| in double: -decimals overflows for INT64_MIN.
  const R scale = static_cast<R>(std::pow(10.0, std::fabs(static_cast<double>(decimals))));
  unary_same<T>(out, self, [decimals, scale](M x) {
    if constexpr (is_complex_v<M>) {
      return M(round_at(x.real(), decimals, scale), round_at(x.imag(), decimals, scale));
    } else {
      return static_cast<M>(round_at(x, decimals, scale));
    }
  });
}

void round_kernel(const ops::round::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "round");
  dispatch<kRoundMask>(a.out.dtype, "round", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      if (a.decimals != 0) {
        throw kf::plugin::KernelError(KF_INVALID_ARGUMENT,
                                      "round: decimals != 0 needs a floating-point tensor");
      }
      map1<T, T>(a.out, a.self, [](T x) { return x; });
    } else {
      round_typed<T>(a.self, a.out, a.decimals);
    }
  });
}

// Note [clamp]
// min(max(x, lo), hi) in the compute type, a missing bound being the type's extreme: where
// lo > hi every element becomes hi (PyTorch). x = NaN stays NaN (both comparisons are false);
// a NaN bound makes every element NaN (PyTorch fills the result with NaN). Integer bounds
// were range-checked by the meta, so the conversions below are exact.
template <class T>
void clamp_typed(const kf_tensor_view_t& self, const kf_tensor_view_t& out,
                 const std::optional<kf_scalar_t>& lo_arg,
                 const std::optional<kf_scalar_t>& hi_arg) {
  using M = OpMath<T>;
  using L = std::numeric_limits<M>;
  const M lo = lo_arg ? scalar_to<M>(*lo_arg) : (L::has_infinity ? -L::infinity() : L::lowest());
  const M hi = hi_arg ? scalar_to<M>(*hi_arg) : (L::has_infinity ? L::infinity() : L::max());
  if constexpr (std::is_floating_point_v<M>) {
    if (lo != lo || hi != hi) {
      unary_same<T>(out, self, [](M) { return L::quiet_NaN(); });
      return;
    }
  }
  unary_same<T>(out, self, [lo, hi](M x) {
    const M v = x < lo ? lo : x;
    return v > hi ? hi : v;
  });
}

void clamp_kernel(const ops::clamp::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "clamp");
  dispatch<kClampMask>(a.out.dtype, "clamp", [&](auto tag) {
    clamp_typed<typename decltype(tag)::type>(a.self, a.out, a.min, a.max);
  });
}

}  // namespace

kf_status_t register_rounding_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, floor, floor_kernel, kRoundingMask);
  KF_CPU_KERNEL(reg, ceil, ceil_kernel, kRoundingMask);
  KF_CPU_KERNEL(reg, trunc, trunc_kernel, kRoundingMask);
  KF_CPU_KERNEL(reg, round, round_kernel, kRoundMask);
  KF_CPU_KERNEL(reg, sign, sign_kernel, kSignMask);
  KF_CPU_KERNEL(reg, clamp, clamp_kernel, kClampMask);
  return KF_OK;
}

}  // namespace kf::cpu
