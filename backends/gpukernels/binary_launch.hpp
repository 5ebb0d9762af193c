// binary_launch.hpp — the launcher of the same-dtype binary ops and where (binary.cu), shared
// by their host glue (binary_ops.cpp): add sub mul div maximum minimum pow, and where. Output
// and inputs have one dtype (where's condition is bool); the Operands are {out, self, other},
// or {out, condition, self, other} for where. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "cuda_dtypes.hpp"
#include "operands.hpp"
#include "pointwise_common.hpp"

namespace kf::cuda {

enum class BinaryOp : int32_t { kAdd, kSub, kMul, kDiv, kMaximum, kMinimum, kPow, kWhere };

/// The dtypes of each op: the CPU backend's registration (binary_kernels.cpp,
/// minmax_pow_kernels.cpp).
constexpr uint32_t binary_dtype_mask(BinaryOp op) {
  switch (op) {
    case BinaryOp::kSub: return kRealDtypes;
    case BinaryOp::kDiv: return kFloatDtypes;
    case BinaryOp::kPow: return kRealDtypes;
    default: return kCudaDtypes;  // add mul maximum minimum where
  }
}

/// The scalar arguments of the binary ops.
struct BinaryScalars {
  pointwise::ScalarArg alpha;  // add, sub: self +- alpha * other (set by their glue)
};

/// Queues the op for `dtype` (in binary_dtype_mask(op)) on `stream`; nothing for zero
/// elements. Throws std::logic_error for a dtype outside the mask.
void launch_binary(BinaryOp op, int32_t dtype, const Operands& p, const BinaryScalars& s,
                   cudaStream_t stream);

}  // namespace kf::cuda
