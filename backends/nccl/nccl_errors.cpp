#include "nccl_errors.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace kfnccl {

kf_status_t status_of(ncclResult_t r) noexcept {
  switch (r) {
    case ncclSuccess: return KF_OK;
    case ncclInvalidArgument: return KF_INVALID_ARGUMENT;
    case ncclInvalidUsage: return KF_FAILED_PRECONDITION;
    case ncclSystemError:
    case ncclRemoteError:
    case ncclUnhandledCudaError: return KF_UNAVAILABLE;
    default: return KF_INTERNAL;
  }
}

kf_status_t status_of(cudaError_t e) noexcept {
  switch (e) {
    case cudaSuccess: return KF_OK;
    case cudaErrorMemoryAllocation: return KF_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
    case cudaErrorDevicesUnavailable:
    case cudaErrorSystemDriverMismatch: return KF_UNAVAILABLE;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidDevice:
    case cudaErrorInvalidDevicePointer: return KF_INVALID_ARGUMENT;
    default: return KF_INTERNAL;
  }
}

std::string nccl_text(const char* what, ncclResult_t r, ncclComm_t comm) {
  std::string text = std::string(what) + ": " + ncclGetErrorString(r);
  const char* last = ncclGetLastError(comm);
  if (last != nullptr && last[0] != '\0') text += std::string(" (") + last + ")";
  return text;
}

std::string cuda_text(const char* what, cudaError_t e) {
  return std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
}

void check_nccl(ncclResult_t r, const char* what, ncclComm_t comm) {
  if (r != ncclSuccess) throw PluginError(status_of(r), nccl_text(what, r, comm));
}

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clears a sticky-free error so the next call starts clean
    throw PluginError(status_of(e), cuda_text(what, e));
  }
}

}  // namespace kfnccl
