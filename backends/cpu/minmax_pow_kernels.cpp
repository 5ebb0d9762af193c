// minmax_pow_kernels.cpp — maximum, minimum, pow (tag pointwise). Inputs arrive broadcast and
// converted to the promoted dtype, which is the output's; the output may be any strided view
// and may alias an input exactly (in-place pow_).
//
// maximum/minimum propagate NaN (either input NaN gives NaN); on bool they are or/and.
// pow: see Note [Integer pow].
#include <cmath>
#include <complex>
#include <type_traits>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kMinMaxMask = kOrderedMask;
constexpr uint32_t kPowMask = kNumericMask | kComplexMask;

void check_inputs(const kf_tensor_view_t& a, const kf_tensor_view_t& b,
                  const kf_tensor_view_t& out, const char* op) {
  require_dtype(a, out.dtype, "self", op);
  require_dtype(b, out.dtype, "other", op);
}

template <bool Max, class M>
inline M pick(M a, M b) {
  if constexpr (std::is_floating_point_v<M>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  if constexpr (Max) {
    return a < b ? b : a;
  } else {
    return b < a ? b : a;
  }
}

template <bool Max>
void min_max(const kf_tensor_view_t& self, const kf_tensor_view_t& other,
             const kf_tensor_view_t& out, const char* op) {
  check_inputs(self, other, out, op);
  dispatch<kMinMaxMask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_same<T>(out, self, other, [](OpMath<T> x, OpMath<T> y) { return pick<Max>(x, y); });
  });
}

void maximum_kernel(const ops::maximum::Args& a) {
  min_max<true>(a.self, a.other, a.out, "maximum");
}
void minimum_kernel(const ops::minimum::Args& a) {
  min_max<false>(a.self, a.other, a.out, "minimum");
}

// Note [Integer pow]
// PyTorch's integer pow: repeated squaring in the dtype's two's-complement arithmetic (so it
// wraps: int8 3^5 = 243 - 256 = -13), x^0 = 1 (0^0 included), and for a negative exponent
// the exact result truncated toward zero: 1 for base 1, +-1 for base -1 by the exponent's
// parity, 0 for every other base (0 included: no division error). The squaring runs in the
// unsigned type of Wrap<T>, which wraps without UB; its low bits are T's result.
template <class T>
inline T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return T(1);
      if (base == -1) return (exp & 1) != 0 ? T(-1) : T(1);
      return T(0);
    }
  }
  using U = Wrap<T>;
  U result = 1, b = static_cast<U>(base);
  auto e = static_cast<std::make_unsigned_t<T>>(exp);
  while (e != 0) {
    if ((e & 1u) != 0) result = static_cast<U>(result * b);
    b = static_cast<U>(b * b);
    e = static_cast<decltype(e)>(e >> 1);
  }
  return static_cast<T>(result);
}

// Whether every element of v reads one location (a 0-dim or expanded exponent).
bool uniform(const kf_tensor_view_t& v) {
  for (int32_t d = 0; d < v.ndim; ++d) {
    if (v.shape[d] > 1 && v.strides[d] != 0) return false;
  }
  return v.numel > 0;
}

// x ** y of floats: std::pow (IEEE: x^0 = 1, NaN^0 too, 1^y = 1, negative^fraction = NaN); of
// complex numbers exp(y log x) (the array API standard's definition), with x^0 = 1 for every
// x and 0^y = 0 when y's real part is positive (std::pow gives 0 for 0^0).
template <class M>
inline M pow_of(M x, M y) {
  if constexpr (is_complex_v<M>) {
    using R = typename M::value_type;
    if (y == M(0)) return M(1);
    if (x == M(0) && y.real() > R(0)) return M(0);
    return std::exp(y * std::log(x));
  } else {
    return static_cast<M>(std::pow(x, y));
  }
}

// x ** y for one exponent y (read before anything is written): x * x for y = 2, the common
// square, which is what pow rounds to anyway; otherwise pow with the exponent hoisted.
template <class T>
void pow_uniform(const kf_tensor_view_t& out, const kf_tensor_view_t& self, T exponent) {
  using M = OpMath<T>;
  if constexpr (std::is_integral_v<T>) {
    if (exponent == 2) {
      unary_same<T>(out, self, [](T x) { return wrap_mul(x, x); });
    } else {
      unary_same<T>(out, self, [exponent](T x) { return int_pow(x, exponent); });
    }
  } else {
    const M y = load(exponent);
    if (y == M(2)) {
      unary_same<T>(out, self, [](M x) { return x * x; });
    } else {
      unary_same<T>(out, self, [y](M x) { return pow_of(x, y); });
    }
  }
}

void pow_kernel(const ops::pow::Args& a) {
  check_inputs(a.self, a.exponent, a.out, "pow");
  dispatch<kPowMask>(a.out.dtype, "pow", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (uniform(a.exponent)) {
      pow_uniform<T>(a.out, a.self, *static_cast<const T*>(a.exponent.data));
    } else if constexpr (std::is_integral_v<T>) {
      map2<T, T, T>(a.out, a.self, a.exponent, [](T x, T y) { return int_pow(x, y); });
    } else {
      using M = OpMath<T>;
      binary_same<T>(a.out, a.self, a.exponent, [](M x, M y) { return pow_of(x, y); });
    }
  });
}

}  // namespace

kf_status_t register_minmax_pow_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, maximum, maximum_kernel, kMinMaxMask);
  KF_CPU_KERNEL(reg, minimum, minimum_kernel, kMinMaxMask);
  KF_CPU_KERNEL(reg, pow, pow_kernel, kPowMask);
  return KF_OK;
}

}  // namespace kf::cpu
