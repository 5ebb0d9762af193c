#include "mpi_comm.hpp"

#include <memory>
#include <string>

#include "mpi_errors.hpp"
#include "mpi_process.hpp"
#include "mpi_wait.hpp"

namespace kfmpi {
namespace {

void check_rendezvous(const char* url) {
  const std::string text = url != nullptr ? url : "";
  if (text != "mpi://") {
    throw PluginError(KF_UNIMPLEMENTED, "the mpi plugin meets through the 'mpi://' rendezvous "
                      "only (the ranks mpirun started); got '" + text + "': start the job with "
                      "mpirun and pass rendezvous \"mpi://\"");
  }
}

// MPI's view of the world agrees with the rank and world size the core resolved.
void check_world(int32_t rank, int32_t world_size) {
  int mpi_rank = 0, mpi_size = 0;
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &mpi_size), "MPI_Comm_size");
  if (mpi_rank != rank || mpi_size != world_size) {
    throw PluginError(KF_INVALID_ARGUMENT, "MPI_COMM_WORLD has this process as rank " +
                      std::to_string(mpi_rank) + " of " + std::to_string(mpi_size) +
                      " but the communicator was asked for rank " + std::to_string(rank) +
                      " of " + std::to_string(world_size) + "; pass -1 for both with mpi://");
  }
}

// Every rank of `parent` has arrived, or KF_TIMEOUT: MPI_Comm_split has no timeout of its own.
void wait_for_all(MPI_Comm parent, int64_t timeout_ms, const char* what) {
  MPI_Request r = MPI_REQUEST_NULL;
  {
    auto lock = mpi_guard();
    check_mpi(MPI_Ibarrier(parent, &r), "MPI_Ibarrier");
  }
  MPI_Status status;
  if (!wait_request(r, timeout_ms, status, what)) {
    throw PluginError(KF_TIMEOUT, std::string(what) + ": not every rank arrived within " +
                      std::to_string(timeout_ms) + " ms");
  }
}

// Errors return to the plugin; the rank, size and largest tag are read once.
void adopt(MpiComm& c, MPI_Comm comm, const char* name) {
  auto lock = mpi_guard();
  c.comm = comm;
  check_mpi(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  if (name != nullptr) (void)MPI_Comm_set_name(comm, name);
  check_mpi(MPI_Comm_rank(comm, &c.rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &c.size), "MPI_Comm_size");
  void* ub = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &found), "MPI_Comm_get_attr");
  if (found != 0 && ub != nullptr) c.tag_ub = *static_cast<int*>(ub);
}

MpiComm* join(const kf_comm_init_t& in) {
  check_rendezvous(in.rendezvous);
  ensure_mpi(in.timeout_ms);
  check_world(in.rank, in.world_size);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Request r = MPI_REQUEST_NULL;
  {
    auto lock = mpi_guard();
    check_mpi(MPI_Comm_idup(MPI_COMM_WORLD, &comm, &r), "MPI_Comm_idup");
  }
  MPI_Status status;
  if (!wait_request(r, in.timeout_ms, status, "MPI_Comm_idup")) {
    throw PluginError(KF_TIMEOUT, "MPI_Comm_idup of MPI_COMM_WORLD did not finish within " +
                      std::to_string(in.timeout_ms) + " ms: not every rank made the "
                      "communicator (every rank makes the same communicators in the same order)");
  }
  auto c = std::make_unique<MpiComm>();
  c->timeout_ms = in.timeout_ms;
  adopt(*c, comm, in.prefix);
  return c.release();
}

MpiComm* split(MpiComm& parent, int32_t color, int32_t key, const kf_comm_init_t& in) {
  check_usable(parent, "comm_split");
  const int64_t timeout_ms = in.timeout_ms > 0 ? in.timeout_ms : parent.timeout_ms;
  wait_for_all(parent.comm, timeout_ms, "comm_split");
  MPI_Comm comm = MPI_COMM_NULL;
  {
    auto lock = mpi_guard();
    check_mpi(MPI_Comm_split(parent.comm, color < 0 ? MPI_UNDEFINED : color, key, &comm),
              "MPI_Comm_split");
  }
  if (comm == MPI_COMM_NULL) return nullptr;  // a negative color: this rank takes no part
  auto c = std::make_unique<MpiComm>();
  c->timeout_ms = timeout_ms;
  adopt(*c, comm, in.prefix);
  return c.release();
}

}  // namespace

void check_usable(const MpiComm& c, const char* what) {
  if (c.stuck.empty()) return;
  throw PluginError(KF_FAILED_PRECONDITION, std::string(what) + ": an earlier " + c.stuck +
                    " on this communicator timed out and is still pending in MPI (MPI cannot "
                    "cancel a collective); destroy the communicator, and end the job or make "
                    "a new one on every rank");
}

kf_status_t comm_init(const kf_comm_init_t* in, void** comm) {
  return guarded(in->error, in->error_cap, [&] { *comm = join(*in); });
}

kf_status_t comm_destroy(void* comm) {
  auto* c = static_cast<MpiComm*>(comm);
  if (c == nullptr) return KF_OK;
  {
    auto lock = mpi_guard();
    int finalized = 1;
    // After MPI_Finalize every communicator is gone already.
    if (MPI_Finalized(&finalized) == MPI_SUCCESS && finalized == 0 && c->comm != MPI_COMM_NULL) {
      (void)MPI_Comm_free(&c->comm);  // pending requests of a stuck call finish or stay
    }
  }
  delete c;
  return KF_OK;
}

kf_status_t comm_split(void* comm, int32_t color, int32_t key, const kf_comm_init_t* in,
                       void** out) {
  return guarded(in->error, in->error_cap, [&] {
    *out = split(*static_cast<MpiComm*>(comm), color, key, *in);
  });
}

// MPI's only abort is MPI_Abort, which ends every process of the job (Open MPI: all of
// MPI_COMM_WORLD, whatever the communicator); it returns only when it failed.
kf_status_t comm_abort(void* comm) {
  const int code = MPI_Abort(static_cast<MpiComm*>(comm)->comm, 1);
  return code == MPI_SUCCESS ? KF_OK : status_of_mpi(code);
}

}  // namespace kfmpi
