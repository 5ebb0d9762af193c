#include "mpi_wait.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "mpi_errors.hpp"
#include "mpi_process.hpp"

namespace kfmpi {
namespace {

using Clock = std::chrono::steady_clock;

// Spinning (back-to-back tests) for the first 200 us serves the small messages; yielding until
// 5 s lets the other ranks on an oversubscribed machine run while a transfer is under way;
// after that the wait is for a late peer, and sleeping keeps a core free.
constexpr auto kSpin = std::chrono::microseconds(200);
constexpr auto kYield = std::chrono::seconds(5);
constexpr auto kLongestSleep = std::chrono::microseconds(1000);

void pause(Clock::duration waited, std::chrono::microseconds& sleep) {
  if (waited < kSpin) return;
  if (waited < kYield) {
    std::this_thread::yield();
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
