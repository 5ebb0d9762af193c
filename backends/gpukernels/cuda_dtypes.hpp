// cuda_dtypes.hpp — the dtypes the CUDA kernels hold: every dtype of KF_DTYPE_LIST but the
// complex ones, which run on the CPU fallback (`kernforge ops` shows them as such) until this
// backend has complex kernels of its own. The launchers' masks start from kCudaDtypes, never
// from kAllDtypes, so a new dtype kind reaches device code only when it is added here.
#pragma once

#include <cstdint>

#include "kernforge/dtypes.hpp"

namespace kf::cuda {

constexpr uint32_t kCudaDtypes = kAllDtypes & ~kComplexDtypes;

}  // namespace kf::cuda
