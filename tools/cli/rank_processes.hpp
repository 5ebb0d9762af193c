// rank_processes.hpp — the local processes of `kernforge run` (run_command.hpp): one per rank,
// each with its own environment, watched until all end. SIGINT and SIGTERM sent to the launcher
// are passed on to every rank still running. When a rank exits non-zero or is killed by a
// signal, the launcher says which rank failed and why and stops the others: SIGTERM, then
// SIGKILL after the grace period. Each rank runs in a process group of its own, and signals go
// to the whole group, so what a rank started (a shell's children) stops with it; a terminal's
// Ctrl-C reaches the launcher, which passes it on. POSIX only (fork, execvp, waitpid).
#pragma once

#include <string>
#include <vector>

namespace kf::cli {

struct RankPlan {
  std::vector<std::string> argv;               // the program and its arguments
  std::vector<std::vector<std::string>> envs;  // per rank: "NAME=value", the whole environment
  double grace_s = 5.0;                        // from SIGTERM to SIGKILL
};

/// Starts every rank and waits for them all. The exit code: 0 when every rank exited 0; the
/// failed rank's status (128 + the signal when a signal killed it) when one failed; 128 + the
/// signal when the launcher was interrupted. Reports go to stderr, "kernforge run: ...".
int run_ranks(const RankPlan& plan);

/// "exited with status 3", "was killed by signal 11 (SIGSEGV)" for a waitpid status.
std::string describe_exit(int wait_status);

}  // namespace kf::cli
