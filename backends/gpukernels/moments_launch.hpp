// moments_launch.hpp — the launchers of var, std and logsumexp (moments.cu), shared by the host
// glue (moments_ops.cpp) and the kernels. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include "reduce_plan.hpp"

namespace kf::cuda {

// The CPU backend's masks (moments_kernels.cpp, logsumexp_kernels.cpp): the floating dtypes.
constexpr uint32_t kMomentsDtypes = kFloatDtypes;
constexpr uint32_t kLogsumexpDtypes = kFloatDtypes;

enum class MomentsOp { Var, Std, Logsumexp };

/// Queues `op` over launch `l` (input and output of dtype l.dtype; var/std: l.param is the
/// correction).
void launch_moments(MomentsOp op, const ReduceLaunch& l, cudaStream_t stream);

}  // namespace kf::cuda
