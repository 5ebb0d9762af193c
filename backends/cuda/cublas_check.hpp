// cublas_check.hpp — cuBLAS statuses as kernforge statuses and messages, next to the runtime's
// (cuda_check.hpp): KF_OUT_OF_MEMORY for an allocation failure, KF_UNAVAILABLE for a library
// that is not initialized or does not fit the GPU, KF_INVALID_ARGUMENT for a bad value,
// KF_UNIMPLEMENTED for what it does not support, KF_INTERNAL for the rest.
#pragma once

#include <cublas_api.h>

#include <string>

#include "cuda_check.hpp"

namespace kf::cuda {

kf_status_t status_of(cublasStatus_t s) noexcept;
/// The status's name, e.g. "CUBLAS_STATUS_ALLOC_FAILED".
std::string message_of(cublasStatus_t s);
kf_status_t report(cublasStatus_t s, const char* what);
[[noreturn]] void throw_error(cublasStatus_t s, const char* what);
inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw_error(s, what);
}

}  // namespace kf::cuda
