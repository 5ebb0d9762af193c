#include "mpi_wait.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <sched.h>

#include "mpi_errors.hpp"
#include "mpi_process.hpp"

namespace kfmpi {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kBusy = std::chrono::milliseconds(100);
constexpr auto kLongestSleep = std::chrono::microseconds(1000);

// The ranks mpirun started on this machine (1 when it does not say).
long local_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    const char* text = std::getenv(name);
    if (text != nullptr && std::atol(text) > 0) return std::atol(text);
  }
  return 1;
}

// The cores this process may run on (its affinity: a container's or a cgroup's share).
long usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return std::thread::hardware_concurrency();
  return CPU_COUNT(&set);
}

bool set(const char* name) {
  const char* text = std::getenv(name);
  return text != nullptr && (std::strcmp(text, "1") == 0 || std::strcmp(text, "true") == 0);
}

// More local ranks than cores, or Open MPI told to yield (mpi_yield_when_idle, which mpirun
// sets on an oversubscribed machine through mpi_oversubscribe).
bool oversubscribed() {
  static const bool more = local_ranks() > usable_cores() ||
                           set("OMPI_MCA_mpi_yield_when_idle") ||
                           set("OMPI_MCA_mpi_oversubscribe");
  return more;
}

void pause(Clock::duration waited, std::chrono::microseconds& sleep) {
  if (waited < kBusy) {
    if (oversubscribed()) std::this_thread::yield();
    return;
  }
  std::this_thread::sleep_for(sleep);
  sleep = std::min(sleep * 2, kLongestSleep);
}

}  // namespace

bool test_request(MPI_Request& request, MPI_Status& status, const char* what) {
  int done = 0;
  int code = MPI_SUCCESS;
  {
    auto lock = mpi_guard();
    code = MPI_Test(&request, &done, &status);
  }
  if (code == MPI_ERR_IN_STATUS) code = status.MPI_ERROR;
  check_mpi(code, what);
  return done != 0;
}

bool wait_request(MPI_Request& request, int64_t timeout_ms, MPI_Status& status,
                  const char* what) {
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + std::chrono::milliseconds(timeout_ms);
  std::chrono::microseconds sleep(10);
  for (;;) {
    if (test_request(request, status, what)) return true;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return false;
    pause(now - start, sleep);
  }
}

}  // namespace kfmpi
