// How the ranks of an NCCL communicator agree on its ncclUniqueId (NCCL's bootstrap address):
// rank 0 makes it (ncclGetUniqueId) and hands it to the others through the rendezvous.
//  - "tcp://..." (env://): the host's key-value store (kf_comm_init_t.store, collective ABI
//    1.1), key "<prefix>nccl/unique-id", get waiting at most the init's timeout;
//  - "file://<folder>": a file "<folder>/<prefix, its / and : as _>nccl-unique-id", which rank 0
//    writes to a temporary name and renames (so no rank reads half of it); the others poll for
//    it until the timeout;
//  - anything else (mpi://) is refused with KF_UNIMPLEMENTED, saying what the engine takes.
// A rank that does not find the id inside the timeout gets KF_TIMEOUT naming the rendezvous.
#pragma once

#include <nccl.h>

#include "kernforge/collective.h"

namespace kfnccl {

/// Throws KF_UNIMPLEMENTED for a rendezvous the plugin does not take (before any CUDA call).
void check_rendezvous(const kf_comm_init_t& init);
/// The communicator's unique id, made here (rank 0) or received from rank 0.
ncclUniqueId exchange_unique_id(const kf_comm_init_t& init);

}  // namespace kfnccl
