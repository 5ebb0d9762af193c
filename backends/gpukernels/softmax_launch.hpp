// softmax_launch.hpp — the launchers of softmax and log_softmax (softmax.cu), shared by the
// host glue (softmax_ops.cpp) and the kernels. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include "reduce_plan.hpp"

namespace kf::cuda {

// The CPU backend's mask (softmax_kernels.cpp): the floating dtypes.
constexpr uint32_t kSoftmaxDtypes = kFloatDtypes;

/// Queues softmax (log = false) or log_softmax along the lines of `l`.
void launch_softmax(bool log, const LineLaunch& l, cudaStream_t stream);

}  // namespace kf::cuda
