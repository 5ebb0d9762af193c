// compare_launch.hpp — the launcher of the comparisons, logical ops and predicates with a bool
// result (compare.cu), shared by their host glue (compare_ops.cpp): eq ne lt le gt ge
// logical_and logical_or logical_xor, and the unary isnan isinf isfinite signbit logical_not.
// The inputs have one dtype (any, bool included), the output is bool; the Operands are {out,
// self, other}, or {out, self} for the unary ones. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "cuda_dtypes.hpp"
#include "operands.hpp"
#include "pointwise_common.hpp"

namespace kf::cuda {

enum class CompareOp : int32_t {
  kEq, kNe, kLt, kLe, kGt, kGe, kAnd, kOr, kXor,
  kIsNan, kIsInf, kIsFinite, kSignbit, kNot,  // unary
};

/// The input dtypes of every op: all (the CPU backend's registration, binary_kernels.cpp,
/// compare_kernels.cpp and predicate_kernels.cpp) without the complex ones.
constexpr uint32_t compare_dtype_mask(CompareOp) { return kCudaDtypes; }

/// Queues out = op(self, other), or op(self), for inputs of `dtype` on `stream`; nothing for
/// zero elements. Throws std::logic_error for a dtype outside the mask.
void launch_compare(CompareOp op, int32_t dtype, const Operands& p, cudaStream_t stream);

}  // namespace kf::cuda
