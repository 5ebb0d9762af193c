// MPI in this process (docs/distributed.md, "The mpi engine"): the plugin starts MPI at the
// first communicator unless the application already has, and ends it at the process's exit
// only when it started it itself.
//
// MPI_Init_thread runs on a helper thread, so a rank that never starts cannot hold the others
// past their timeout (MPI's start waits for every rank mpirun launched); a start that passed
// the timeout goes on, and the next communicator waits for it again. It asks for
// MPI_THREAD_MULTIPLE; with MPI_THREAD_SERIALIZED (an MPI built without threads, or an
// application that started MPI so) the plugin takes one process-wide lock around each of its
// own MPI calls, and the application must not call MPI on another thread at the same time.
// Lower levels are refused when the plugin starts MPI; when the application started MPI at a
// lower level, the plugin's calls must come from the thread MPI allows.
#pragma once

#include <cstdint>
#include <mutex>

namespace kfmpi {

/// Starts MPI if nobody has (waiting at most `timeout_ms`: then a PluginError KF_TIMEOUT), or
/// takes the application's. Throws KF_FAILED_PRECONDITION when MPI was already finalised.
void ensure_mpi(int64_t timeout_ms);

/// A lock on the process-wide MPI mutex when MPI serialises calls; an empty lock otherwise.
std::unique_lock<std::mutex> mpi_guard();

}  // namespace kfmpi
