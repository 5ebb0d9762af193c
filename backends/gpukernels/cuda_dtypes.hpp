// cuda_dtypes.hpp — the dtypes the CUDA kernels hold: every dtype of KF_DTYPE_LIST but the
// complex ones, which run on the CPU fallback (`kernforge ops` shows them as such) until this
// backend has complex kernels of its own. The launchers' masks start from kCudaDtypes, never
// from kAllDtypes, so a new dtype kind reaches device code only when it is added here. The
// exceptions are a vendor library's, not these kernels': mm and bmm where the backend's BLAS
// takes complex (blas_gemm_extra_dtypes, blas_gemm.hpp) and the vendor's own op families
// (vendor_ops.hpp: cuSOLVER and cuFFT on cuda).
#pragma once

#include <cstdint>

#include "kernforge/dtypes.hpp"

namespace kf::cuda {

constexpr uint32_t kCudaDtypes = kAllDtypes & ~kComplexDtypes;

}  // namespace kf::cuda
