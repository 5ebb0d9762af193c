// cublas_pool.cpp — CublasPool (backend.hpp): cuBLAS handles kept per device and stream and
// reused. acquire hands out a free handle of the device and stream or creates one
// (cublasCreate, on the current device, which the caller has made `device`); release puts it
// back under its stream; the destructor destroys them all. A handle is used by one call at a
// time; the pool never shrinks while it lives.
#include <string>

#include "backend.hpp"
#include "cublas_check.hpp"
#include "kernforge/plugin.hpp"

namespace kf::cuda {

CublasPool::~CublasPool() {
  for (auto& streams : free_) {
    for (auto& [stream, handles] : streams) {
      (void)stream;
      for (cublasHandle_t h : handles) (void)cublasDestroy(h);  // at shutdown: errors ignored
    }
  }
}

cublasHandle_t CublasPool::acquire(int32_t device, void* stream) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (device < 0 || static_cast<size_t>(device) >= free_.size()) {
      throw kf::plugin::KernelError(KF_INTERNAL, "cuBLAS handle pool: no device " +
                                                     std::to_string(device) + " (it has " +
                                                     std::to_string(free_.size()) + ")");
    }
    auto& streams = free_[static_cast<size_t>(device)];
    const auto it = streams.find(stream);
    if (it != streams.end() && !it->second.empty()) {
      std::vector<cublasHandle_t>& handles = it->second;
      cublasHandle_t h = handles.back();
      handles.pop_back();
      return h;
    }
  }
  cublasHandle_t h = nullptr;  // created outside the lock: cublasCreate takes milliseconds
  check(cublasCreate(&h), "cublasCreate");
  return h;
}

void CublasPool::release(int32_t device, void* stream, cublasHandle_t handle) noexcept {
  if (handle == nullptr) return;
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    if (device >= 0 && static_cast<size_t>(device) < free_.size()) {
      free_[static_cast<size_t>(device)][stream].push_back(handle);
      return;
    }
  } catch (...) {  // no memory for the list (or a failed lock): the handle goes
  }
  (void)cublasDestroy(handle);
}

}  // namespace kf::cuda
