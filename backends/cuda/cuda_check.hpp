// cuda_check.hpp — the one place where CUDA runtime and cuBLAS errors become kernforge
// statuses and messages ("<what>: cudaErrorMemoryAllocation: out of memory").
//
//   status_of(e)           KF_OUT_OF_MEMORY for allocation failures, KF_UNAVAILABLE for a
//                          missing or unusable driver or device, KF_INVALID_ARGUMENT for a bad
//                          value or device, KF_INTERNAL for the rest
//   report(e, what)        host->set_error("cuda: <what>: <name>: <text>"), returns status_of(e)
//   check(e, what)         throws kf::plugin::KernelError (kernels, whose trampoline reports it)
//
// Thread-safe: cudaGetErrorName/String return static strings.
#pragma once

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <string>

#include "kernforge/plugin.h"

namespace kf::cuda {

kf_status_t status_of(cudaError_t e) noexcept;
kf_status_t status_of(cublasStatus_t s) noexcept;

/// "<name>: <text>" of a runtime error, e.g. "cudaErrorNoDevice: no CUDA-capable device is
/// detected"; "<name>" alone for cuBLAS.
std::string message_of(cudaError_t e);
std::string message_of(cublasStatus_t s);

kf_status_t report(cudaError_t e, const char* what);
kf_status_t report(cublasStatus_t s, const char* what);

[[noreturn]] void throw_error(cudaError_t e, const char* what);
[[noreturn]] void throw_error(cublasStatus_t s, const char* what);

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw_error(e, what);
}
inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw_error(s, what);
}

}  // namespace kf::cuda

/// In a slot: returns report(e, what) when `expr` fails.
#define KF_CUDA_RETURN_IF_ERROR(expr, what)                  \
  do {                                                       \
    const cudaError_t kf_cuda_e_ = (expr);                   \
    if (kf_cuda_e_ != cudaSuccess) return ::kf::cuda::report(kf_cuda_e_, (what)); \
  } while (0)
