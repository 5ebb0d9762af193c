// fft_kernels.hpp — the opencl backend's own kernels of fft_c2c, fft_r2c and fft_c2r (VkFFT).
#pragma once

#include <cstdint>

#include "kernforge/plugin.h"

namespace kf::opencl {

/// Registers the transforms for the dtypes of `mask` (the backend's, kernels.hpp's
/// supported_dtypes): c2c and c2r for the complex ones, r2c for float32 and float64. Nothing
/// when the build has no VkFFT (fft_available()): the CPU fallback serves them.
kf_status_t register_fft_kernels(const kf_registrar_t* reg, uint32_t mask);

}  // namespace kf::opencl
