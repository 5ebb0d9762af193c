// linalg_launch.hpp — the launchers of linalg.cu: the tiled GEMM for the integer dtypes (no
// BLAS has one that wraps like PyTorch's integer matmul) and for the floating ones where no
// BLAS library is (rocm without rocBLAS), and addmm's result for an empty inner dim on
// floating dtypes. Plain C++: shared by the host glue (the C++ compiler) and linalg.cu (nvcc,
// hipcc). The floating GEMMs otherwise go through the backend's BLAS (blas_gemm.hpp).
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "operands.hpp"

namespace kf::cuda {

/// One strided operand of a batched matrix product: element (b, i, j) at
/// data + b * bs + i * rs + j * cs (in elements). Any strides (0 for broadcast dims).
struct GemmOperand {
  void* data = nullptr;
  int64_t rows = 0, cols = 0;
  int64_t bs = 0, rs = 0, cs = 0;
};

/// c = alpha * a @ b + beta * bias for an integer dtype, per batch, with the CPU's wrapping
/// (two's complement: every product and sum modulo 2^bits). a is [m, k], b [k, n], c and bias
/// [m, n]; bias (addmm's self, broadcast strides) may be null, and is not read when beta is 0.
/// alpha and beta are the dtype's values as uint64 (their low bits count). k may be 0.
struct IntGemmLaunch {
  int32_t dtype = 0;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  GemmOperand a, b, c;
  const void* bias = nullptr;
  int64_t bias_rs = 0, bias_cs = 0;
  uint64_t alpha = 1, beta = 0;
};
void launch_int_gemm(const IntGemmLaunch& g, cudaStream_t stream);

/// c = alpha * a @ b + beta * bias for float32, float64, float16 or bfloat16 by the tiled
/// kernel of the integer GEMM, accumulating in the dtype's compute type (float; double for
/// float64), for a backend without a BLAS library (rocm without rocBLAS). Shapes, strides and
/// bias as IntGemmLaunch's; bias is not read when beta is 0.
struct FloatGemmLaunch {
  int32_t dtype = 0;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  GemmOperand a, b, c;
  const void* bias = nullptr;
  int64_t bias_rs = 0, bias_cs = 0;
  float alpha_f = 1.0f, beta_f = 0.0f;
  double alpha_d = 1.0, beta_d = 0.0;
};
void launch_float_gemm(const FloatGemmLaunch& g, cudaStream_t stream);

/// addmm with an empty inner dim on a floating dtype: out = beta * self + alpha * 0 in the
/// dtype's compute type (the CPU's scale_add of a zero product), self never read when beta is
/// 0. p: out then self (broadcast), of one shape. The scalars are given in float (float32,
/// float16, bfloat16) and double (float64), converted as the CPU converts them.
struct EmptyInnerAddmm {
  Operands p;
  int32_t dtype = 0;
  float beta_f = 0.0f, alpha_f = 0.0f;
  double beta_d = 0.0, alpha_d = 0.0;
};
void launch_empty_inner_addmm(const EmptyInnerAddmm& e, cudaStream_t stream);

}  // namespace kf::cuda
