// An MPI communicator of the plugin: a duplicate of MPI_COMM_WORLD (or a part of one, from
// comm_split) that returns its errors (MPI_ERRORS_RETURN) instead of ending the job, so that
// the plugin's traffic never meets the application's own.
//
// A call whose work passed its timeout stays pending in MPI (MPI cannot cancel a collective):
// the communicator is then `stuck`, refuses further calls, and should be destroyed.
// Thread safety: one call at a time per communicator (kernforge/collective.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "kernforge/collective.h"

namespace kfmpi {

struct MpiWork;

struct MpiComm {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  int tag_ub = 32767;                   // MPI's largest tag (at least 32767)
  int64_t timeout_ms = 0;               // the default of every call
  std::string stuck;                    // the call that timed out, when one did
  std::vector<MPI_Request> abandoned;   // its request, which MPI cannot free
  MpiWork* deferred = nullptr;          // a large collective not yet run (mpi_work.hpp)
};

/// Throws KF_FAILED_PRECONDITION when an earlier call of `c` timed out.
void check_usable(const MpiComm& c, const char* what);

/// The comm_init, comm_destroy, comm_split and comm_abort slots.
kf_status_t comm_init(const kf_comm_init_t* init, void** comm);
kf_status_t comm_destroy(void* comm);
kf_status_t comm_split(void* comm, int32_t color, int32_t key, const kf_comm_init_t* init,
                       void** out);
kf_status_t comm_abort(void* comm);

}  // namespace kfmpi
