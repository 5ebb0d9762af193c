// cuda_check.cpp — runtime errors (CUDA's, or HIP's through gpu_vendor.hpp) as statuses and
// messages (cuda_check.hpp).
#include "cuda_check.hpp"

#include "kernforge/plugin.hpp"

namespace kf::cuda {

kf_status_t status_of(cudaError_t e) noexcept {
  switch (e) {
    case cudaSuccess: return KF_OK;
    case cudaErrorMemoryAllocation: return KF_OUT_OF_MEMORY;
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice:
    case cudaErrorNoKernelImageForDevice:
#if !defined(KF_GPU_HIP)  // CUDA's own: a driver, PTX or device the toolkit does not fit
    case cudaErrorDevicesUnavailable:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
#endif
    case cudaErrorInitializationError: return KF_UNAVAILABLE;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidDevice:
    case cudaErrorInvalidDevicePointer: return KF_INVALID_ARGUMENT;
    default: return KF_INTERNAL;
  }
}

std::string message_of(cudaError_t e) {
  const std::string name = cudaGetErrorName(e), text = cudaGetErrorString(e);
  return text == name ? name : name + ": " + text;  // HIP 5.2's text is often the name again
}

kf_status_t report(cudaError_t e, const char* what) {
  kf::plugin::set_error(std::string(KF_GPU_VENDOR ": ") + what + ": " + message_of(e));
  return status_of(e);
}

void throw_error(cudaError_t e, const char* what) {
  throw kf::plugin::KernelError(status_of(e), std::string(what) + ": " + message_of(e));
}

}  // namespace kf::cuda
