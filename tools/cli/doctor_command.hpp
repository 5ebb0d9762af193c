// doctor_command.hpp — `kernforge doctor`: the loader's load report
// for people, or as the JSON of kf_runtime_report_json (--json). Exit codes: doctor_verdict.hpp.
#pragma once

#include <CLI/CLI.hpp>

namespace kf::cli {

struct DoctorOptions {
  bool json = false;
  bool verbose = false;  // also every loader step and the start-up time
};

/// Adds the `doctor` subcommand to `app`; its options land in `options`.
CLI::App* add_doctor_command(CLI::App& app, DoctorOptions& options);
/// Prints the report to stdout; returns 0 (all well), 1 (degraded) or 2 (no usable backend).
int run_doctor(const DoctorOptions& options);

}  // namespace kf::cli
