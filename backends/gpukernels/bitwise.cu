// bitwise.cu — the kernels of bitwise_and, bitwise_or, bitwise_xor, bitwise_left_shift and
// bitwise_right_shift (bitwise_launch.hpp), with the CPU backend's semantics
// (backends/cpu/bitwise_kernels.cpp): two's complement integers, and the logical ops on bool.
// A shift by a count in [0, width) is C's, the right shift arithmetic for signed dtypes
// (floor(x / 2^n)) and the left shift wrapping; a count of the width or more, or a negative
// one, shifts every bit out: 0 to the left, and to the right 0, or -1 for a negative signed x.
#include <cstdint>

#include "bitwise_launch.hpp"
#include "device_common.cuh"
#include "pointwise.cuh"

namespace kf::cuda {
namespace {

using namespace pointwise;  // NOLINT: the helpers of the pointwise kernels

struct And {  // integers and bool (0 and 1: logical)
  template <class C>
  __device__ C operator()(C x, C y) const { return static_cast<C>(x & y); }
};
struct Or {
  template <class C>
  __device__ C operator()(C x, C y) const { return static_cast<C>(x | y); }
};
struct Xor {
  template <class C>
  __device__ C operator()(C x, C y) const { return static_cast<C>(x ^ y); }
};

/// Whether shift count n is in [0, width of C).
template <class C>
__device__ __forceinline__ bool count_in_range(C n) {
  if constexpr (std::is_signed_v<C>) {
    if (n < C(0)) return false;
  }
  return static_cast<uint64_t>(n) < sizeof(C) * 8;
}

struct LeftShift {
  template <class C>
  __device__ C operator()(C x, C n) const {
    if (!count_in_range(n)) return C(0);
    return static_cast<C>(static_cast<Wrap<C>>(x) << n);
  }
};

struct RightShift {
  template <class C>
  __device__ C operator()(C x, C n) const {
    if (!count_in_range(n)) {
      if constexpr (std::is_signed_v<C>) {
        return x < C(0) ? C(-1) : C(0);
      } else {
        return C(0);
      }
    }
    return static_cast<C>(x >> n);
  }
};

template <BitwiseOp Op, class F>
bool run(int32_t dtype, const Operands& p, const F& f, cudaStream_t stream) {
  return binary_same<bitwise_dtype_mask(Op)>(dtype, p, f, stream);
}

}  // namespace

void launch_bitwise(BitwiseOp op, int32_t dtype, const Operands& p, cudaStream_t stream) {
  if (p.numel <= 0) return;
  bool done = false;
  switch (op) {
    case BitwiseOp::kAnd: done = run<BitwiseOp::kAnd>(dtype, p, And{}, stream); break;
    case BitwiseOp::kOr: done = run<BitwiseOp::kOr>(dtype, p, Or{}, stream); break;
    case BitwiseOp::kXor: done = run<BitwiseOp::kXor>(dtype, p, Xor{}, stream); break;
    case BitwiseOp::kLeftShift:
      done = run<BitwiseOp::kLeftShift>(dtype, p, LeftShift{}, stream);
      break;
    case BitwiseOp::kRightShift:
      done = run<BitwiseOp::kRightShift>(dtype, p, RightShift{}, stream);
      break;
  }
  if (!done) unsupported("bitwise", static_cast<int>(op), dtype);
}

}  // namespace kf::cuda
