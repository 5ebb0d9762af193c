// factory_launch.hpp — the launchers of the fill-like kernels (factory.cu): fill (full, zeros,
// ones, fill_, and the zeros of an empty matrix product), arange, linspace and eye. Plain C++:
// shared by factory_ops.cpp / linalg_ops.cpp (g++) and factory.cu (nvcc). Each queues its
// kernel on `stream` and returns; nothing is queued for no element.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "copy_launch.hpp"
#include "operands.hpp"

namespace kf::cuda {

/// Every element of p's one operand (p.data[0], of `dtype`, any strides) = `value` converted
/// to `dtype` (Note [Conversions] in convert.cuh). Dense outputs whose value's bytes are all
/// equal (zeros, bool, one-byte dtypes) take a cudaMemsetAsync. Throws KernelError when the
/// memset cannot be queued.
void launch_fill(const Operands& p, int32_t dtype, const Number& value, cudaStream_t stream);

/// out[i * stride] = start + i * step for i < n: in int64 with wrapping for integer dtypes
/// (`integral`), else in double, then converted to `dtype` (factory_kernels.cpp, Note
/// [arange]).
struct ArangeLaunch {
  void* data = nullptr;
  int32_t dtype = 0;
  int32_t integral = 0;
  int64_t n = 0, stride = 1;
  int64_t start_i = 0, step_i = 0;
  double start_f = 0.0, step_f = 0.0;
};
void launch_arange(const ArangeLaunch& a, cudaStream_t stream);

/// PyTorch's linspace (factory_kernels.cpp, Note [linspace]): out[i * stride] =
/// start + step * i for i < n / 2, else end - step * (n - 1 - i), in double, converted to
/// `dtype`; n == 1 is start. For integer dtypes start and end are already the dtype's values.
struct LinspaceLaunch {
  void* data = nullptr;
  int32_t dtype = 0;
  int64_t n = 0, stride = 1;
  double start = 0.0, end = 0.0, step = 0.0;
};
void launch_linspace(const LinspaceLaunch& a, cudaStream_t stream);

/// The rows x cols identity (ones on the diagonal, zeros elsewhere) in `dtype`, strided.
struct EyeLaunch {
  void* data = nullptr;
  int32_t dtype = 0;
  int64_t rows = 0, cols = 0, row_stride = 0, col_stride = 0;
};
void launch_eye(const EyeLaunch& a, cudaStream_t stream);

}  // namespace kf::cuda
