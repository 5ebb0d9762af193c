// cublas_pool.cpp — how CublasPool (blas_state.hpp, handle_pool.hpp) makes and ends cuBLAS
// handles: cublasCreate on the current device, which the caller has made the pool's device.
#include "blas_state.hpp"
#include "cublas_check.hpp"

namespace kf::cuda {

cublasHandle_t CublasTraits::create() {
  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  return h;
}

void CublasTraits::destroy(cublasHandle_t h) noexcept {
  if (h != nullptr) (void)cublasDestroy(h);
}

}  // namespace kf::cuda
