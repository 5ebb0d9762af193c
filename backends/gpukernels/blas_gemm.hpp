// blas_gemm.hpp — the floating-point matrix products of mm, bmm and addmm through the
// backend's BLAS, each backend's own: cuBLAS on cuda (backends/cuda/cublas_gemm.cpp, Note
// [Row-major GEMM on cuBLAS]); rocBLAS when present, else the tiled kernel of linalg.cu, on rocm
// (backends/rocm/rocm_gemm.cpp). Host code (the C++ compiler).
#pragma once

#include <cstdint>

#include "kernel_scope.hpp"
#include "kernforge/plugin.h"
#include "kernforge/scalar.hpp"
#include "linalg_launch.hpp"

namespace kf::cuda {

/// c = alpha * a @ b + beta * c for `batch` matrices of float32, float64, float16 or bfloat16
/// (and the dtypes of blas_gemm_extra_dtypes, with alpha 1 and beta 0):
/// a [m, k], b [k, n], c [m, n], all with any strides (operands cuBLAS cannot read are copied
/// to dense temporaries first; an output it cannot write is computed in one and copied back).
/// `bias` (addmm's self, [m, n], broadcast strides; batch 1) is copied into c first when beta
/// is not 0; beta 0 never reads c or bias (their NaN and inf do not reach the result).
/// m, n and k are positive. Scalars convert as the CPU's scalar_to<float> (float32 and the
/// 16-bit floats, which compute in float32) or scalar_to<double> (float64).
struct BlasGemm {
  int32_t dtype = 0;
  int32_t device = 0;  // the kernforge device index of the tensors (the handle pool's)
  int64_t batch = 1;
  GemmOperand a, b, c;
  const kf_tensor_view_t* bias = nullptr;
  kf_scalar_t alpha = kf_scalar_i64(1), beta = kf_scalar_i64(0);
};

/// The CPU's scalar_to<float> and scalar_to<double> of a scalar argument.
inline float scalar_as_f32(const kf_scalar_t& s) { return scalar_real_f32(s); }
inline double scalar_as_f64(const kf_scalar_t& s) { return scalar_real(s); }

/// The dtypes mm and bmm take through blas_gemm beyond the real floating ones: complex64 and
/// complex128 on cuda (cuBLAS's complex GEMM, backends/cuda/cublas_gemm.cpp), none on rocm.
/// addmm and the other kernels keep complex on the CPU fallback (cuda_dtypes.hpp).
uint32_t blas_gemm_extra_dtypes();

/// Queues g on scope's stream; throws KernelError when the BLAS refuses the call (a size or
/// stride beyond 2^31 - 1 is KF_UNIMPLEMENTED, as on the CPU).
void blas_gemm(const KernelScope& scope, const BlasGemm& g, const char* op);

}  // namespace kf::cuda
