#include "run_command.hpp"

#include "cli_error.hpp"

#if !defined(_WIN32)

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rank_processes.hpp"

extern char** environ;

namespace kf::cli {
namespace {

// A port nobody listens on now (the kernel's pick for a socket bound to port 0 on loopback).
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  const bool ok = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  const std::string why = std::strerror(errno);
  if (fd >= 0) close(fd);
  if (!ok) {
    throw CliError("cannot find a free port for MASTER_PORT (" + why + "); give --master-port",
                   kExitFailure);
  }
  return ntohs(a.sin_port);
}

bool is_job_variable(const std::string& entry) {
  for (const char* name : {"RANK=", "LOCAL_RANK=", "WORLD_SIZE=", "LOCAL_WORLD_SIZE=",
                           "MASTER_ADDR=", "MASTER_PORT="}) {
    if (entry.rfind(name, 0) == 0) return true;
  }
  return false;
}

// This process's environment with rank `rank`'s variables in place of any set before.
std::vector<std::string> rank_environment(int rank, int n, int port) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (!is_job_variable(*e)) env.emplace_back(*e);
  }
  for (const char* name : {"RANK=", "LOCAL_RANK="}) env.push_back(name + std::to_string(rank));
  for (const char* name : {"WORLD_SIZE=", "LOCAL_WORLD_SIZE="}) env.push_back(name + std::to_string(n));
  env.push_back("MASTER_ADDR=127.0.0.1");
  env.push_back("MASTER_PORT=" + std::to_string(port));
  return env;
}

}  // namespace

int run_run(const RunOptions& options, const std::vector<std::string>& command) {
  std::vector<std::string> argv = command;
  if (!argv.empty() && argv.front() == "--") argv.erase(argv.begin());
  if (argv.empty()) {
    throw CliError("run: name the program to start, such as `kernforge run -n 2 -- python3 "
                   "train.py`", kExitUsage);
  }
  RankPlan plan;
  plan.argv = argv;
  plan.grace_s = options.grace_s;
  const int port = options.master_port != 0 ? options.master_port : free_port();
  for (int r = 0; r < options.nproc; ++r) plan.envs.push_back(rank_environment(r, options.nproc, port));
  return run_ranks(plan);
}

}  // namespace kf::cli

#else

namespace kf::cli {

int run_run(const RunOptions&, const std::vector<std::string>&) {
  throw CliError("run is not available on Windows (it starts the ranks with POSIX fork and "
                 "exec); start each rank yourself with RANK, WORLD_SIZE, MASTER_ADDR and "
                 "MASTER_PORT set, or use file:// rendezvous", kExitFailure);
}

}  // namespace kf::cli

#endif

namespace kf::cli {

std::vector<std::string> run_command_line(CLI::App& app, CLI::App& run) {
  std::vector<std::string> out = run.remaining();
  for (const std::string& a : app.remaining()) out.push_back(a);
  return out;
}

CLI::App* add_run_command(CLI::App& app, RunOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "run", "Start N local processes of one job with the env:// variables (RANK, WORLD_SIZE, "
             "MASTER_ADDR, MASTER_PORT, ...)");
  cmd->add_option("-n,--nproc", options.nproc, "How many ranks (processes) to start")
      ->required()->check(CLI::Range(1, 4096));
  cmd->add_option("--master-port", options.master_port,
                  "MASTER_PORT, where rank 0 serves the rendezvous (default: a free port)")
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--grace", options.grace_s,
                  "Seconds between SIGTERM and SIGKILL when the ranks are stopped (default 5)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->prefix_command();  // the program and its arguments: run_command_line()
  cmd->footer("After the options (or after --): the program and its arguments, run once per "
              "rank. When a rank fails, the others are stopped and the rank is named.");
  return cmd;
}

}  // namespace kf::cli
