// kernels.hpp — one registration function per kernel file of the CPU plugin
// (<family>_kernels.cpp defines register_<family>_kernels), called by register_kernels in
// plugin.cpp. Each registers its ops with their dtype masks and returns
// the first failing status.
#pragma once

#include <cstdint>

#include "kernforge/plugin.h"

namespace kf::cpu {

/// Registers a CPU kernel that takes views of negative stride as they are (its loops step with
/// signed strides from element [0, ..., 0]). Kernels that hand strides to BLAS or oneDNN
/// (linalg_kernels.cpp, attention_kernels.cpp) use KF_REGISTER_KERNEL: the host copies such
/// views for them.
#define KF_CPU_KERNEL(reg, op, fn, dtype_mask) \
  KF_REGISTER_KERNEL_FLAGS(reg, op, fn, dtype_mask, KF_KERNEL_NEGATIVE_STRIDES)

// One per <family>_kernels.cpp, listed by CMake in kernel_families.inc.
#define KF_CPU_KERNEL_FAMILY(family) kf_status_t register_##family##_kernels(const kf_registrar_t* reg);
#include "kernel_families.inc"
#undef KF_CPU_KERNEL_FAMILY

/// Seeds the random generator of random_kernels.cpp and resets its offset (kf_manual_seed).
void seed_random(uint64_t seed);

/// The counters a rand of `numel` elements takes from the generator (float64's layout when
/// `wide`, else float32's), reserved as that rand would: kernels that draw random numbers
/// themselves (attention's dropout) get the numbers rand_like would give.
struct RandomRange {
  uint64_t seed = 0, offset = 0;
  bool wide = false;
};
RandomRange reserve_random(int64_t numel, bool wide);
/// rand's value of row-major element i of the range (a float32 or float64 uniform in [0, 1)).
double uniform_at(const RandomRange& r, int64_t i);

}  // namespace kf::cpu
