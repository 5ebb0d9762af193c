#include "mpi_work.hpp"

#include <string>

#include "mpi_errors.hpp"
#include "mpi_process.hpp"
#include "mpi_types.hpp"
#include "mpi_wait.hpp"

namespace kfmpi {
namespace {

void check_received(const MpiWork& w, const MPI_Status& status) {
  int count = 0;
  check_mpi(MPI_Get_count(&status, w.recv_type, &count), "MPI_Get_count");
  if (count != w.numel) {
    throw PluginError(KF_INVALID_ARGUMENT, "recv: the peer sent " + std::to_string(count) +
                      " elements into a tensor of " + std::to_string(w.numel) + "; send and "
                      "receive tensors of the same dtype and size");
  }
}

// Every rank arrived: the blocking call of a large collective.
void run_then(MpiWork& w) {
  if (w.comm->deferred == &w) w.comm->deferred = nullptr;
  int code = MPI_SUCCESS;
  {
    auto lock = mpi_guard();
    code = w.then();
  }
  check_mpi(code, w.then_name);
}

// What is left once MPI finished the request, run once.
void finish(MpiWork& w, const MPI_Status& status) {
  w.done = true;
  if (w.then) run_then(w);
  if (w.recv_type != MPI_DATATYPE_NULL) check_received(w, status);
  if (w.divide_dtype >= 0) divide(w.divide_dtype, w.data, w.numel, w.comm->size);
}

void wait(MpiWork& w, int64_t timeout_ms) {
  if (w.done) return;
  if (timeout_ms <= 0) timeout_ms = w.comm->timeout_ms;
  MPI_Status status;
  if (!wait_request(w.request, timeout_ms, status, w.what)) {
    throw PluginError(KF_TIMEOUT, std::string("MPI's ") + w.what + " did not finish within " +
                      std::to_string(timeout_ms) + " ms: a rank has not made the same call "
                      "(every rank makes the same calls in the same order)");
  }
  finish(w, status);
}

void test(MpiWork& w, int32_t* done) {
  MPI_Status status;
  if (!w.done && test_request(w.request, status, w.what)) finish(w, status);
  *done = w.done ? 1 : 0;
}

}  // namespace

void settle(MpiComm& c) {
  if (c.deferred != nullptr) wait(*c.deferred, c.timeout_ms);
}

kf_status_t work_wait(void* work, int64_t timeout_ms, char* error, size_t error_cap) {
  return guarded(error, error_cap, [&] { wait(*static_cast<MpiWork*>(work), timeout_ms); });
}

kf_status_t work_test(void* work, int32_t* done, char* error, size_t error_cap) {
  return guarded(error, error_cap, [&] { test(*static_cast<MpiWork*>(work), done); });
}

void work_release(void* work) {
  auto* w = static_cast<MpiWork*>(work);
  if (w == nullptr) return;
  if (w->comm->deferred == w) w->comm->deferred = nullptr;
  if (!w->done && w->request != MPI_REQUEST_NULL) {
    w->comm->stuck = w->what;  // MPI cannot cancel it: the communicator keeps the request
    w->comm->abandoned.push_back(w->request);
  }
  delete w;
}

}  // namespace kfmpi
