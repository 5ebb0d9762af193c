// bench_command.hpp — `kernforge bench`: the standard workloads (bench_workloads.hpp) on device
// 0 of every loaded backend, timed, with a progress line on a terminal, then a table or --json.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kf::cli {

struct BenchOptions {
  bool json = false;
  bool quick = false;                 // small sizes and short timing: seconds in all
  std::vector<std::string> backends;  // empty: every loaded backend
  double seconds = 1.0;               // time budget per workload and backend
};

/// Adds the `bench` subcommand to `app`; its options land in `options`.
CLI::App* add_bench_command(CLI::App& app, BenchOptions& options);
/// Runs the workloads and prints the results to stdout; returns the exit code (0; 2 for a
/// backend name that is not loaded). A workload a backend cannot run is a skipped row, with why.
int run_bench(const BenchOptions& options);

}  // namespace kf::cli
