// norm_launch.hpp — the launcher of layer_norm and rms_norm (norm.cu), shared by the host glue
// (norm_ops.cpp) and the kernels. Plain C++.
#pragma once

#include "gpu_vendor.hpp"

#include "reduce_plan.hpp"

namespace kf::cuda {

// The CPU backend's mask (norm_kernels.cpp): the floating dtypes.
constexpr uint32_t kNormDtypes = kFloatDtypes;

/// `rows` contiguous rows of `d` elements (input, output, and weight and bias of d elements,
/// all of dtype `dtype`; weight or bias null when None).
struct NormLaunch {
  const void* in;
  const void* weight;
  const void* bias;
  void* out;
  int64_t rows;
  int64_t d;
  double eps;
  int32_t dtype;
  bool rms;  // rms_norm (no mean, no bias) rather than layer_norm
  LineSchedule sched;
};

void launch_norm(const NormLaunch& l, cudaStream_t stream);

}  // namespace kf::cuda
