// ops_command.hpp — `kernforge ops [OP]`: the op x backend matrix straight from the registry,
// or one op's schema and kernels with their provenance.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace kf::cli {

struct OpsOptions {
  bool json = false;
  std::optional<std::string> op;  // not given: the whole matrix ("" is a name no op has)
};

/// Adds the `ops` subcommand to `app`; its options land in `options`.
CLI::App* add_ops_command(CLI::App& app, OpsOptions& options);
/// Prints the matrix or the op to stdout; returns the exit code. An unknown op name throws a
/// CliError with exit code 2 that lists close names.
int run_ops(const OpsOptions& options);

}  // namespace kf::cli
