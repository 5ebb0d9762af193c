// vendor_ops.hpp — the op families a GPU backend built from these sources adds from its own
// folder, beside the shared ones of op_families.hpp: cuda's are NVIDIA's libraries (cuSOLVER's
// linear algebra and cuFFT's transforms, backends/cuda/vendor_ops.cpp), rocm has none yet
// (backends/rocm/vendor_ops.cpp). register_kernels in gpu_plugin.cpp calls it after the shared
// families; like them it needs no state (an unavailable plugin lists its ops too).
#pragma once

#include "kernforge/plugin.h"

namespace kf::cuda {

/// Registers the vendor's own op families; the first failing status, else KF_OK.
kf_status_t register_vendor_ops(const kf_registrar_t* reg);

}  // namespace kf::cuda
