// Waiting for an MPI request inside a timeout. MPI's own MPI_Wait cannot stop at a deadline,
// so the plugin polls MPI_Test, which also drives MPI's progress (the rounds of a nonblocking
// collective advance only inside MPI calls). As Open MPI's own waits do, the poll spins while
// every rank of the machine has a core, and yields the core after each test when the machine
// is oversubscribed (more local ranks than cores: OMPI_COMM_WORLD_LOCAL_SIZE or
// MPI_LOCALNRANKS against the cores of the process's affinity). A wait still unfinished after
// 100 ms is for a late rank, not a transfer (large collectives move their data in MPI's
// blocking calls, mpi_work.hpp): it then sleeps between tests, growing to a millisecond, and
// keeps the core free.
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
