// cublas_pool.cpp — CublasPool (backend.hpp): cuBLAS handles kept per device and reused.
// acquire hands out a free handle of the device or creates one (cublasCreate, on the current
// device, which the caller has made `device`); release puts it back; the destructor destroys
// them all. A handle is used by one call at a time; the pool never shrinks while it lives.
#include <string>

#include "backend.hpp"
#include "cuda_check.hpp"
#include "kernforge/plugin.hpp"

namespace kf::cuda {

CublasPool::~CublasPool() {
  for (std::vector<cublasHandle_t>& handles : free_) {
    for (cublasHandle_t h : handles) (void)cublasDestroy(h);  // at shutdown: errors ignored
  }
}

cublasHandle_t CublasPool::acquire(int32_t device) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (device < 0 || static_cast<size_t>(device) >= free_.size()) {
      throw kf::plugin::KernelError(KF_INTERNAL, "cuBLAS handle pool: no device " +
                                                     std::to_string(device) + " (it has " +
                                                     std::to_string(free_.size()) + ")");
    }
    std::vector<cublasHandle_t>& handles = free_[static_cast<size_t>(device)];
    if (!handles.empty()) {
      cublasHandle_t h = handles.back();
      handles.pop_back();
      return h;
    }
  }
  cublasHandle_t h = nullptr;  // created outside the lock: cublasCreate takes milliseconds
  check(cublasCreate(&h), "cublasCreate");
  return h;
}

void CublasPool::release(int32_t device, cublasHandle_t handle) noexcept {
  if (handle == nullptr) return;
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    if (device >= 0 && static_cast<size_t>(device) < free_.size()) {
      free_[static_cast<size_t>(device)].push_back(handle);
      return;
    }
  } catch (...) {  // no memory for the list (or a failed lock): the handle goes
  }
  (void)cublasDestroy(handle);
}

}  // namespace kf::cuda
