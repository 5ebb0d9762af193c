#include "loader/discovery.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "core/logging.hpp"
#include "loader/library.hpp"
#include "loader/report.hpp"

namespace kf {
namespace {

namespace fs = std::filesystem;

const char* env(const char* name) {
#if defined(__GLIBC__)
  return secure_getenv(name);
#else
  return std::getenv(name);
#endif
}

// Adds a manifest file, or every *.json in a folder (sorted), as load requests.
void add_path(const std::string& path, const std::string& source,
              std::vector<LoadRequest>& out) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    report_search_root(path, source);
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(path, ec)) {
      if (e.path().extension() == ".json") found.push_back(e.path().string());
    }
    std::sort(found.begin(), found.end());
    for (const std::string& f : found) out.push_back(LoadRequest{f, source});
    return;
  }
  out.push_back(LoadRequest{path, source});
}

void add_env_paths(std::vector<LoadRequest>& out) {
  const char* v = env("KERNFORGE_PLUGIN_PATH");
  if (v == nullptr) return;
  std::stringstream ss(v);
  std::string item;
  while (std::getline(ss, item, ':')) {
    if (item.empty() || item[0] != '/') {
      log().warn("KERNFORGE_PLUGIN_PATH: entry '{}' is {} and is ignored; use absolute folders",
                 item, item.empty() ? "empty" : "relative");
      report_step(ReportStep{"discover", "", item, "skipped",
                             "KERNFORGE_PLUGIN_PATH entries must be absolute", 0});
      continue;
    }
    add_path(item, "KERNFORGE_PLUGIN_PATH", out);
  }
}

}  // namespace

std::vector<LoadRequest> discover_plugins(const std::vector<std::string>& explicit_paths,
                                          bool autoload) {
  std::vector<LoadRequest> out;
  for (const std::string& p : explicit_paths) add_path(p, "kf_init", out);
  const char* auto_env = env("KERNFORGE_AUTOLOAD");
  if (!autoload || (auto_env != nullptr && std::string(auto_env) == "0")) return out;
  add_env_paths(out);
  const std::string core = core_library_path();
  if (!core.empty()) {
    const std::string dir = fs::path(core).parent_path().string() + "/kernforge/plugins";
    std::error_code ec;
    if (fs::is_directory(dir, ec)) {
      add_path(dir, "next to libkernforge", out);
    } else {
      report_step(ReportStep{"discover", "", dir, "skipped", "plugin folder does not exist", 0});
    }
  }
  return out;
}

}  // namespace kf
