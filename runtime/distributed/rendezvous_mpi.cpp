#include "distributed/rendezvous_mpi.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>

#include "core/error.hpp"

namespace kf {
namespace {

// What an MPI launcher sets: Open MPI's mpirun, then the PMI names of MPICH's and Slurm's.
struct LauncherVars {
  const char* rank;
  const char* size;
};
constexpr LauncherVars kLaunchers[] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                       {"PMI_RANK", "PMI_SIZE"}};

std::optional<int32_t> env_int(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || text[0] == '\0') return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 0 || value > INT32_MAX) {
    fail(KF_INVALID_ARGUMENT, "rendezvous 'mpi://': {}='{}' is not a rank or size; it is set by "
         "the MPI launcher (mpirun), not by hand", name, text);
  }
  return static_cast<int32_t>(value);
}

struct FromLauncher {
  int32_t rank;
  int32_t world_size;
  const char* rank_var;
  const char* size_var;
};

FromLauncher from_launcher() {
  for (const LauncherVars& v : kLaunchers) {
    const std::optional<int32_t> rank = env_int(v.rank);
    const std::optional<int32_t> size = env_int(v.size);
    if (rank && size && *size >= 1 && *rank < *size) return {*rank, *size, v.rank, v.size};
  }
  fail(KF_INVALID_ARGUMENT, "rendezvous 'mpi://': this process was not started by an MPI "
       "launcher (neither OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE nor PMI_RANK/PMI_SIZE is "
       "set); start every rank with mpirun (mpirun -np 4 ./app), or use file:// or env://");
}

void check_given(const char* what, int32_t given, int32_t launched, const char* var) {
  if (given == -1 || given == launched) return;
  fail(KF_INVALID_ARGUMENT, "rendezvous 'mpi://': {} is {} but the MPI launcher says {} ({}); "
       "pass -1 to take it from the launcher", what, given, launched, var);
}

}  // namespace

Rendezvous mpi_rendezvous(const std::string& url, int32_t rank, int32_t world_size) {
  if (url != "mpi://") {
    fail(KF_INVALID_ARGUMENT, "rendezvous '{}': an MPI rendezvous is 'mpi://' with nothing "
         "after it (the ranks are mpirun's)", url);
  }
  const FromLauncher l = from_launcher();
  check_given("world_size", world_size, l.world_size, l.size_var);
  check_given("rank", rank, l.rank, l.rank_var);
  return Rendezvous{url, l.rank, l.world_size, {}, 0};
}

}  // namespace kf
