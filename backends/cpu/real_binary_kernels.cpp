// real_binary_kernels.cpp — atan2, hypot, copysign, logaddexp, nextafter (tag pointwise).
// Floating dtypes: both inputs arrive broadcast and converted to the promoted floating dtype
// (integers and bool give float32, complex is refused: meta broadcast_binary_real_float), which
// is the output's; the output may be any strided view and may alias an input exactly.
//
// atan2, hypot and copysign are the C library's (atan2(+0, -0) = +pi, hypot(inf, NaN) = inf).
// 16-bit floats compute in float, where all three round once to the same 16-bit result.
// logaddexp is numpy's: x + log(2) when x == y (so -inf and +inf pairs stay exact), else
// max + log1p(exp(-|x - y|)), NaN when either is NaN.
// nextafter steps in the dtype itself: for the 16-bit floats on their bits, since a step of
// float32 is far below their spacing.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kRealFloatMask = kAllFloatMask;

void check_inputs(const kf_tensor_view_t& a, const kf_tensor_view_t& b,
                  const kf_tensor_view_t& out, const char* op) {
  require_dtype(a, out.dtype, "self", op);
  require_dtype(b, out.dtype, "other", op);
}

template <class M>
inline M logaddexp_of(M x, M y) {
  if (x == y) return x + M(0.693147180559945309417232121458176568L);  // +-inf and finite
  const M d = x - y;
  if (d > M(0)) return x + std::log1p(std::exp(-d));
  if (d <= M(0)) return y + std::log1p(std::exp(d));
  return d;  // NaN
}

// The 16-bit float after `from` toward `to` (both as their bits), as C's nextafter: NaN when
// either is NaN, `to` when they are equal (so +-0 takes to's sign), the smallest subnormal of
// the right sign after a zero.
template <class H>
inline H half_nextafter(H from, H to) {
  const float f = to_float(from), t = to_float(to);
  if (f != f) return from;
  if (t != t) return to;
  if (f == t) return to;
  if (f == 0.0f) return H{static_cast<uint16_t>((to.bits & 0x8000u) | 1u)};
  const bool away = (f < t) == (f > 0.0f);  // moving away from zero grows the magnitude
  return H{static_cast<uint16_t>(away ? from.bits + 1u : from.bits - 1u)};
}

// out = f(self, other) in OpMath<T> for every floating dtype.
template <class Args, class F>
void float_binary(const Args& a, const char* op, F f) {
  check_inputs(a.self, a.other, a.out, op);
  dispatch<kRealFloatMask>(a.out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_same<T>(a.out, a.self, a.other, [f](OpMath<T> x, OpMath<T> y) { return f(x, y); });
  });
}

void atan2_kernel(const ops::atan2::Args& a) {
  float_binary(a, "atan2", [](auto x, auto y) { return std::atan2(x, y); });
}
void hypot_kernel(const ops::hypot::Args& a) {
  float_binary(a, "hypot", [](auto x, auto y) { return std::hypot(x, y); });
}
void copysign_kernel(const ops::copysign::Args& a) {
  float_binary(a, "copysign", [](auto x, auto y) { return std::copysign(x, y); });
}
void logaddexp_kernel(const ops::logaddexp::Args& a) {
  float_binary(a, "logaddexp", [](auto x, auto y) { return logaddexp_of(x, y); });
}
void nextafter_kernel(const ops::nextafter::Args& a) {
  check_inputs(a.self, a.other, a.out, "nextafter");
  dispatch<kRealFloatMask>(a.out.dtype, "nextafter", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_half_v<T>) {
      map2<T, T, T>(a.out, a.self, a.other, [](T x, T y) { return half_nextafter(x, y); });
    } else {
      map2<T, T, T>(a.out, a.self, a.other, [](T x, T y) { return std::nextafter(x, y); });
    }
  });
}

}  // namespace

kf_status_t register_real_binary_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, atan2, atan2_kernel, kRealFloatMask);
  KF_CPU_KERNEL(reg, hypot, hypot_kernel, kRealFloatMask);
  KF_CPU_KERNEL(reg, copysign, copysign_kernel, kRealFloatMask);
  KF_CPU_KERNEL(reg, logaddexp, logaddexp_kernel, kRealFloatMask);
  KF_CPU_KERNEL(reg, nextafter, nextafter_kernel, kRealFloatMask);
  return KF_OK;
}

}  // namespace kf::cpu
