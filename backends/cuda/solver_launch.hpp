// solver_launch.hpp — the launchers of solver_kernels.cu: the small kernels around the cuSOLVER
// and cuFFT calls (matrix copies with conjugation and triangles, identities, the determinant
// from an LU factorisation, the non-finite check, the FFT's scale). Plain C++: shared by the
// host glue (the C++ compiler) and solver_kernels.cu (nvcc). float32, float64, complex64 and
// complex128 only; a failed launch is left to KernelScope::check.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kf::cuda {

/// dst(b, i, j) = src(b, i, j), conjugated when `conj` (complex), for `batch` matrices of
/// rows x cols; element (b, i, j) at b * bs + i * rs + j * cs (in elements) on each side.
/// `triangle` 1 keeps i >= j and writes zero above, 2 keeps i <= j and zero below, 0 all.
struct MatrixCopy {
  void* dst = nullptr;
  const void* src = nullptr;
  int32_t dtype = 0;
  int64_t batch = 0, rows = 0, cols = 0;
  int64_t src_bs = 0, src_rs = 0, src_cs = 0, dst_bs = 0, dst_rs = 0, dst_cs = 0;
  bool conj = false;
  int32_t triangle = 0;
};
void launch_matrix_copy(const MatrixCopy& c, cudaStream_t stream);

/// Dense row-major identities: `batch` matrices of rows x cols (ones where i == j).
void launch_identity(void* data, int32_t dtype, int64_t batch, int64_t rows, int64_t cols,
                     cudaStream_t stream);

/// From `batch` LU factorisations (column-major n x n, dense, as getrf leaves them, with 1-based
/// int64 pivots [batch, n]): det[b] (when det is set) and sign[b] / logabs[b] (when set; the
/// phase |sign| = 1 for complex and log |det| in the real dtype; a zero pivot gives 0 and
/// -inf). n = 0 gives det 1, sign 1 and logabs 0.
struct LuDeterminant {
  const void* lu = nullptr;
  const int64_t* pivots = nullptr;
  int32_t dtype = 0;
  int64_t batch = 0, n = 0;
  void* det = nullptr;
  void* sign = nullptr;
  void* logabs = nullptr;
};
void launch_lu_determinant(const LuDeterminant& d, cudaStream_t stream);

/// flags[b] = 1 when the b-th run of `count` elements of dense `data` holds a NaN or an
/// infinity, else 0.
void launch_non_finite(const void* data, int32_t dtype, int64_t batch, int64_t count,
                       int32_t* flags, cudaStream_t stream);

/// data[i] *= scale for `count` elements of a float32, float64, complex64 or complex128 buffer.
void launch_scale(void* data, int32_t dtype, int64_t count, double scale, cudaStream_t stream);

/// For c2r: zeroes the imaginary part of frequency 0 and, when `nyquist`, of the last
/// frequency of each line of a dense complex buffer [outer, bins, inner] (cuFFT does not
/// promise to ignore them, the op does).
void launch_hermitian_edges(void* data, int32_t dtype, int64_t outer, int64_t bins,
                            int64_t inner, bool nyquist, cudaStream_t stream);

}  // namespace kf::cuda
