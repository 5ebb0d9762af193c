// The NCCL plugin's works (kernforge/collective.h): NCCL queues a call on the caller's stream
// and returns; the work is a cudaEvent recorded on that stream right after it.
//  - work_test: cudaEventQuery once (and NCCL's asynchronous error, so a failed peer shows);
//  - work_wait: polls cudaEventQuery and ncclCommGetAsyncError until the event completes or
//    the deadline passes: then KF_TIMEOUT, and the communicator is aborted (ncclCommAbort ends
//    NCCL's kernels, so the stream drains), and every later call on it fails saying so;
//  - work_release: destroys the event (CUDA frees it once it completed); it does not wait.
// A call handed `work` NULL (collective ABI 1.1) records the event and waits for it at once.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernforge/collective.h"
#include "nccl_comm.hpp"

namespace kfnccl {

struct NcclWork {
  NcclComm* comm = nullptr;
  const char* what = "";      // "all_reduce"
  cudaEvent_t event = nullptr;
  bool done = false;
};

/// Records the end of the call just queued on `stream`; hands it back, or waits for it
/// (timeout_ms, the communicator's when <= 0) when `work` is NULL.
void finish_call(NcclComm& c, const char* what, cudaStream_t stream, int64_t timeout_ms,
                 void** work);

/// The work_wait, work_test and work_release slots.
kf_status_t work_wait(void* work, int64_t timeout_ms, char* error, size_t error_cap);
kf_status_t work_test(void* work, int32_t* done, char* error, size_t error_cap);
void work_release(void* work);

}  // namespace kfnccl
