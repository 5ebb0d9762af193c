// real_binary_launch.hpp — the launcher of atan2, hypot, copysign, logaddexp, nextafter,
// floor_divide and remainder (real_binary.cu), shared by their host glue
// (real_binary_ops.cpp). Output and inputs have one dtype; the Operands are {out, self,
// other}. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "cuda_dtypes.hpp"
#include "operands.hpp"
#include "pointwise_common.hpp"

namespace kf::cuda {

enum class RealBinaryOp : int32_t {
  kAtan2, kHypot, kCopysign, kLogaddexp, kNextafter, kFloorDivide, kRemainder,
};

/// The dtypes of each op: the CPU backend's registration (real_binary_kernels.cpp: floats;
/// floor_division_kernels.cpp: real numbers).
constexpr uint32_t real_binary_dtype_mask(RealBinaryOp op) {
  switch (op) {
    case RealBinaryOp::kFloorDivide: return kRealDtypes;
    case RealBinaryOp::kRemainder: return kRealDtypes;
    default: return kFloatDtypes;
  }
}

/// Queues out = op(self, other) for `dtype` (in real_binary_dtype_mask(op)) on `stream`;
/// nothing for zero elements. Throws std::logic_error for a dtype outside the mask.
void launch_real_binary(RealBinaryOp op, int32_t dtype, const Operands& p, cudaStream_t stream);

}  // namespace kf::cuda
