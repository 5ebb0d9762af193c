// cublas_check.cpp — cuBLAS statuses as kernforge statuses and messages (cublas_check.hpp).
#include "cublas_check.hpp"

#include "kernforge/plugin.hpp"

namespace kf::cuda {

kf_status_t status_of(cublasStatus_t s) noexcept {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return KF_OK;
    case CUBLAS_STATUS_ALLOC_FAILED: return KF_OUT_OF_MEMORY;
    case CUBLAS_STATUS_NOT_INITIALIZED:
    case CUBLAS_STATUS_ARCH_MISMATCH: return KF_UNAVAILABLE;
    case CUBLAS_STATUS_INVALID_VALUE: return KF_INVALID_ARGUMENT;
    case CUBLAS_STATUS_NOT_SUPPORTED: return KF_UNIMPLEMENTED;
    default: return KF_INTERNAL;
  }
}

std::string message_of(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "cublasStatus_t " + std::to_string(static_cast<int>(s));
  }
}

kf_status_t report(cublasStatus_t s, const char* what) {
  kf::plugin::set_error(std::string("cuda: ") + what + ": cuBLAS " + message_of(s));
  return status_of(s);
}

void throw_error(cublasStatus_t s, const char* what) {
  throw kf::plugin::KernelError(status_of(s), std::string(what) + ": cuBLAS " + message_of(s));
}

}  // namespace kf::cuda
