// real_binary.cu — the kernels of atan2, hypot, copysign, logaddexp, nextafter, floor_divide
// and remainder (real_binary_launch.hpp), with the CPU backend's semantics
// (backends/cpu/real_binary_kernels.cpp, floor_division_kernels.cpp):
//   atan2, hypot, copysign  CUDA's, with C99's special cases (atan2(+0, -0) = +pi,
//                           hypot(inf, NaN) = inf)
//   logaddexp     numpy's: x + log(2) when x == y (so -inf and +inf pairs stay exact), else
//                 max + log1p(exp(-|x - y|)), NaN when either is NaN
//   nextafter     in the dtype itself: nextafterf/nextafter, and the 16-bit floats on their
//                 bits (a float step is far below their spacing), as C's nextafter
//   floor_divide, remainder  Python's // and % (Note [Floor division])
// 16-bit floats compute in float; inputs arrive broadcast (zero strides) and converted.
#include <cstdint>

#include "device_common.cuh"
#include "pointwise.cuh"
#include "real_binary_launch.hpp"

namespace kf::cuda {
namespace {

using namespace pointwise;  // NOLINT: the helpers of the pointwise kernels

KF_CUDA_MATH2_FUNCTOR(Atan2, m_atan2)
KF_CUDA_MATH2_FUNCTOR(Hypot, m_hypot)
KF_CUDA_MATH2_FUNCTOR(Copysign, m_copysign)

struct Logaddexp {
  template <class C>
  __device__ C operator()(C x, C y) const {
    if (x == y) return x + C(0.69314718055994530942);  // +-inf and finite
    const C d = x - y;
    if (d > C(0)) return x + m_log1p(m_exp(-d));
    if (d <= C(0)) return y + m_log1p(m_exp(d));
    return d;  // NaN
  }
};

/// The bits of the 16-bit float H whose value is f (exact: f is one of H's values), and the
/// value of bits b.
template <class H>
__device__ __forceinline__ uint16_t bits_of(float f) {
  if constexpr (std::is_same_v<H, __half>) {
    return __half_as_ushort(__float2half_rn(f));
  } else {
    return __bfloat16_as_ushort(__float2bfloat16_rn(f));
  }
}
template <class H>
__device__ __forceinline__ float value_of(uint16_t b) {
  if constexpr (std::is_same_v<H, __half>) {
    return __half2float(__ushort_as_half(b));
  } else {
    return __bfloat162float(__ushort_as_bfloat16(b));
  }
}

/// nextafter for storage type T. A 16-bit float steps on its bits, as the CPU's
/// half_nextafter: NaN when either is NaN, `to` when they are equal (so +-0 takes to's sign),
/// the smallest subnormal of to's sign after a zero; the result is exact in float.
template <class T>
struct Nextafter {
  template <class C>
  __device__ C operator()(C from, C to) const {
    if constexpr (std::is_same_v<C, T>) {
      return m_nextafter(from, to);
    } else {
      if (from != from) return from;
      if (to != to) return to;
      if (from == to) return to;
      if (from == C(0)) return value_of<T>(signbit(to) ? 0x8001u : 0x0001u);
      const bool away = (from < to) == (from > C(0));  // away from zero: a greater magnitude
      const uint16_t bits = bits_of<T>(from);
      return value_of<T>(static_cast<uint16_t>(away ? bits + 1u : bits - 1u));
    }
  }
};

// Note [Floor division]
// The CPU backend's divmod (floor_division_kernels.cpp). Integers: the quotient rounds toward
// -inf and the remainder takes the divisor's sign; a zero divisor gives 0 for both (numpy),
// and MIN // -1 wraps to MIN (remainder 0). Floats: the remainder is fmod(x, y) moved into the
// divisor's sign (a zero remainder is a zero of that sign); the quotient is (x - remainder) /
// y snapped to the nearest integer (numpy's and CPython's rule); a zero divisor, or an
// infinite x over a finite y, gives x / y, and x % 0 is NaN.
template <class C>
struct DivMod {
  C quotient, remainder;
};

template <class C>
__device__ __forceinline__ DivMod<C> int_divmod(C x, C y) {
  if (y == C(0)) return {C(0), C(0)};
  if constexpr (std::is_signed_v<C>) {
    if (y == C(-1)) return {wrap_sub(C(0), x), C(0)};  // MIN // -1 wraps to MIN
    C q = static_cast<C>(x / y), r = static_cast<C>(x % y);
    if (r != C(0) && ((r < C(0)) != (y < C(0)))) {
      q = static_cast<C>(q - 1);
      r = static_cast<C>(r + y);
    }
    return {q, r};
  } else {
    return {static_cast<C>(x / y), static_cast<C>(x % y)};
  }
}

template <class C>
__device__ __forceinline__ DivMod<C> float_divmod(C x, C y) {
  C r = m_fmod(x, y);
  if (y == C(0)) return {x / y, r};
  if (isinf(x) && isfinite(y)) return {x / y, r};
  C q = (x - r) / y;
  if (r != C(0)) {
    if ((y < C(0)) != (r < C(0))) {
      r += y;
      q -= C(1);
    }
  } else {
    r = m_copysign(C(0), y);
  }
  if (q != C(0)) {
    const C f = m_floor(q);
    q = q - f > C(0.5) ? f + C(1) : f;
  } else {
    q = m_copysign(C(0), x / y);
  }
  return {q, r};
}

template <bool Remainder>
struct FloorDivision {
  template <class C>
  __device__ C operator()(C x, C y) const {
    DivMod<C> d;
    if constexpr (std::is_floating_point_v<C>) {
      d = float_divmod(x, y);
    } else {
      d = int_divmod(x, y);
    }
    return Remainder ? d.remainder : d.quotient;
  }
};

template <RealBinaryOp Op, class F>
bool run(int32_t dtype, const Operands& p, const F& f, cudaStream_t stream) {
  return binary_same<real_binary_dtype_mask(Op)>(dtype, p, f, stream);
}

bool run_nextafter(int32_t dtype, const Operands& p, cudaStream_t stream) {
  return dispatch<real_binary_dtype_mask(RealBinaryOp::kNextafter)>(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch<Nextafter<T>, T, T, T>(p, Nextafter<T>{}, stream);
  });
}

}  // namespace

void launch_real_binary(RealBinaryOp op, int32_t dtype, const Operands& p, cudaStream_t stream) {
  if (p.numel <= 0) return;
  bool done = false;
  switch (op) {
    case RealBinaryOp::kAtan2: done = run<RealBinaryOp::kAtan2>(dtype, p, Atan2{}, stream); break;
    case RealBinaryOp::kHypot: done = run<RealBinaryOp::kHypot>(dtype, p, Hypot{}, stream); break;
    case RealBinaryOp::kCopysign:
      done = run<RealBinaryOp::kCopysign>(dtype, p, Copysign{}, stream);
      break;
    case RealBinaryOp::kLogaddexp:
      done = run<RealBinaryOp::kLogaddexp>(dtype, p, Logaddexp{}, stream);
      break;
    case RealBinaryOp::kNextafter: done = run_nextafter(dtype, p, stream); break;
    case RealBinaryOp::kFloorDivide:
      done = run<RealBinaryOp::kFloorDivide>(dtype, p, FloorDivision<false>{}, stream);
      break;
    case RealBinaryOp::kRemainder:
      done = run<RealBinaryOp::kRemainder>(dtype, p, FloorDivision<true>{}, stream);
      break;
  }
  if (!done) unsupported("real_binary", static_cast<int>(op), dtype);
}

}  // namespace kf::cuda
