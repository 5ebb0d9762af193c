// Waiting for an MPI request inside a timeout. MPI's own MPI_Wait cannot stop at a deadline,
// so the plugin polls MPI_Test, which also drives MPI's progress (the rounds of a nonblocking
// collective advance only inside MPI calls). The poll spins at first, then yields the core
// between tests, and only after a long wait (a peer that is late, not a transfer under way)
// sleeps between them, up to a millisecond.
#pragma once

#include <cstdint>

#include <mpi.h>

namespace kfmpi {

/// Waits for `request` at most `timeout_ms`: true when it finished (`status` filled), false at
/// the timeout (the request still pending). Throws a PluginError for an MPI error, naming
/// `what`.
bool wait_request(MPI_Request& request, int64_t timeout_ms, MPI_Status& status,
                  const char* what);
/// One MPI_Test of `request`: whether it finished. Throws as wait_request.
bool test_request(MPI_Request& request, MPI_Status& status, const char* what);

}  // namespace kfmpi
