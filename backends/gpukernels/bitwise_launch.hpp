// bitwise_launch.hpp — the launcher of bitwise_and, bitwise_or, bitwise_xor,
// bitwise_left_shift and bitwise_right_shift (bitwise.cu), shared by their host glue
// (bitwise_ops.cpp). Output and inputs have one dtype; the Operands are {out, self, other}.
// bitwise_not is a unary op (unary_launch.hpp). Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "cuda_dtypes.hpp"
#include "operands.hpp"
#include "pointwise_common.hpp"

namespace kf::cuda {

enum class BitwiseOp : int32_t { kAnd, kOr, kXor, kLeftShift, kRightShift };

/// The dtypes of each op: the CPU backend's registration (bitwise_kernels.cpp): integers, and
/// bool for and/or/xor.
constexpr uint32_t bitwise_dtype_mask(BitwiseOp op) {
  switch (op) {
    case BitwiseOp::kLeftShift: return kIntDtypes;
    case BitwiseOp::kRightShift: return kIntDtypes;
    default: return kIntDtypes | dtype_bit(KF_BOOL);
  }
}

/// Queues out = op(self, other) for `dtype` (in bitwise_dtype_mask(op)) on `stream`; nothing
/// for zero elements. Throws std::logic_error for a dtype outside the mask.
void launch_bitwise(BitwiseOp op, int32_t dtype, const Operands& p, cudaStream_t stream);

}  // namespace kf::cuda
