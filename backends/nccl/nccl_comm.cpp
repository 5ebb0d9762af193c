#include "nccl_comm.hpp"

#include <cstdlib>
#include <memory>
#include <thread>

#include <cuda_runtime_api.h>

#include "nccl_errors.hpp"
#include "nccl_rendezvous.hpp"

namespace kfnccl {
namespace {

constexpr int32_t kNoColor = -1;  // KF_COMM_NO_COLOR: a rank of no group (collective.h)

// $LOCAL_RANK modulo the device count, else the current device.
int pick_device() {
  int count = 0;
  check_cuda(cudaGetDeviceCount(&count), "nccl: cudaGetDeviceCount");
  const char* local = std::getenv("LOCAL_RANK");
  if (local != nullptr && local[0] != '\0' && count > 0) {
    return static_cast<int>(std::strtol(local, nullptr, 10) % count);
  }
  int device = 0;
  check_cuda(cudaGetDevice(&device), "nccl: cudaGetDevice");
  return device;
}

ncclConfig_t nonblocking_config() {
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  return config;
}

// The device buffer of barrier, and the rank and size NCCL gives.
void finish_setup(NcclComm& c) {
  check_cuda(cudaMalloc(reinterpret_cast<void**>(&c.barrier_word), sizeof(int32_t)),
             "nccl: cudaMalloc of the barrier's word");
  check_nccl(ncclCommUserRank(c.comm, &c.rank), "ncclCommUserRank", c.comm);
  check_nccl(ncclCommCount(c.comm, &c.size), "ncclCommCount", c.comm);
}

// A started ncclComm_t becomes the plugin's communicator once NCCL finished making it.
void adopt(std::unique_ptr<NcclComm>& c, ncclResult_t started, const char* what,
           Clock::time_point deadline) {
  if (started != ncclSuccess && started != ncclInProgress) {
    const std::string text = nccl_text(what, started, c->comm);
    if (c->comm != nullptr) (void)ncclCommAbort(c->comm);
    c->comm = nullptr;
    throw PluginError(status_of(started), text);
  }
  try {
    wait_ready(*c, deadline, what);
    finish_setup(*c);
  } catch (...) {  // NCCL failed or timed out: drop what was made
    if (!c->aborted.load() && c->comm != nullptr) (void)ncclCommAbort(c->comm);
    c->comm = nullptr;
    if (c->barrier_word != nullptr) (void)cudaFree(c->barrier_word);
    c->barrier_word = nullptr;
    throw;
  }
}

void free_comm(NcclComm* c) {
  if (c->barrier_word != nullptr) {
    (void)cudaSetDevice(c->device);
    (void)cudaFree(c->barrier_word);
  }
  delete c;
}

void destroy(NcclComm& c) {
  std::lock_guard<std::mutex> lock(c.abort_lock);
  if (c.aborted.load() || c.comm == nullptr) return;  // ncclCommAbort freed it
  (void)cudaSetDevice(c.device);
  ncclResult_t r = ncclCommFinalize(c.comm);
  if (r == ncclSuccess || r == ncclInProgress) {
    const auto deadline = deadline_after(c, 0);
    while (r == ncclInProgress && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      (void)ncclCommGetAsyncError(c.comm, &r);
    }
  }
  if (r == ncclSuccess) {
    (void)ncclCommDestroy(c.comm);
  } else {
    (void)ncclCommAbort(c.comm);  // finalize failed or did not end: drop it
  }
  c.comm = nullptr;
}

}  // namespace

Clock::time_point deadline_after(const NcclComm& c, int64_t timeout_ms) {
  if (timeout_ms <= 0) timeout_ms = c.timeout_ms;
  return Clock::now() + std::chrono::milliseconds(timeout_ms);
}

void check_usable(NcclComm& c, const char* what) {
  if (c.aborted.load()) {
    std::lock_guard<std::mutex> lock(c.abort_lock);
    throw PluginError(KF_FAILED_PRECONDITION, std::string("nccl: ") + what + " on a "
                      "communicator that was aborted (" + c.why_aborted + "); destroy it and "
                      "create another");
  }
  check_cuda(cudaSetDevice(c.device), "nccl: cudaSetDevice");
}

void abort_comm(NcclComm& c, const std::string& why) {
  std::lock_guard<std::mutex> lock(c.abort_lock);
  if (c.aborted.load() || c.comm == nullptr) return;
  c.why_aborted = why;
  c.aborted.store(true);
  (void)ncclCommAbort(c.comm);
}

bool poll_async(NcclComm& c, ncclResult_t& state) {
  std::lock_guard<std::mutex> lock(c.abort_lock);
  if (c.aborted.load() || c.comm == nullptr) return false;
  const ncclResult_t r = ncclCommGetAsyncError(c.comm, &state);
  if (r != ncclSuccess) state = r;
  return true;
}

void wait_ready(NcclComm& c, Clock::time_point deadline, const char* what) {
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    ncclResult_t state = ncclInProgress;
    if (!poll_async(c, state)) check_usable(c, what);  // aborted meanwhile: throws
    if (state == ncclSuccess) return;
    if (state != ncclInProgress) check_nccl(state, what, c.comm);
    if (Clock::now() >= deadline) {
      abort_comm(c, std::string(what) + " timed out");
      throw PluginError(KF_TIMEOUT, std::string("nccl: ") + what + " did not finish within "
                        "the timeout: a rank has not arrived or not made the same call (every "
                        "rank makes the same calls in the same order); the communicator is "
                        "aborted");
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(2)) pause *= 2;
  }
}

