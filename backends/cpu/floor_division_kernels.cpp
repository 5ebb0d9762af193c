// floor_division_kernels.cpp — floor_divide, remainder (tag pointwise): Python's // and %.
// Both inputs arrive broadcast and converted to the promoted real dtype (bool and complex are
// refused by the meta), which is the output's; the output may be any strided view and may alias
// an input exactly.
//
// Integers: the quotient rounds toward -inf and the remainder takes the divisor's sign. A zero
// divisor gives 0 for both (numpy; the standard leaves it to the library), and the one
// overflowing quotient, MIN // -1, wraps to MIN (its remainder is 0).
// Floats: the remainder is fmod(x, y) moved into the divisor's sign (a zero remainder is a zero
// of that sign); the quotient is (x - remainder) / y, snapped to the nearest integer, so that
// x == y * (x // y) + x % y holds as closely as floats allow (numpy's and CPython's rule). A zero
// divisor gives x / y (+-inf, NaN for 0 / 0) and an infinite x over a finite y gives x / y too
// (the standard's floor(x / y), where Python says NaN); x % 0 is NaN.
#include <cmath>
#include <limits>
#include <type_traits>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kDivisionMask = kNumericMask;

template <class M>
struct DivMod {
  M quotient, remainder;
};

template <class M>
inline DivMod<M> int_divmod(M x, M y) {
  if (y == M(0)) return {M(0), M(0)};
  if constexpr (std::is_signed_v<M>) {
    if (y == M(-1)) return {wrap_sub(M(0), x), M(0)};  // MIN // -1 wraps to MIN
    M q = static_cast<M>(x / y), r = static_cast<M>(x % y);
    if (r != M(0) && ((r < M(0)) != (y < M(0)))) {
      q = static_cast<M>(q - 1);
      r = static_cast<M>(r + y);
    }
    return {q, r};
  } else {
    return {static_cast<M>(x / y), static_cast<M>(x % y)};
  }
}

template <class M>
inline DivMod<M> float_divmod(M x, M y) {
  M r = std::fmod(x, y);
  if (y == M(0)) return {x / y, r};
  if (std::isinf(x) && std::isfinite(y)) return {x / y, r};
  M q = (x - r) / y;
  if (r != M(0)) {
    if ((y < M(0)) != (r < M(0))) {
      r += y;
      q -= M(1);
    }
  } else {
    r = std::copysign(M(0), y);
  }
  if (q != M(0)) {
    const M f = std::floor(q);
    q = q - f > M(0.5) ? f + M(1) : f;
  } else {
    q = std::copysign(M(0), x / y);
  }
  return {q, r};
}

template <class M>
inline DivMod<M> divmod(M x, M y) {
  if constexpr (std::is_floating_point_v<M>) {
    return float_divmod(x, y);
  } else {
    return int_divmod(x, y);
  }
}

template <bool Remainder>
void floor_division(const kf_tensor_view_t& self, const kf_tensor_view_t& other,
                    const kf_tensor_view_t& out, const char* op) {
  require_dtype(self, out.dtype, "self", op);
  require_dtype(other, out.dtype, "other", op);
  dispatch<kDivisionMask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_same<T>(out, self, other, [](OpMath<T> x, OpMath<T> y) {
      const DivMod<OpMath<T>> d = divmod(x, y);
      return Remainder ? d.remainder : d.quotient;
    });
  });
}

void floor_divide_kernel(const ops::floor_divide::Args& a) {
  floor_division<false>(a.self, a.other, a.out, "floor_divide");
}
void remainder_kernel(const ops::remainder::Args& a) {
  floor_division<true>(a.self, a.other, a.out, "remainder");
}

}  // namespace

kf_status_t register_floor_division_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, floor_divide, floor_divide_kernel, kDivisionMask);
  KF_CPU_KERNEL(reg, remainder, remainder_kernel, kDivisionMask);
  return KF_OK;
}

}  // namespace kf::cpu
