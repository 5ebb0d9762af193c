// blas_state.hpp — the rocm backend's BLAS state in its CudaBackend (backend.hpp): rocBLAS when
// a ROCm installation provides it (rocblas_library.hpp), else nothing, and the floating-point
// GEMM runs on the shared tiled kernel (rocm_gemm.cpp). Which one, and why, is in describe.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "rocblas_library.hpp"

namespace kf::cuda {

struct BlasState {
  explicit BlasState(size_t /*devices*/) {}
  std::unique_ptr<RocblasLibrary> rocblas;  // null: the tiled kernel
  std::string why_tiled;                    // what was looked for, when rocblas is null
};

/// The engine of a floating-point GEMM: rocBLAS when it was opened and the call is one it
/// reads in place (GemmShape), else the tiled kernel.
enum class GemmEngine { kRocblas, kTiled };

}  // namespace kf::cuda
