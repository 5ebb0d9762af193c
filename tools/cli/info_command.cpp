#include "info_command.hpp"

#include <cstdint>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "abi_names.hpp"
#include "cli_error.hpp"
#include "terminal_text.hpp"
#include "text_table.hpp"

namespace kf::cli {
namespace {

using Json = nlohmann::ordered_json;

Json backend_json(int32_t index) {
  kf_backend_info_t info{};
  info.struct_size = sizeof info;
  check(kf_backend_info(index, &info), "kf_backend_info(" + std::to_string(index) + ")");
  return Json{{"name", str(info.name)},
              {"version", str(info.version)},
              {"device_type", str(info.device_type_name)},
              {"device_type_id", info.device_type},
              {"device_count", info.device_count},
              {"state", kf_backend_state_name(info.state)},
              {"reason", str(info.reason)},
              {"library_path", str(info.library_path)},
              {"manifest_path", str(info.manifest_path)}};
}

Json info_json() {
  uint32_t major = 0, minor = 0;
  check(kf_abi_version(&major, &minor), "kf_abi_version");
  Json backends = Json::array();
  const int32_t count = kf_backend_count();
  for (int32_t i = 0; i < count; ++i) backends.push_back(backend_json(i));
  return Json{{"schema_version", 1},
              {"version", str(kf_version())},
              {"abi", {{"major", major}, {"minor", minor}}},
              {"backends", backends}};
}

void print_text(const Json& info) {
  std::cout << "kernforge " << info["version"].get<std::string>() << " (C ABI "
            << info["abi"]["major"].get<uint32_t>() << "." << info["abi"]["minor"].get<uint32_t>()
            << ")\n";
  if (info["backends"].empty()) {
    std::cout << "backends: none found (see `kernforge doctor` or KERNFORGE_PLUGIN_PATH)\n";
    return;
  }
  std::cout << "backends:\n";
  TextTable table({"name", "version", "device", "devices", "state", "library"});
  for (const Json& b : info["backends"]) {
    table.add_row({b["name"].get<std::string>(), b["version"].get<std::string>(),
                   b["device_type"].get<std::string>(), std::to_string(b["device_count"].get<int>()),
                   b["state"].get<std::string>(), b["library_path"].get<std::string>()});
  }
  table.print(std::cout, "  ");
  for (const Json& b : info["backends"]) {
    const std::string reason = b["reason"].get<std::string>();
    if (!reason.empty()) {
      std::cout << "  " << terminal_safe(b["name"].get<std::string>()) << ": "
                << terminal_safe(reason) << "\n";
    }
  }
}

}  // namespace

CLI::App* add_info_command(CLI::App& app, InfoOptions& options) {
  CLI::App* cmd = app.add_subcommand("info", "Versions (package, ABI), backends and devices");
  cmd->add_flag("--json", options.json, "Print JSON (schema_version 1) instead of text");
  return cmd;
}

int run_info(const InfoOptions& options) {
  const Json info = info_json();
  if (options.json) {
    std::cout << json_text(info) << "\n";
  } else {
    print_text(info);
  }
  return kExitOk;
}

}  // namespace kf::cli
