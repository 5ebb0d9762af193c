// The "mpi://" rendezvous (docs/distributed.md): the ranks mpirun started meet through MPI
// itself, and the rank and world size come from the MPI launcher's environment
// (OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE from Open MPI's mpirun, else PMI_RANK /
// PMI_SIZE from MPICH's and Slurm's). Thread safety: reads the environment only.
#pragma once

#include <cstdint>
#include <string>

#include "distributed/rendezvous.hpp"

namespace kf {

/// The rendezvous of `url` ("mpi://"), its rank and world size taken from the launcher's
/// environment where they are -1 and checked against it where given. Throws
/// KF_INVALID_ARGUMENT when the process was not started by an MPI launcher (naming the
/// variables looked for), for an explicit rank or world size the launcher contradicts, and for
/// anything after "mpi://".
Rendezvous mpi_rendezvous(const std::string& url, int32_t rank, int32_t world_size);

}  // namespace kf