kf_status_t comm_init(const kf_comm_init_t* init, void** comm) {
  return guarded(init->error, init->error_cap, [&] {
    auto c = std::make_unique<NcclComm>();
    check_rendezvous(*init);
    c->timeout_ms = init->timeout_ms;
    c->device = pick_device();
    check_cuda(cudaSetDevice(c->device), "nccl: cudaSetDevice");
    const ncclUniqueId id = exchange_unique_id(*init);
    ncclConfig_t config = nonblocking_config();
    const ncclResult_t r = ncclCommInitRankConfig(&c->comm, init->world_size, id, init->rank,
                                                  &config);
    adopt(c, r, "ncclCommInitRankConfig", deadline_after(*c, 0));
    *comm = c.release();
  });
}

kf_status_t comm_destroy(void* comm) {
  auto* c = static_cast<NcclComm*>(comm);
  if (c == nullptr) return KF_OK;
  destroy(*c);
  free_comm(c);
  return KF_OK;
}

kf_status_t comm_abort(void* comm) {
  auto* c = static_cast<NcclComm*>(comm);
  if (c != nullptr) abort_comm(*c, "comm_abort was called");
  return KF_OK;
}

kf_status_t comm_split(void* comm, int32_t color, int32_t key, const kf_comm_init_t* init,
                       void** out) {
  return guarded(init->error, init->error_cap, [&] {
    auto& parent = *static_cast<NcclComm*>(comm);
    check_usable(parent, "comm_split");
    auto c = std::make_unique<NcclComm>();
    c->timeout_ms = init->timeout_ms > 0 ? init->timeout_ms : parent.timeout_ms;
    c->device = parent.device;
    ncclConfig_t config = nonblocking_config();
    const int nccl_color = color == kNoColor ? NCCL_SPLIT_NOCOLOR : color;
    const ncclResult_t r = ncclCommSplit(parent.comm, nccl_color, key, &c->comm, &config);
    if (color == kNoColor) {
      if (r != ncclInProgress) check_nccl(r, "ncclCommSplit", parent.comm);
      wait_ready(parent, deadline_after(parent, init->timeout_ms), "ncclCommSplit");
      *out = nullptr;
      return;
    }
    // The split is the parent's call as well: wait for the parent, then for the child.
    if (r == ncclSuccess || r == ncclInProgress) {
      wait_ready(parent, deadline_after(parent, init->timeout_ms), "ncclCommSplit");
    }
    adopt(c, r, "ncclCommSplit", deadline_after(*c, 0));
    *out = c.release();
  });
}

}  // namespace kfnccl
