// unary_launch.hpp — the launcher of the same-dtype unary ops (unary.cu), shared by their host
// glue (unary_ops.cpp): neg abs exp log sqrt relu sigmoid tanh rsqrt sin cos erf reciprocal
// gelu silu. Output and input have one dtype; operand 0 of the Operands is the output, 1 the
// input. Plain C++.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda_dtypes.hpp"
#include "operands.hpp"
#include "pointwise_common.hpp"

namespace kf::cuda {

enum class UnaryOp : int32_t {
  kNeg, kAbs, kExp, kLog, kSqrt, kRelu, kSigmoid, kTanh,
  kRsqrt, kSin, kCos, kErf, kReciprocal, kGelu, kSilu,
};

/// The dtypes of each op: the CPU backend's registration (unary, math and activation kernels).
constexpr uint32_t unary_dtype_mask(UnaryOp op) {
  switch (op) {
    case UnaryOp::kNeg: return kRealDtypes;
    case UnaryOp::kAbs: return kCudaDtypes;
    case UnaryOp::kRelu: return kRealDtypes;
    default: return kFloatDtypes;  // the transcendentals and activations
  }
}

/// The scalar arguments of the unary ops.
struct UnaryScalars {
  bool approximate = false;  // gelu: the tanh form
};

/// Queues out = op(in) for `dtype` (in unary_dtype_mask(op)) on `stream`; nothing for zero
/// elements. Throws std::logic_error for a dtype outside the mask.
void launch_unary(UnaryOp op, int32_t dtype, const Operands& p, const UnaryScalars& s,
                  cudaStream_t stream);

}  // namespace kf::cuda
