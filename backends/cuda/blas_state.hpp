// blas_state.hpp — the cuda backend's state of NVIDIA's libraries in its CudaBackend
// (backend.hpp): the pools of cuBLAS handles (cublas_pool.cpp) and cuSOLVER handles
// (cusolver_pool.cpp), both per device and stream (handle_pool.hpp), and the cuFFT plan cache
// (fft_plans.hpp).
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>

#include <cstddef>

#include "fft_plans.hpp"
#include "handle_pool.hpp"

namespace kf::cuda {

struct CublasTraits {
  using Handle = cublasHandle_t;
  static constexpr const char* kName = "cuBLAS";
  static Handle create();
  static void destroy(Handle h) noexcept;
};

struct CusolverTraits {
  using Handle = cusolverDnHandle_t;
  static constexpr const char* kName = "cuSOLVER";
  static Handle create();
  static void destroy(Handle h) noexcept;
};

using CublasPool = HandlePool<CublasTraits>;
using CusolverPool = HandlePool<CusolverTraits>;

struct BlasState {
  explicit BlasState(size_t devices) : cublas(devices), cusolver(devices), fft(devices) {}
  CublasPool cublas;
  CusolverPool cusolver;
  FftPlans fft;
};

}  // namespace kf::cuda
