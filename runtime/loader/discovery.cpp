#include "loader/discovery.hpp"

#include <algorithm>
#include <optional>
#include <filesystem>
#include <system_error>

#include "core/logging.hpp"
#include "core/environment.hpp"
#include "loader/os.hpp"
#include "loader/report.hpp"

namespace kf {
namespace {

namespace fs = std::filesystem;

// Adds a manifest file, or every *.json in a folder (sorted), as load requests.
void add_path(const std::string& path, const std::string& source,
              std::vector<LoadRequest>& out) {
  std::error_code ec;
  // A relative path is passed on as it is and rejected there: the current directory is never
  // searched.
  if (os::is_absolute(path) && fs::is_directory(path, ec)) {
    report_search_root(path, source);
    std::vector<std::string> found;
    for (std::string& e : os::folder_entries(path)) {
      if (fs::path(e).extension() == ".json") found.push_back(std::move(e));
    }
    std::sort(found.begin(), found.end());
    for (const std::string& f : found) out.push_back(LoadRequest{f, source});
    return;
  }
  out.push_back(LoadRequest{path, source});
}

// The entries of a path list as std::getline splits it (a trailing separator adds no empty
// entry). Not with a stringstream: iostreams swallow std::bad_alloc (they set badbit), which
// would drop entries silently when memory runs out.
std::vector<std::string> split_list(const std::string& list, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < list.size()) {
    size_t end = list.find(separator, start);
    if (end == std::string::npos) end = list.size();
    out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

void add_env_paths(std::vector<LoadRequest>& out) {
  const std::optional<std::string> v = env::plugin_path();
  if (!v) return;
  for (const std::string& item : split_list(*v, os::path_list_separator())) {
    // Never the current directory: empty and relative entries are dropped.
    if (!os::is_absolute(item)) {
      log().warn("KERNFORGE_PLUGIN_PATH: entry '{}' is {} and is ignored; use absolute folders",
                 item, item.empty() ? "empty" : "relative");
      report_step(ReportStep{"discover", "", item, "skipped",
                             "KERNFORGE_PLUGIN_PATH entries must be absolute", 0});
      continue;
    }
    std::error_code ec;
    if (!fs::exists(item, ec)) {
      report_step(ReportStep{"discover", "", item, "skipped",
                             "KERNFORGE_PLUGIN_PATH entry does not exist", 0});
      continue;
    }
    add_path(item, "KERNFORGE_PLUGIN_PATH", out);
  }
}

}  // namespace

std::string core_plugin_folder() {
  const std::string core = os::core_library_path();
  if (core.empty()) return "";
  return (fs::path(core).parent_path() / "kernforge" / "plugins").string();
}

std::vector<LoadRequest> discover_plugins(const std::vector<std::string>& explicit_paths,
                                          bool autoload) {
  std::vector<LoadRequest> out;
  for (const std::string& p : explicit_paths) add_path(p, "kf_init", out);
  if (!autoload || env::autoload_disabled()) {
    report_step(ReportStep{"discover", "", "", "skipped",
                           autoload ? "KERNFORGE_AUTOLOAD=0: only explicit paths are loaded"
                                    : "kf_init autoload=0: only explicit paths are loaded", 0});
    return out;
  }
  add_env_paths(out);
  const std::string dir = core_plugin_folder();
  if (!dir.empty()) {
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
