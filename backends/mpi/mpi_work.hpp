// The MPI plugin's works: every call starts one of MPI's nonblocking operations and hands back
// its request as a work (kernforge/collective.h). work_wait polls it inside the timeout
// (mpi_wait.hpp) and ends with KF_TIMEOUT when it passes; work_test tests it once. What is left
// after MPI finished (the division of an avg, the check of a receive's size) runs then, once.
// Releasing a work that timed out leaves its request with the communicator, which is stuck
// from then on (mpi_comm.hpp).
//
// A large collective (mpi_ops.cpp) is two steps: its request is an MPI_Ibarrier, the ranks'
// arrival, and once every rank has arrived, `then` runs MPI's blocking call, which cannot wait
// for a rank that never comes any more. Such a work is the communicator's `deferred` until
// then: the next call on the communicator finishes it first, so that every rank issues its
// collectives in the same order, whenever each waits.
#pragma once

#include <cstdint>
#include <functional>

#include <mpi.h>

#include "kernforge/collective.h"
#include "mpi_comm.hpp"

namespace kfmpi {

struct MpiWork {
  MpiComm* comm = nullptr;
  const char* what = "";              // "all_reduce"
  MPI_Request request = MPI_REQUEST_NULL;
  bool done = false;
  // After MPI finished: an avg's division, or a receive's expected count.
  int32_t divide_dtype = -1;          // >= 0: divide `data` by the world size
  void* data = nullptr;
  int64_t numel = 0;
  MPI_Datatype recv_type = MPI_DATATYPE_NULL;  // set: check the count received
  // Set: the request is the arrival (MPI_Ibarrier), and this blocking call the work's own.
  std::function<int()> then;
  const char* then_name = "";
};

/// Finishes the communicator's deferred work, if any (inside its timeout); throws its failure.
void settle(MpiComm& c);

/// The work_wait, work_test and work_release slots.
kf_status_t work_wait(void* work, int64_t timeout_ms, char* error, size_t error_cap);
kf_status_t work_test(void* work, int32_t* done, char* error, size_t error_cap);
void work_release(void* work);

}  // namespace kfmpi
