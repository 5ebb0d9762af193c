// random_launch.hpp — the launcher of rand and randn (random.cu). Plain C++: shared by
// random_ops.cpp (g++) and random.cu (nvcc).
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "operands.hpp"

namespace kf::cuda {

/// One rand/randn call: its output (p's one operand, a floating dtype, any strides) and the
/// counters the call reserved (seed, offset: random_ops.cpp).
struct RandomLaunch {
  Operands p;
  int32_t dtype = 0;
  int32_t normal = 0;  // randn, else rand
  uint64_t seed = 0, offset = 0;
};

/// Queues the values of element i = philox block i / per of (seed, offset), as the CPU's
/// random_kernels.cpp computes them (kernforge/philox.hpp). Nothing for no element.
void launch_random(const RandomLaunch& r, cudaStream_t stream);

}  // namespace kf::cuda
