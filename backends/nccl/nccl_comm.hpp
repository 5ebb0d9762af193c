// An NCCL communicator of the plugin: an ncclComm_t made non-blocking (config.blocking = 0),
// so that every NCCL call returns at once and the plugin polls ncclCommGetAsyncError against
// its deadline: a rank that never arrives is KF_TIMEOUT, never a hang.
//
// The communicator is bound to one GPU: $LOCAL_RANK modulo the device count when LOCAL_RANK is
// set (torchrun and `kernforge run` set it), else the calling thread's current device; every
// tensor handed to it must be on that GPU. Once a call timed out, or comm_abort came, the
// ncclComm_t is aborted (ncclCommAbort): later calls fail with KF_FAILED_PRECONDITION naming
// why, and comm_destroy only frees what is left.
// Thread safety: one call at a time per communicator (kernforge/collective.h); comm_abort may
// come from another thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include <nccl.h>

#include "kernforge/collective.h"

namespace kfnccl {

using Clock = std::chrono::steady_clock;

struct NcclComm {
  ncclComm_t comm = nullptr;
  int device = 0;                 // the CUDA device the communicator is bound to
  int rank = 0;
  int size = 1;
  int64_t timeout_ms = 0;         // the default of every call
  int32_t* barrier_word = nullptr;  // one int on the device, which barrier all-reduces
  std::mutex abort_lock;          // orders comm_abort against a timeout's abort
  std::atomic<bool> aborted{false};
  std::string why_aborted;        // "comm_abort", or the call that timed out
};

/// Throws KF_FAILED_PRECONDITION when the communicator was aborted; makes its GPU current.
void check_usable(NcclComm& c, const char* what);
/// Aborts the ncclComm_t (once), remembering why.
void abort_comm(NcclComm& c, const std::string& why);
/// ncclCommGetAsyncError's state (its own failure as the state), under the abort lock; false
/// when the communicator was aborted.
bool poll_async(NcclComm& c, ncclResult_t& state);
/// Polls ncclCommGetAsyncError until NCCL is no longer in progress; KF_TIMEOUT (and the
/// communicator aborted) past `deadline`, the NCCL error as a PluginError.
void wait_ready(NcclComm& c, Clock::time_point deadline, const char* what);
/// `timeout_ms` (the communicator's when <= 0) from now.
Clock::time_point deadline_after(const NcclComm& c, int64_t timeout_ms);

/// The comm_init, comm_destroy, comm_split and comm_abort slots.
kf_status_t comm_init(const kf_comm_init_t* init, void** comm);
kf_status_t comm_destroy(void* comm);
kf_status_t comm_split(void* comm, int32_t color, int32_t key, const kf_comm_init_t* init,
                       void** out);
kf_status_t comm_abort(void* comm);

}  // namespace kfnccl
