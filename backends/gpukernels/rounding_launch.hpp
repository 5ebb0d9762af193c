// rounding_launch.hpp — the launcher of floor, ceil, trunc, round, sign and clamp (rounding.cu),
// shared by their host glue (rounding_ops.cpp). Output and input have one dtype; operand 0 of
// the Operands is the output, 1 the input. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "cuda_dtypes.hpp"
#include "operands.hpp"
#include "pointwise_common.hpp"

namespace kf::cuda {

enum class RoundingOp : int32_t { kFloor, kCeil, kRound, kSign, kClamp, kTrunc };

/// The dtypes of each op: the CPU backend's registration (rounding_kernels.cpp).
constexpr uint32_t rounding_dtype_mask(RoundingOp op) {
  return op == RoundingOp::kSign ? kCudaDtypes : kRealDtypes;
}

/// The scalar arguments: round's decimals, clamp's bounds (a missing bound clamps nothing).
struct RoundingScalars {
  int64_t decimals = 0;  // round; nonzero only for floating dtypes (the glue checks)
  bool has_min = false, has_max = false;
  pointwise::ScalarArg min, max;  // clamp
};

/// Queues out = op(in) for `dtype` (in rounding_dtype_mask(op)) on `stream`; nothing for zero
/// elements. Throws std::logic_error for a dtype outside the mask.
void launch_rounding(RoundingOp op, int32_t dtype, const Operands& p, const RoundingScalars& s,
                     cudaStream_t stream);

}  // namespace kf::cuda
