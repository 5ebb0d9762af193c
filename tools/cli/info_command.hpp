// info_command.hpp — `kernforge info`: package and ABI versions, backends and devices.
#pragma once

#include <CLI/CLI.hpp>

namespace kf::cli {

struct InfoOptions {
  bool json = false;
};

/// Adds the `info` subcommand to `app`; its options land in `options`.
CLI::App* add_info_command(CLI::App& app, InfoOptions& options);
/// Prints the report to stdout; returns the exit code.
int run_info(const InfoOptions& options);

}  // namespace kf::cli
