// blas_state.hpp — the cuda backend's BLAS state in its CudaBackend (backend.hpp): the pool of
// cuBLAS handles (cublas_pool.cpp).
#pragma once

#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace kf::cuda {

/// cuBLAS handles per device and stream, reused. A handle serves one call at a time (the
/// stream is set on it for each call), and a handle keeps to one stream: cuBLAS's default
/// workspace belongs to the handle, so two streams sharing one could run two GEMMs over the same
/// workspace at once. Work on one stream is ordered, so handles of the same stream can be
/// reused as soon as a call has queued its work.
class CublasPool {
 public:
  explicit CublasPool(size_t devices) : free_(devices) {}
  ~CublasPool();
  CublasPool(const CublasPool&) = delete;
  CublasPool& operator=(const CublasPool&) = delete;

  /// A handle for `device` and `stream` (the current device must be `device`); throws
  /// KernelError when cublasCreate fails.
  cublasHandle_t acquire(int32_t device, void* stream);
  void release(int32_t device, void* stream, cublasHandle_t handle) noexcept;

 private:
  std::mutex mutex_;
  std::vector<std::map<void*, std::vector<cublasHandle_t>>> free_;  // [device][stream]
};

using BlasState = CublasPool;

}  // namespace kf::cuda
