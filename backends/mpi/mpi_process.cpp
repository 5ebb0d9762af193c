#include "mpi_process.hpp"

#include <chrono>
#include <condition_variable>
#include <string>
#include <thread>

#include <mpi.h>

#include "mpi_errors.hpp"

namespace kfmpi {
namespace {

enum class State { kIdle, kStarting, kReady, kFailed };

struct Start {
  std::mutex mutex;
  std::condition_variable changed;
  State state = State::kIdle;
  int code = MPI_SUCCESS;
  int provided = MPI_THREAD_SINGLE;
  bool ours = false;    // the plugin started MPI: it ends it at exit
  std::mutex serial;    // around every MPI call when provided < MPI_THREAD_MULTIPLE
};

Start& start() {
  static auto* s = new Start();  // lives for the process: a start past its timeout still ends
  return *s;
}

// Ends the MPI the plugin started, at the process's exit (mpirun counts a rank that exits
// without MPI_Finalize as failed, and ends the job).
struct Finalizer {
  ~Finalizer() {
    int finalized = 1;
    if (MPI_Finalized(&finalized) == MPI_SUCCESS && finalized == 0) (void)MPI_Finalize();
  }
};

void run_init(Start* s) {
  int provided = MPI_THREAD_SINGLE;
  const int code = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
  std::lock_guard<std::mutex> lock(s->mutex);
  s->code = code;
  s->provided = provided;
  s->state = code == MPI_SUCCESS ? State::kReady : State::kFailed;
  s->changed.notify_all();
}

// Under the start's mutex: takes an MPI the application started, or begins the plugin's own.
void begin(Start& s) {
  int initialized = 0, finalized = 0;
  check_mpi(MPI_Initialized(&initialized), "MPI_Initialized");
  check_mpi(MPI_Finalized(&finalized), "MPI_Finalized");
  if (finalized != 0) {
    throw PluginError(KF_FAILED_PRECONDITION, "MPI was finalised in this process already; MPI "
                      "cannot start twice: make the communicators before MPI_Finalize");
  }
  if (initialized != 0) {
    check_mpi(MPI_Query_thread(&s.provided), "MPI_Query_thread");
    s.state = State::kReady;
    return;
  }
  s.ours = true;
  s.state = State::kStarting;
  std::thread(run_init, &s).detach();
}

void check_started(const Start& s) {
  if (s.state == State::kFailed) {
    throw PluginError(status_of_mpi(s.code), mpi_text("MPI_Init_thread", s.code));
  }
  if (s.ours && s.provided < MPI_THREAD_SERIALIZED) {
    throw PluginError(KF_UNAVAILABLE, "MPI provides thread level " + std::to_string(s.provided) +
                      " (below MPI_THREAD_SERIALIZED): kernforge's calls may come from any "
                      "thread; use an MPI built with thread support");
  }
}

}  // namespace

void ensure_mpi(int64_t timeout_ms) {
  Start& s = start();
  std::unique_lock<std::mutex> lock(s.mutex);
  if (s.state == State::kIdle) begin(s);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  if (!s.changed.wait_until(lock, deadline, [&] { return s.state != State::kStarting; })) {
    throw PluginError(KF_TIMEOUT, "MPI_Init_thread did not finish within " +
                      std::to_string(timeout_ms) + " ms: not every rank mpirun started has "
                      "made its first communicator (MPI starts only when all have)");
  }
  check_started(s);
  if (s.ours) static Finalizer finalizer;  // registered once MPI runs, destroyed at exit
}

std::unique_lock<std::mutex> mpi_guard() {
  Start& s = start();
  if (s.provided >= MPI_THREAD_MULTIPLE) return std::unique_lock<std::mutex>();
  return std::unique_lock<std::mutex>(s.serial);
}

}  // namespace kfmpi
