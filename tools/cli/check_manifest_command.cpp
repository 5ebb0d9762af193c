#include "check_manifest_command.hpp"

#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli_error.hpp"
#include "kernforge/kernforge.h"
#include "terminal_text.hpp"

namespace kf::cli {
namespace {

struct Verdict {
  std::string file;  // absolute
  bool ok = false;
  std::string reason;  // the loader's message when refused
};

Verdict check_one(const std::string& file) {
  Verdict v;
  std::error_code ec;
  v.file = std::filesystem::absolute(file, ec).lexically_normal().string();
  if (ec) v.file = file;
  v.ok = kf_plugin_manifest_check(v.file.c_str()) == KF_OK;
  if (!v.ok) v.reason = kf_last_error_message();
  return v;
}

}  // namespace

CLI::App* add_check_manifest_command(CLI::App& app, CheckManifestOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "check-manifest", "Check plugin manifests with the loader's own rules (loads nothing)");
  cmd->add_option("files", options.files, "Manifest files (.json)")->required();
  cmd->add_flag("--json", options.json, "Print JSON (schema_version 1)");
  return cmd;
}

int run_check_manifest(const CheckManifestOptions& options) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  bool all_ok = true;
  for (const std::string& file : options.files) {
    const Verdict v = check_one(file);
    all_ok = all_ok && v.ok;
    rows.push_back({{"file", v.file}, {"ok", v.ok}, {"reason", v.reason}});
    if (options.json) continue;
    if (v.ok) {
      std::cout << terminal_safe(v.file) << ": ok\n";
    } else {
      std::cerr << "kernforge: " << terminal_safe(v.reason) << "\n";
    }
  }
  if (options.json) {
    std::cout << json_text(nlohmann::ordered_json{{"schema_version", 1}, {"manifests", rows}})
              << "\n";
  }
  return all_ok ? kExitOk : kExitUsage;
}

}  // namespace kf::cli
