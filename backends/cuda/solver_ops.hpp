// solver_ops.hpp — the op families of this folder (what is NVIDIA's: cuSOLVER and cuFFT), which
// register_vendor_ops (vendor_ops.cpp, gpukernels' vendor_ops.hpp) registers after the shared
// families of backends/gpukernels.
#pragma once

#include "kernforge/plugin.h"

namespace kf::cuda {

kf_status_t register_solver_factor_ops(const kf_registrar_t* reg);  // solver_factor_ops.cpp
kf_status_t register_solver_eigh_ops(const kf_registrar_t* reg);    // solver_eigh_ops.cpp
kf_status_t register_solver_svd_ops(const kf_registrar_t* reg);     // solver_svd_ops.cpp
kf_status_t register_fft_ops(const kf_registrar_t* reg);            // cufft_ops.cpp

}  // namespace kf::cuda
