// extremum_launch.hpp — the launchers of amax, amin, argmax and argmin (extremum.cu), shared
// by the host glue (extremum_ops.cpp) and the kernels. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include "cuda_dtypes.hpp"
#include "reduce_plan.hpp"

namespace kf::cuda {

// The CPU backend's masks (reduce_kernels.cpp, prod_minmax_kernels.cpp): every dtype.
constexpr uint32_t kExtremumDtypes = kCudaDtypes;

enum class ExtremumOp { Amax, Amin, Argmax, Argmin };

/// Queues `op` over launch `l` (l.dtype: the input's; amax/amin write it, argmax/argmin int64).
/// The plan of argmax/argmin keeps the reduced dims in row-major order.
void launch_extremum(ExtremumOp op, const ReduceLaunch& l, cudaStream_t stream);

}  // namespace kf::cuda
