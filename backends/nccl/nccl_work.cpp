#include "nccl_work.hpp"

#include <memory>
#include <string>
#include <thread>

#include "nccl_errors.hpp"

namespace kfnccl {
namespace {

// NCCL's asynchronous error: a peer or the network failed while the call ran.
void check_async(NcclWork& w) {
  ncclResult_t state = ncclSuccess;
  if (!poll_async(*w.comm, state)) check_usable(*w.comm, w.what);  // aborted: throws
  if (state != ncclSuccess && state != ncclInProgress) {
    const std::string what = std::string("nccl: ") + w.what;
    const std::string text = nccl_text(what.c_str(), state, w.comm->comm);  // before the abort
    abort_comm(*w.comm, what + " failed");
    throw PluginError(status_of(state), text);
  }
}

// Whether the event completed; its error otherwise.
bool query(NcclWork& w) {
  if (w.done) return true;
  const cudaError_t e = cudaEventQuery(w.event);
  if (e == cudaErrorNotReady) return false;
  check_cuda(e, "nccl: cudaEventQuery");
  w.done = true;
  return true;
}

void wait(NcclWork& w, int64_t timeout_ms) {
  const auto deadline = deadline_after(*w.comm, timeout_ms);
  auto pause = std::chrono::microseconds(10);
  while (!query(w)) {
    check_async(w);
    if (Clock::now() >= deadline) {
      abort_comm(*w.comm, std::string(w.what) + " timed out");
      throw PluginError(KF_TIMEOUT, std::string("nccl: ") + w.what + " did not finish within "
                        "the timeout: a rank has not made the same call (every rank makes the "
                        "same calls in the same order); the communicator is aborted");
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(1)) pause *= 2;
  }
}

void release(NcclWork* w) {
  if (w->event != nullptr) (void)cudaEventDestroy(w->event);
  delete w;
}

}  // namespace

void finish_call(NcclComm& c, const char* what, cudaStream_t stream, int64_t timeout_ms,
                 void** work) {
  std::unique_ptr<NcclWork, void (*)(NcclWork*)> w(new NcclWork, &release);
  w->comm = &c;
  w->what = what;
  check_cuda(cudaEventCreateWithFlags(&w->event, cudaEventDisableTiming),
             "nccl: cudaEventCreateWithFlags");
  check_cuda(cudaEventRecord(w->event, stream), "nccl: cudaEventRecord");
  if (work == nullptr) {
    wait(*w, timeout_ms);
    return;
  }
  *work = w.release();
}

kf_status_t work_wait(void* work, int64_t timeout_ms, char* error, size_t error_cap) {
  return guarded(error, error_cap, [&] { wait(*static_cast<NcclWork*>(work), timeout_ms); });
}

kf_status_t work_test(void* work, int32_t* done, char* error, size_t error_cap) {
  return guarded(error, error_cap, [&] {
    auto& w = *static_cast<NcclWork*>(work);
    *done = 0;
    if (!query(w)) {
      check_async(w);
      return;
    }
    *done = 1;
  });
}

void work_release(void* work) {
  if (work != nullptr) release(static_cast<NcclWork*>(work));
}

}  // namespace kfnccl
