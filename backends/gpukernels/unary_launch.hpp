// unary_launch.hpp — the launcher of the same-dtype unary ops (unary.cu), shared by their host
// glue (unary_ops.cpp): neg abs square bitwise_not exp log sqrt relu sigmoid tanh rsqrt sin cos
// erf reciprocal gelu silu tan asin acos atan sinh cosh asinh acosh atanh expm1 log1p log2
// log10. Output and input have one dtype; operand 0 of the Operands is the output, 1 the
// input. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "cuda_dtypes.hpp"
#include "operands.hpp"
#include "pointwise_common.hpp"

namespace kf::cuda {

enum class UnaryOp : int32_t {
  kNeg, kAbs, kExp, kLog, kSqrt, kRelu, kSigmoid, kTanh,
  kRsqrt, kSin, kCos, kErf, kReciprocal, kGelu, kSilu,
  kTan, kAsin, kAcos, kAtan, kSinh, kCosh, kAsinh, kAcosh, kAtanh,
  kExpm1, kLog1p, kLog2, kLog10, kSquare, kBitwiseNot,
};

/// The dtypes of each op: the CPU backend's registration (unary, math, activation, trig,
/// log_exp and bitwise kernels) without the complex ones.
constexpr uint32_t unary_dtype_mask(UnaryOp op) {
  switch (op) {
    case UnaryOp::kNeg: return kRealDtypes;
    case UnaryOp::kAbs: return kCudaDtypes;
    case UnaryOp::kRelu: return kRealDtypes;
    case UnaryOp::kSquare: return kRealDtypes;
    case UnaryOp::kBitwiseNot: return kIntDtypes | dtype_bit(KF_BOOL);
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
