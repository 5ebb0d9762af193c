// cuda_check.hpp — the one place where GPU runtime errors become kernforge statuses and
// messages ("<what>: cudaErrorMemoryAllocation: out of memory"; on rocm HIP's, through
// gpu_vendor.hpp: "<what>: hipErrorOutOfMemory: ..."). cuBLAS's are in backends/cuda
// (cublas_check.hpp).
//
//   status_of(e)           KF_OUT_OF_MEMORY for allocation failures, KF_UNAVAILABLE for a
//                          missing or unusable driver or device, KF_INVALID_ARGUMENT for a bad
//                          value or device, KF_INTERNAL for the rest
//   report(e, what)        host->set_error("<vendor>: <what>: <name>: <text>"), then
//                          returns status_of(e)
//   check(e, what)         throws kf::plugin::KernelError (kernels, whose trampoline reports it)
//
// Thread-safe: cudaGetErrorName/String return static strings.
#pragma once

#include "gpu_vendor.hpp"

#include <string>

#include "kernforge/plugin.h"

namespace kf::cuda {

kf_status_t status_of(cudaError_t e) noexcept;

/// "<name>: <text>" of a runtime error, e.g. "cudaErrorNoDevice: no CUDA-capable device is
/// detected".
std::string message_of(cudaError_t e);

kf_status_t report(cudaError_t e, const char* what);

[[noreturn]] void throw_error(cudaError_t e, const char* what);

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw_error(e, what);
}

}  // namespace kf::cuda

/// In a slot: returns report(e, what) when `expr` fails.
#define KF_CUDA_RETURN_IF_ERROR(expr, what)                  \
  do {                                                       \
    const cudaError_t kf_cuda_e_ = (expr);                   \
    if (kf_cuda_e_ != cudaSuccess) return ::kf::cuda::report(kf_cuda_e_, (what)); \
  } while (0)
