// load_report.hpp — the loader's load report (docs/loader.md), read through
// kf_runtime_report_json and turned into plain structs. The JSON text is the contract; this
// reader is lenient: a key the runtime does not (yet) write reads as empty, zero or absent.
// Every string in these structs has been through terminal_safe() (terminal_text.hpp): they are
// for printing, and `kernforge doctor --json` prints the runtime's text, not these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kf::cli {

/// A library loaded (or looked for) before a plugin: its global_deps and preload entries.
struct ReportLibrary {
  std::string soname;
  std::string path;  // the live copy, "" when missing
  std::string how;   // "loaded", "already mapped", "missing"
  bool global = false;
};

struct ReportBackend {
  std::string name;
  std::string state;   // "loaded", "unavailable", "rejected", "shadowed"
  std::string status;  // "KF_OK", "KF_UNAVAILABLE", "KF_ABI_MISMATCH", ...
  std::string reason;
  std::string version;
  std::string device_type;
  int64_t device_count = 0;
  std::string library;
  std::string manifest;
  std::string source;   // where it was found: "KERNFORGE_PLUGIN_PATH", ...
  std::string details;  // the plugin's own description line, "" without one
  std::vector<ReportLibrary> libraries;
  // Unavailable: what it would run natively, op name -> dtype mask ("*": its own fallback).
  std::vector<std::pair<std::string, uint32_t>> catalogue;
  bool shipped = false;    // found in the core's own plugin folder
  bool preferred = false;  // named for its device type by KERNFORGE_PREFER_PLUGINS
};

struct ReportStep {
  std::string what;    // "discover", "manifest", "global_deps", "preload", "dlopen", ...
  std::string plugin;
  std::string path;
  std::string result;  // "ok", "failed", "skipped", "warning"
  std::string reason;
  int64_t micros = 0;
};

struct LoadReport {
  std::string kernforge_version;
  std::string abi;         // "1.0", "" when absent
  std::string plugin_abi;  // "1.0", "" when absent
  std::string core_library;
  std::optional<int64_t> startup_micros;  // the "startup_micros" key, else the "startup" step
  std::vector<std::pair<std::string, std::string>> environment;  // only the variables set
  std::vector<std::pair<std::string, std::string>> search_roots;  // path, source
  std::vector<ReportBackend> backends;
  std::vector<ReportBackend> collectives;  // the collective plugins (no devices)
  std::vector<ReportStep> steps;
};

/// The report's JSON text, exactly as kf_runtime_report_json writes it. Throws CliError.
std::string fetch_report_json();
/// Parses the text; throws CliError (exit 1) when it is not a JSON object.
LoadReport parse_load_report(const std::string& text);

}  // namespace kf::cli
