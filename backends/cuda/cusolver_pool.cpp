// cusolver_pool.cpp — how CusolverPool (blas_state.hpp, handle_pool.hpp) makes and ends
// cuSOLVER handles: cusolverDnCreate on the current device, the pool's.
#include "blas_state.hpp"
#include "library_check.hpp"

namespace kf::cuda {

cusolverDnHandle_t CusolverTraits::create() {
  cusolverDnHandle_t h = nullptr;
  check(cusolverDnCreate(&h), "cusolverDnCreate");
  return h;
}

void CusolverTraits::destroy(cusolverDnHandle_t h) noexcept {
  if (h != nullptr) (void)cusolverDnDestroy(h);
}

}  // namespace kf::cuda
