#include "doctor_command.hpp"

#include <cstdint>
#include <iostream>
#include <string>

#include "cli_error.hpp"
#include "doctor_hints.hpp"
#include "doctor_serving.hpp"
#include "doctor_verdict.hpp"
#include "load_report.hpp"
#include "text_table.hpp"

namespace kf::cli {
namespace {

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string millis(int64_t micros) {
  const int64_t tenths = (micros + 50) / 100;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " ms";
}

void print_header(const LoadReport& r) {
  std::cout << "kernforge " << or_dash(r.kernforge_version) << " (C ABI " << or_dash(r.abi)
            << ", plugin ABI " << or_dash(r.plugin_abi) << ")\n";
  std::cout << "core library: " << (r.core_library.empty() ? "(not reported)" : r.core_library)
            << "\n";
  if (r.environment.empty()) {
    std::cout << "environment: no kernforge variable is set\n";
  } else {
    std::cout << "environment:\n";
    for (const auto& [name, value] : r.environment) std::cout << "  " << name << "=" << value << "\n";
  }
  if (r.search_roots.empty()) {
    std::cout << "search roots: none (discovery off, or no plugin folder exists)\n";
  } else {
    std::cout << "search roots:\n";
    for (const auto& [path, source] : r.search_roots) {
      std::cout << "  " << path << "  (" << or_dash(source) << ")\n";
    }
  }
}

void print_backends(const LoadReport& r) {
  if (r.backends.empty()) {
    std::cout << "backends: none found\n";
    return;
  }
  std::cout << "backends:\n";
  TextTable table({"name", "state", "devices", "version", "library"});
  for (const ReportBackend& b : r.backends) {
    const std::string devices =
        b.state == "loaded" ? std::to_string(b.device_count) + " " + b.device_type : "-";
    table.add_row({or_dash(b.name), or_dash(b.state), devices, or_dash(b.version),
                   or_dash(b.library)});
  }
  table.print(std::cout, "  ");
}

// A line per collective plugin (docs/distributed.md): loaded, or why not.
void print_collectives(const LoadReport& r) {
  if (r.collectives.empty()) {
    std::cout << "collectives: none found\n";
    return;
  }
  std::cout << "collectives:\n";
  for (const ReportBackend& c : r.collectives) {
    std::cout << "  " << or_dash(c.name) << " (" << or_dash(c.device_type) << "): ";
    if (c.state == "loaded") {
      std::cout << "loaded " << or_dash(c.version) << " " << or_dash(c.library)
                << (c.details.empty() ? "" : " (" + c.details + ")") << "\n";
    } else {
      std::cout << or_dash(c.state) << (c.status.empty() ? "" : ", " + c.status) << ": "
                << or_dash(c.reason) << "\n";
    }
  }
}

void print_problems(const LoadReport& r) {
  bool first = true;
  for (const ReportBackend& b : r.backends) {
    if (b.state == "loaded") continue;
    if (first) std::cout << "not loaded:\n";
    first = false;
    std::cout << "  " << or_dash(b.name) << " (" << or_dash(b.state)
              << (b.status.empty() ? "" : ", " + b.status) << "): " << or_dash(b.reason) << "\n";
    if (!b.manifest.empty()) {
      std::cout << "    manifest: " << b.manifest
                << (b.source.empty() ? "" : " (source: " + b.source + ")") << "\n";
    }
    std::cout << "    what to do: " << doctor_hint(b, r) << "\n";
  }
  for (const ReportStep& s : r.steps) {
    if (s.what != "global_deps" || s.result != "failed") continue;
    std::cout << "global dependencies failed: " << or_dash(s.path) << ": " << or_dash(s.reason)
              << "\n    what to do: " << global_deps_hint(s) << "\n";
  }
}

void print_libraries_and_details(const LoadReport& r) {
  bool first = true;
  for (const ReportBackend& b : r.backends) {
    for (const ReportLibrary& l : b.libraries) {
      if (first) std::cout << "plugin libraries (global_deps and preload):\n";
      first = false;
      std::cout << "  " << b.name << ": " << l.soname << " -> "
                << (l.path.empty() ? "(not found)" : l.path) << " ("
                << or_dash(l.how) << (l.global ? ", global" : "") << ")\n";
    }
  }
  first = true;
  for (const ReportBackend& b : r.backends) {
    if (b.details.empty()) continue;
    if (first) std::cout << "details:\n";
    first = false;
    std::cout << "  " << b.name << ": " << b.details << "\n";
  }
}

void print_steps(const LoadReport& r) {
  std::cout << "steps:\n";
  TextTable table({"what", "plugin", "result", "micros", "path", "reason"});
  for (const ReportStep& s : r.steps) {
    table.add_row({or_dash(s.what), or_dash(s.plugin), or_dash(s.result),
                   std::to_string(s.micros), or_dash(s.path), s.reason});
  }
  table.print(std::cout, "  ");
  std::cout << "start-up: "
            << (r.startup_micros ? millis(*r.startup_micros) + " (" +
                                       std::to_string(*r.startup_micros) + " us)"
                                 : std::string("not reported"))
            << "\n";
}

}  // namespace

CLI::App* add_doctor_command(CLI::App& app, DoctorOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "doctor", "The load report: search roots, every plugin and library with its state, reason "
                "and what to do. Exit 0 all well, 1 degraded, 2 no usable backend");
  cmd->add_flag("--json", options.json,
                "Print the report exactly as kf_runtime_report_json writes it (schema_version 1)");
  cmd->add_flag("-v,--verbose", options.verbose, "Also list every loader step and its time");
  return cmd;
}

int run_doctor(const DoctorOptions& options) {
  std::string text;
  try {
    text = fetch_report_json();
  } catch (const CliError& e) {  // the runtime did not even start: nothing is usable
    throw CliError(std::string(e.what()) + "\nkernforge doctor: no usable backend: the runtime "
                   "did not start (see the message above)", kDoctorNoBackend);
  }
  if (options.json) {
    // The runtime's text is the contract: printed as it is (plus a final newline).
    std::cout << text << (text.empty() || text.back() != '\n' ? "\n" : "") << std::flush;
    return doctor_verdict(parse_load_report(text)).exit_code;
  }
  const LoadReport report = parse_load_report(text);
  print_header(report);
  print_backends(report);
  print_serving(report, std::cout);
  print_collectives(report);
  print_problems(report);
  print_libraries_and_details(report);
  if (options.verbose) print_steps(report);
  const DoctorVerdict verdict = doctor_verdict(report);
  std::cout << verdict.line << "\n";
  return verdict.exit_code;
}

}  // namespace kf::cli
