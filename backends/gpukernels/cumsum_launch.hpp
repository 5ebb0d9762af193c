// cumsum_launch.hpp — the launcher of cumsum (cumsum.cu), shared by the host glue
// (cumsum_ops.cpp) and the kernels. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include "reduce_plan.hpp"

namespace kf::cuda {

// The CPU backend's mask (cumsum_kernels.cpp): every dtype but bool (bool inputs arrive
// converted to int64 or to dtype=).
constexpr uint32_t kCumsumDtypes = kRealDtypes;

/// Queues the cumulative sums along the lines of `l`.
void launch_cumsum(const LineLaunch& l, cudaStream_t stream);

}  // namespace kf::cuda
