// run_command.hpp — `kernforge run -n N [--master-port P] [--grace S] [--] program args...`:
// starts N local processes of one job with the env:// variables torchrun sets (RANK,
// LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1, MASTER_PORT: a free port
// unless given) and watches them (rank_processes.hpp). POSIX only: on Windows the command says
// it is not available there.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kf::cli {

struct RunOptions {
  int nproc = 0;
  int master_port = 0;  // 0: a free one
  double grace_s = 5.0;
};

/// Adds the `run` subcommand to `app`; its options land in `options`.
CLI::App* add_run_command(CLI::App& app, RunOptions& options);
/// The program and its arguments: what follows the options (the subcommand's remaining()), or
/// what follows `--` (which CLI11 leaves in the app's extras: main.cpp allows them for this).
std::vector<std::string> run_command_line(CLI::App& app, CLI::App& run);
/// Runs the job; returns the exit code (rank_processes.hpp).
int run_run(const RunOptions& options, const std::vector<std::string>& command);

}  // namespace kf::cli
