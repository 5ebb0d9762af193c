// How the NCCL plugin turns errors into statuses and the engine's text (kernforge/collective.h):
// the one place where ncclResult_t and cudaError_t become kf_status_t. NCCL's text is
// ncclGetErrorString's, followed by ncclGetLastError's (the reason NCCL logged last, e.g. a
// socket that closed) when it says more; CUDA's is the error's name and cudaGetErrorString.
//   ncclInvalidArgument                         KF_INVALID_ARGUMENT
//   ncclInvalidUsage                            KF_FAILED_PRECONDITION (a call out of order)
//   ncclSystemError, ncclRemoteError,
//   ncclUnhandledCudaError                      KF_UNAVAILABLE (a peer, transport or GPU failed)
//   ncclInternalError and the rest              KF_INTERNAL
//   cudaErrorMemoryAllocation                   KF_OUT_OF_MEMORY
//   no device or driver                         KF_UNAVAILABLE
//   an invalid value, device or pointer         KF_INVALID_ARGUMENT
#pragma once

#include <string>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "kernforge/collective_errors.hpp"
#include "kernforge/types.h"

namespace kfnccl {

using kf::collective::PluginError;  // an error of the plugin's own (a dtype, a rendezvous)
using kf::collective::guarded;      // runs a slot's body: KF_OK, or what it threw as a status
using kf::collective::write_error;

kf_status_t status_of(ncclResult_t r) noexcept;
kf_status_t status_of(cudaError_t e) noexcept;

/// "<what>: <ncclGetErrorString>[ (<ncclGetLastError>)]"; `comm` may be NULL.
std::string nccl_text(const char* what, ncclResult_t r, ncclComm_t comm);
/// "<what>: <cudaGetErrorName>: <cudaGetErrorString>".
std::string cuda_text(const char* what, cudaError_t e);

/// Throws a PluginError for a result other than ncclSuccess (ncclInProgress is the caller's).
void check_nccl(ncclResult_t r, const char* what, ncclComm_t comm = nullptr);
/// Throws a PluginError for an error other than cudaSuccess.
void check_cuda(cudaError_t e, const char* what);

}  // namespace kfnccl
