// reduce_launch.hpp — the launchers of sum, mean, prod, all and any (reduce.cu), shared by the
// host glue (reduce_ops.cpp) and the kernels. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include "cuda_dtypes.hpp"
#include "reduce_plan.hpp"

namespace kf::cuda {

// The CPU backend's dtype masks of these ops (reduce_kernels.cpp, prod_minmax_kernels.cpp,
// logical_reduce_kernels.cpp): sum of every dtype but bool, mean of the floating ones, prod,
// all and any of every dtype.
constexpr uint32_t kSumDtypes = kRealDtypes;
constexpr uint32_t kMeanDtypes = kFloatDtypes;
constexpr uint32_t kProdDtypes = kCudaDtypes;
constexpr uint32_t kLogicalDtypes = kCudaDtypes;

enum class ReduceOp { Sum, Mean, Prod, All, Any };

/// Queues `op` over launch `l` (l.dtype: the input's; sum, mean and prod write the same dtype,
/// all and any one byte 0/1 per output, bool or uint8).
void launch_reduce(ReduceOp op, const ReduceLaunch& l, cudaStream_t stream);

}  // namespace kf::cuda
