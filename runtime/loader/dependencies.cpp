#include "loader/dependencies.hpp"

#include <filesystem>

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

// Why `d` was not found: every root, the system search, what was left out of either.
std::string not_found(const Dependency& d, const SearchRoots& roots, const os::SystemLibrary& sys) {
  std::string msg = fmt::format(
      "{}library {} was not found. Searched, in order: {}; then the system's own search: {}.",
      d.required ? "required " : "", d.soname, joined(roots.folders, "(no search roots)"),
      joined(sys.searched, "(nothing)"));
  std::vector<std::string> dropped = roots.dropped;
  dropped.insert(dropped.end(), sys.dropped.begin(), sys.dropped.end());
  if (!dropped.empty()) msg += " Left out of the search: " + joined(dropped, "") + ".";
  return msg + " Install it, or add the folder holding it to the manifest's \"search\" list";
}

// Checks and opens the file found for `d` (in folder `root`, `how` says where from); false with
// `failure` set when it may not or cannot be loaded.
bool open_found(PluginRecord& b, const Dependency& d, const std::string& root,
                const std::string& path, const std::string& how, LoadFailure& failure,
                const StepTimer& t) {
  const TrustedFile file = trust_file(path, "dependency " + d.soname);
  if (!file.ok()) {
    failure = LoadFailure{
        file.status == KF_NOT_FOUND ? KF_BACKEND_UNAVAILABLE : KF_BACKEND_REJECTED,
        file.status, file.why};
    record(b, d, path, "refused", "failed", failure.reason, t);
    return false;
  }
  os::add_library_directory(root);
  const os::OpenResult r = os::open_library(file.real, d.global);
  if (r.library == nullptr) {
    failure.reason = fmt::format("library {} found at {} could not be loaded: {}", d.soname,
                                 file.real, r.error);
    record(b, d, file.real, "missing", d.required ? "failed" : "skipped", failure.reason, t);
    return !d.required;
  }
  record(b, d, file.real, "loaded", "ok", how, t);
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
    if (!path.empty()) return open_found(b, d, root, path, "found in " + root, failure, t);
  }
  // Note [The system search] (system_search_posix.cpp): looked up by the loader, never through
  // the current directory, and the file checked like any other before it is opened.
  const os::SystemLibrary sys = os::find_system_library(d.soname);
  if (!sys.path.empty()) {
    const std::string folder = std::filesystem::u8path(sys.path).parent_path().u8string();
    return open_found(b, d, folder, sys.path, "found by the system search (" + sys.found_by + ")",
                      failure, t);
  }
  failure.reason = not_found(d, roots, sys);
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
