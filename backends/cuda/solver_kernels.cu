// solver_kernels.cu — the kernels of solver_launch.hpp, for float, double, float2 (complex64)
// and double2 (complex128), one thread per element (per matrix for the determinant, whose
// pivots are read in order).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "kernforge/plugin.hpp"
#include "kernforge/types.h"
#include "solver_launch.hpp"

namespace kf::cuda {
namespace {

constexpr int kThreads = 256;

unsigned int blocks_for(int64_t work) {
  const int64_t blocks = (work + kThreads - 1) / kThreads;
  return static_cast<unsigned int>(blocks < 1 ? 1 : blocks > 65535 ? 65535 : blocks);
}

__device__ int64_t first_index() { return int64_t{blockIdx.x} * blockDim.x + threadIdx.x; }
__device__ int64_t stride_of_grid() { return int64_t{gridDim.x} * blockDim.x; }

template <class T> struct Real { using type = T; };
template <> struct Real<float2> { using type = float; };
template <> struct Real<double2> { using type = double; };
template <class T> constexpr bool kComplex = false;
template <> constexpr bool kComplex<float2> = true;
template <> constexpr bool kComplex<double2> = true;

template <class T> __device__ T zero_of() {
  if constexpr (kComplex<T>) { return T{0, 0}; } else { return T(0); }
}
template <class T> __device__ T one_of() {
  if constexpr (kComplex<T>) { return T{1, 0}; } else { return T(1); }
}
template <class T> __device__ T conj_of(T v) {
  if constexpr (kComplex<T>) { v.y = -v.y; }
  return v;
}
template <class T> __device__ T mul(T a, T b) {
  if constexpr (kComplex<T>) {
    return T{a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
  } else {
    return a * b;
  }
}
template <class T> __device__ typename Real<T>::type magnitude(T v) {
  if constexpr (kComplex<T>) { return hypot(v.x, v.y); } else { return fabs(v); }
}
template <class T> __device__ T scaled(T v, typename Real<T>::type s) {
  if constexpr (kComplex<T>) { return T{v.x * s, v.y * s}; } else { return v * s; }
}
template <class T> __device__ bool finite(T v) {
  if constexpr (kComplex<T>) { return isfinite(v.x) && isfinite(v.y); } else { return isfinite(v); }
}

/// Calls f(T{}) with T the element type of dtype.
template <class F>
void dispatch(int32_t dtype, F f) {
  switch (dtype) {
    case KF_FLOAT32: return f(float{});
    case KF_FLOAT64: return f(double{});
    case KF_COMPLEX64: return f(float2{});
    case KF_COMPLEX128: return f(double2{});
    default:
      throw kf::plugin::KernelError(KF_INTERNAL, std::string("cuda solver kernels: dtype ") +
                                                     kf_dtype_string(dtype));
  }
}

template <class T>
__global__ void matrix_copy_kernel(MatrixCopy c) {
  const int64_t per = c.rows * c.cols, total = c.batch * per;
  for (int64_t e = first_index(); e < total; e += stride_of_grid()) {
    const int64_t b = e / per, i = (e % per) / c.cols, j = e % c.cols;
    const bool keep = c.triangle == 0 || (c.triangle == 1 ? i >= j : i <= j);
    T v = zero_of<T>();
    if (keep) {
      v = static_cast<const T*>(c.src)[b * c.src_bs + i * c.src_rs + j * c.src_cs];
      if (c.conj) v = conj_of(v);
    }
    static_cast<T*>(c.dst)[b * c.dst_bs + i * c.dst_rs + j * c.dst_cs] = v;
  }
}

template <class T>
__global__ void identity_kernel(T* data, int64_t total, int64_t rows, int64_t cols) {
  const int64_t per = rows * cols;
  for (int64_t e = first_index(); e < total; e += stride_of_grid()) {
    const int64_t i = (e % per) / cols, j = e % cols;
    data[e] = i == j ? one_of<T>() : zero_of<T>();
  }
}

template <class T>
__global__ void lu_determinant_kernel(LuDeterminant d) {
  using R = typename Real<T>::type;
  for (int64_t b = first_index(); b < d.batch; b += stride_of_grid()) {
    const T* lu = static_cast<const T*>(d.lu) + b * d.n * d.n;
    T det = one_of<T>(), phase = one_of<T>();
    R log_abs = 0;
    bool singular = false;
    for (int64_t i = 0; i < d.n; ++i) {
      const T v = lu[i * d.n + i];
      const bool swapped = d.pivots[b * d.n + i] != i + 1;
      det = mul(det, swapped ? scaled(v, R(-1)) : v);
      const R mag = magnitude(v);
      if (swapped) phase = scaled(phase, R(-1));
      if (mag == R(0)) singular = true;
      if (!singular) {
        phase = mul(phase, scaled(v, R(1) / mag));
        log_abs += log(mag);
      }
    }
    if (d.det != nullptr) static_cast<T*>(d.det)[b] = det;
    if (d.sign != nullptr) static_cast<T*>(d.sign)[b] = singular ? zero_of<T>() : phase;
    if (d.logabs != nullptr) {
      static_cast<R*>(d.logabs)[b] = singular ? -INFINITY : log_abs;
    }
  }
}

template <class T>
__global__ void non_finite_kernel(const T* data, int64_t batch, int64_t count, int32_t* flags) {
  for (int64_t b = first_index(); b < batch; b += stride_of_grid()) {
    int32_t bad = 0;
    for (int64_t i = 0; i < count && bad == 0; ++i) bad = finite(data[b * count + i]) ? 0 : 1;
    flags[b] = bad;
  }
}

template <class T>
__global__ void scale_kernel(T* data, int64_t count, double s) {
  using R = typename Real<T>::type;
  for (int64_t i = first_index(); i < count; i += stride_of_grid()) {
    data[i] = scaled(data[i], static_cast<R>(s));
  }
}

template <class T>
__global__ void hermitian_edges_kernel(T* data, int64_t outer, int64_t bins, int64_t inner,
                                       bool nyquist) {
  const int64_t total = outer * inner;
  for (int64_t e = first_index(); e < total; e += stride_of_grid()) {
    const int64_t o = e / inner, i = e % inner;
    data[o * bins * inner + i].y = 0;
    if (nyquist) data[(o * bins + bins - 1) * inner + i].y = 0;
  }
}

}  // namespace

void launch_matrix_copy(const MatrixCopy& c, cudaStream_t stream) {
  const int64_t total = c.batch * c.rows * c.cols;
  if (total == 0) return;
  dispatch(c.dtype, [&](auto tag) {
    matrix_copy_kernel<decltype(tag)><<<blocks_for(total), kThreads, 0, stream>>>(c);
  });
}

void launch_identity(void* data, int32_t dtype, int64_t batch, int64_t rows, int64_t cols,
                     cudaStream_t stream) {
  const int64_t total = batch * rows * cols;
  if (total == 0) return;
  dispatch(dtype, [&](auto tag) {
    using T = decltype(tag);
    identity_kernel<T><<<blocks_for(total), kThreads, 0, stream>>>(static_cast<T*>(data), total,
                                                                    rows, cols);
  });
}

void launch_lu_determinant(const LuDeterminant& d, cudaStream_t stream) {
  if (d.batch == 0) return;
  dispatch(d.dtype, [&](auto tag) {
    lu_determinant_kernel<decltype(tag)><<<blocks_for(d.batch), kThreads, 0, stream>>>(d);
  });
}

void launch_non_finite(const void* data, int32_t dtype, int64_t batch, int64_t count,
                       int32_t* flags, cudaStream_t stream) {
  if (batch == 0) return;
  dispatch(dtype, [&](auto tag) {
    using T = decltype(tag);
    non_finite_kernel<T><<<blocks_for(batch), kThreads, 0, stream>>>(static_cast<const T*>(data),
                                                                     batch, count, flags);
  });
}

void launch_scale(void* data, int32_t dtype, int64_t count, double scale, cudaStream_t stream) {
  if (count == 0) return;
  dispatch(dtype, [&](auto tag) {
    using T = decltype(tag);
    scale_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(data), count,
                                                                scale);
  });
}

void launch_hermitian_edges(void* data, int32_t dtype, int64_t outer, int64_t bins,
                            int64_t inner, bool nyquist, cudaStream_t stream) {
  if (outer * inner * bins == 0) return;
  dispatch(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kComplex<T>) {
      hermitian_edges_kernel<T><<<blocks_for(outer * inner), kThreads, 0, stream>>>(
          static_cast<T*>(data), outer, bins, inner, nyquist);
    }
  });
}

}  // namespace kf::cuda
