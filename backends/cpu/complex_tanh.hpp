// complex_tanh.hpp — tanh_of: std::tanh, but for a complex z = x + iy with x infinite and y
// finite, ±1 + i·copysign(0, y): the array API standard's tanh(+inf + iy) = 1 + 0j for y > 0,
// carried to the other quadrants by tanh's symmetries (C99's ctanh gives the zero the sign of
// sin(2y) instead). tan is -i·tanh(iz) (trig_kernels.cpp), so its special cases follow.
#pragma once

#include <cmath>
#include <complex>

#include "dtype_dispatch.hpp"

namespace kf::cpu {

template <class M>
inline M tanh_of(M z) {
  if constexpr (is_complex_v<M>) {
    using R = typename M::value_type;
    if (std::isinf(z.real()) && std::isfinite(z.imag())) {
      return M(std::copysign(R(1), z.real()), std::copysign(R(0), z.imag()));
    }
  }
  return std::tanh(z);
}

/// tan(z) = -i·tanh(iz): with w = tanh(-y + ix), the result is w.imag() - i·w.real().
template <class M>
inline M tan_of(M z) {
  if constexpr (is_complex_v<M>) {
    const M w = tanh_of(M(-z.imag(), z.real()));
    return M(w.imag(), -w.real());
  } else {
    return std::tan(z);
  }
}

}  // namespace kf::cpu
