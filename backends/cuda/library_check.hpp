// library_check.hpp — cuSOLVER and cuFFT statuses as kernforge statuses and messages, next to
// cuBLAS's (cublas_check.hpp) and the runtime's (cuda_check.hpp): KF_OUT_OF_MEMORY for an
// allocation failure, KF_UNAVAILABLE for a library that is not initialized or does not fit the
// GPU, KF_INVALID_ARGUMENT for a bad value or size, KF_UNIMPLEMENTED for what it does not
// support, KF_INTERNAL for the rest. A routine's `info` is not a status: solver_status.hpp.
#pragma once

#include <cufft.h>
#include <cusolver_common.h>

#include <string>

#include "cuda_check.hpp"
#include "kernforge/plugin.h"

namespace kf::cuda {

kf_status_t status_of(cusolverStatus_t s) noexcept;
std::string message_of(cusolverStatus_t s);
[[noreturn]] void throw_error(cusolverStatus_t s, const char* what);
inline void check(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS) throw_error(s, what);
}

kf_status_t status_of(cufftResult r) noexcept;
std::string message_of(cufftResult r);
[[noreturn]] void throw_error(cufftResult r, const char* what);
inline void check(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) throw_error(r, what);
}

}  // namespace kf::cuda
