// bitwise_kernels.cpp — bitwise_and, bitwise_or, bitwise_xor, bitwise_not, bitwise_left_shift,
// bitwise_right_shift (tag pointwise). The inputs arrive broadcast and converted to the promoted
// dtype, the output's: integers, and bool for and/or/xor/not (where they are the logical ops;
// the meta refuses the rest). The output may be any strided view and may alias an input
// exactly. Integers are two's complement: ~x = -x - 1.
//
// Shifts by a count in [0, width) are C's, the right shift arithmetic for signed dtypes
// (floor(x / 2^n)) and the left shift wrapping. A count of the width or more, or a negative one,
// shifts every bit out: 0 to the left, and to the right 0, or -1 for a negative signed x (numpy
// on x86-64 gives the same; C leaves it undefined).
#include <cstdint>
#include <type_traits>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kLogicMask = kIntMask | bit(KF_BOOL);
constexpr uint32_t kShiftMask = kIntMask;

enum class Bits { kAnd, kOr, kXor, kLeft, kRight };

template <class T>
inline bool count_in_range(T n) {
  if constexpr (std::is_signed_v<T>) {
    if (n < T(0)) return false;
  }
  return static_cast<uint64_t>(n) < sizeof(T) * 8;
}

template <Bits B, class T>
inline T apply(T x, T y) {
  if constexpr (std::is_same_v<T, bool>) {
    if constexpr (B == Bits::kAnd) return x && y;
    if constexpr (B == Bits::kOr) return x || y;
    if constexpr (B == Bits::kXor) return x != y;
  } else if constexpr (B == Bits::kAnd) {
    return static_cast<T>(x & y);
  } else if constexpr (B == Bits::kOr) {
    return static_cast<T>(x | y);
  } else if constexpr (B == Bits::kXor) {
    return static_cast<T>(x ^ y);
  } else if constexpr (B == Bits::kLeft) {
    if (!count_in_range(y)) return T(0);
    return static_cast<T>(static_cast<Wrap<T>>(x) << y);
  } else {
    if (!count_in_range(y)) {
      if constexpr (std::is_signed_v<T>) return x < T(0) ? T(-1) : T(0);
      return T(0);
    }
    return static_cast<T>(x >> y);
  }
}

template <Bits B, uint32_t Mask = B == Bits::kLeft || B == Bits::kRight ? kShiftMask : kLogicMask>
void bitwise(const kf_tensor_view_t& self, const kf_tensor_view_t& other,
             const kf_tensor_view_t& out, const char* op) {
  require_dtype(self, out.dtype, "self", op);
  require_dtype(other, out.dtype, "other", op);
  dispatch<Mask>(out.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    map2<T, T, T>(out, self, other, [](T x, T y) { return apply<B>(x, y); });
  });
}

void bitwise_and_kernel(const ops::bitwise_and::Args& a) {
  bitwise<Bits::kAnd>(a.self, a.other, a.out, "bitwise_and");
}
void bitwise_or_kernel(const ops::bitwise_or::Args& a) {
  bitwise<Bits::kOr>(a.self, a.other, a.out, "bitwise_or");
}
void bitwise_xor_kernel(const ops::bitwise_xor::Args& a) {
  bitwise<Bits::kXor>(a.self, a.other, a.out, "bitwise_xor");
}
void bitwise_left_shift_kernel(const ops::bitwise_left_shift::Args& a) {
  bitwise<Bits::kLeft>(a.self, a.other, a.out, "bitwise_left_shift");
}
void bitwise_right_shift_kernel(const ops::bitwise_right_shift::Args& a) {
  bitwise<Bits::kRight>(a.self, a.other, a.out, "bitwise_right_shift");
}
void bitwise_not_kernel(const ops::bitwise_not::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "bitwise_not");
  dispatch<kLogicMask>(a.out.dtype, "bitwise_not", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      map1<bool, bool>(a.out, a.self, [](bool x) { return !x; });
    } else {
      map1<T, T>(a.out, a.self, [](T x) { return static_cast<T>(~x); });
    }
  });
}

}  // namespace

kf_status_t register_bitwise_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, bitwise_and, bitwise_and_kernel, kLogicMask);
  KF_CPU_KERNEL(reg, bitwise_or, bitwise_or_kernel, kLogicMask);
  KF_CPU_KERNEL(reg, bitwise_xor, bitwise_xor_kernel, kLogicMask);
  KF_CPU_KERNEL(reg, bitwise_not, bitwise_not_kernel, kLogicMask);
  KF_CPU_KERNEL(reg, bitwise_left_shift, bitwise_left_shift_kernel, kShiftMask);
  KF_CPU_KERNEL(reg, bitwise_right_shift, bitwise_right_shift_kernel, kShiftMask);
  return KF_OK;
}

}  // namespace kf::cpu
