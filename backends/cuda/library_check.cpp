// library_check.cpp — cuSOLVER and cuFFT statuses as kernforge statuses (library_check.hpp).
#include "library_check.hpp"

#include "kernforge/plugin.hpp"

namespace kf::cuda {

kf_status_t status_of(cusolverStatus_t s) noexcept {
  switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return KF_OK;
    case CUSOLVER_STATUS_ALLOC_FAILED: return KF_OUT_OF_MEMORY;
    case CUSOLVER_STATUS_NOT_INITIALIZED:
    case CUSOLVER_STATUS_ARCH_MISMATCH: return KF_UNAVAILABLE;
    case CUSOLVER_STATUS_INVALID_VALUE: return KF_INVALID_ARGUMENT;
    case CUSOLVER_STATUS_NOT_SUPPORTED: return KF_UNIMPLEMENTED;
    default: return KF_INTERNAL;
  }
}

std::string message_of(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default: return "cusolverStatus_t " + std::to_string(static_cast<int>(s));
  }
}

void throw_error(cusolverStatus_t s, const char* what) {
  throw kf::plugin::KernelError(status_of(s), std::string(what) + ": cuSOLVER " + message_of(s));
}

kf_status_t status_of(cufftResult r) noexcept {
  switch (r) {
    case CUFFT_SUCCESS: return KF_OK;
    case CUFFT_ALLOC_FAILED: return KF_OUT_OF_MEMORY;
    case CUFFT_SETUP_FAILED: return KF_UNAVAILABLE;
    case CUFFT_INVALID_VALUE:
    case CUFFT_INVALID_SIZE:
    case CUFFT_INVALID_TYPE: return KF_INVALID_ARGUMENT;
    case CUFFT_NOT_SUPPORTED: return KF_UNIMPLEMENTED;
    default: return KF_INTERNAL;
  }
}

std::string message_of(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cufftResult " + std::to_string(static_cast<int>(r));
  }
}

void throw_error(cufftResult r, const char* what) {
  throw kf::plugin::KernelError(status_of(r), std::string(what) + ": cuFFT " + message_of(r));
}

}  // namespace kf::cuda
