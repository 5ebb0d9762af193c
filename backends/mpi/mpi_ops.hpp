// The collective slots of the MPI plugin, each over MPI's nonblocking operation on the
// communicator's duplicate of MPI_COMM_WORLD: MPI_Iallreduce (in place), MPI_Ibcast,
// MPI_Iallgather, MPI_Ireduce_scatter_block, MPI_Isend, MPI_Irecv and MPI_Ibarrier. Every call
// returns at once with a work (mpi_work.hpp); the algorithms are Open MPI's (its "coll"
// components choose them by size and world).
#pragma once

#include "kernforge/collective.h"

namespace kfmpi {

kf_status_t all_reduce(const kf_collective_call_t* call, void** work);
kf_status_t broadcast(const kf_collective_call_t* call, void** work);
kf_status_t all_gather(const kf_collective_call_t* call, void** work);
kf_status_t reduce_scatter(const kf_collective_call_t* call, void** work);
kf_status_t send(const kf_collective_call_t* call, void** work);
kf_status_t recv(const kf_collective_call_t* call, void** work);
kf_status_t barrier(const kf_collective_call_t* call, void** work);

}  // namespace kfmpi
