#include "loader/dependencies.hpp"

#include <fmt/format.h>

#include "loader/os.hpp"
#include "loader/report.hpp"
#include "loader/search_roots.hpp"
#include "loader/security.hpp"

namespace kf {
namespace {

struct Dependency {
  std::string soname;
  std::vector<std::string> folders;
  bool required = true;
  bool global = false;
};

const char* step_name(const Dependency& d) { return d.global ? "global_dep" : "preload"; }

void record(PluginRecord& b, const Dependency& d, const std::string& path, const char* how,
            const char* result, const std::string& reason, const StepTimer& t) {
  b.dependencies.push_back(DependencyRecord{d.soname, path, how, d.global});
  report_step(ReportStep{step_name(d), b.name, path.empty() ? d.soname : path, result, reason,
                         t.micros()});
}

std::string joined(const std::vector<std::string>& items, const char* none) {
  if (items.empty()) return none;
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Why `d` was not found: every root, what was left out, and the system search's error.
std::string not_found(const Dependency& d, const SearchRoots& roots, const std::string& error) {
  std::string msg = fmt::format(
      "{}library {} was not found. Searched, in order: {}; then the system search path, where "
      "the dynamic loader said: {}.", d.required ? "required " : "", d.soname,
      joined(roots.folders, "(no search roots)"), error);
  if (!roots.dropped.empty()) msg += " Left out of the search: " + joined(roots.dropped, "") + ".";
  return msg + " Install it, or add the folder holding it to the manifest's \"search\" list";
}

// Opens the file found for `d`; false with `failure` set when it may not or cannot be loaded.
bool open_found(PluginRecord& b, const Dependency& d, const std::string& root, const std::string& path,
                LoadFailure& failure, const StepTimer& t) {
  if (std::string why = untrusted_files({path}); !why.empty()) {
    failure = LoadFailure{KF_BACKEND_REJECTED, KF_PERMISSION_DENIED,
                          fmt::format("dependency {}: {}", d.soname, why)};
    record(b, d, path, "refused", "failed", failure.reason, t);
    return false;
  }
  os::add_library_directory(root);
  const os::OpenResult r = os::open_library(path, d.global);
  if (r.library == nullptr) {
    failure.reason = fmt::format("library {} found at {} could not be loaded: {}", d.soname,
                                 path, r.error);
    record(b, d, path, "missing", d.required ? "failed" : "skipped", failure.reason, t);
    return !d.required;
  }
  record(b, d, path, "loaded", "ok", "found in " + root, t);
  return true;
}

bool load_one(PluginRecord& b, const Manifest& m, const Dependency& d, LoadFailure& failure) {
  StepTimer t;
  // Asked of the dynamic loader by soname: the application's libfoo.so.1.2.3 is libfoo.so.1.
  if (const std::string live = os::loaded_library_path(d.soname); !live.empty()) {
    // A global dependency is reopened RTLD_GLOBAL by its live path: the dynamic loader finds the
    // same file already loaded, so that maps nothing new and only makes its symbols global.
    if (d.global) os::open_library(live, true);
    record(b, d, live, "already mapped", "ok",
           "already mapped in this process from " + live + "; not loaded again", t);
    return true;
  }
  const SearchRoots roots = dependency_roots(m, d.folders);
  for (const std::string& root : roots.folders) {
    const std::string path = find_in_folder(root, d.soname);
    if (!path.empty()) return open_found(b, d, root, path, failure, t);
  }
  const os::OpenResult r = os::open_library(d.soname, d.global);
  if (r.library != nullptr) {
    // The file the system search picked (often libfoo.so.1.2.3 behind the soname's symlink).
    const std::string live = os::loaded_library_path(d.soname);
    record(b, d, live, "loaded", "ok", "found by the system search path", t);
    return true;
  }
  failure.reason = not_found(d, roots, r.error);
  record(b, d, "", "missing", d.required ? "failed" : "skipped", failure.reason, t);
  return !d.required;
}

}  // namespace

bool load_dependencies(PluginRecord& b, const Manifest& m, LoadFailure& failure) {
  std::vector<Dependency> deps;
  for (const std::string& soname : m.global_deps) deps.push_back(Dependency{soname, {}, true, true});
  for (const PreloadEntry& p : m.preload) {
    deps.push_back(Dependency{p.soname, p.folders, p.required, false});
  }
  for (const Dependency& d : deps) {
    LoadFailure f;
    if (!load_one(b, m, d, f)) {
      failure = std::move(f);
      return false;
    }
  }
  return true;
}

}  // namespace kf
