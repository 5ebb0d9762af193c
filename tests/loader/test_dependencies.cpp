// test_dependencies.cpp — the preload and global_deps steps with libkf_test_dep (SONAME
// libkf_test_dep.so.1), which the needs_dep plugin links without RPATH: a missing required
// dependency, a missing optional one, a dependency found only through a `folders` layout or the
// Python wheel layout under a library root, one already mapped before start-up (not loaded
// twice), and global_deps loaded RTLD_GLOBAL.
#include <string>

#include "loader_fixture.hpp"

#if !defined(_WIN32)
#  include <dlfcn.h>
#endif

namespace loader_test {
namespace {

using Dependencies = LoaderTest;

const std::string kDep = KF_TEST_DEP_SONAME;

/// Copies libkf_test_dep into `folder` under its soname; returns the copy's canonical path.
fs::path place_dep(const fs::path& folder) {
  fs::create_directories(folder);
  const fs::path to = fs::canonical(folder) / kDep;
  fs::copy_file(KF_TEST_DEP_PATH, to, fs::copy_options::overwrite_existing);
  return to;
}

/// needs_dep's manifest with `preload` and `search`.
json needs_dep_manifest(const json& preload, const json& search) {
  json m = manifest_for("needs_dep");
  m["preload"] = preload;
  m["search"] = search;
  return m;
}

json dep_entry(const json& folders = json()) {
  json e = {{"soname", kDep}};
  if (!folders.is_null()) e["folders"] = folders;
  return e;
}

/// The report shows `path` as the live copy of `soname` for `plugin`: in a "preload" (or
/// "global_dep") step, or in the backend's "libraries" list. Returns the matching text.
std::string expect_dependency_shown(const std::string& plugin, const std::string& soname,
                                    const fs::path& path) {
  const json r = report();
  for (const char* what : {"preload", "global_dep"}) {
    for (const json& s : steps(r, plugin, what)) {
      const std::string text = str_of(s, "path") + " | " + str_of(s, "reason");
      if (contains(text, path.string())) return s.dump();
    }
  }
  for (const json& l : report_libraries(r, plugin)) {
    if (str_of(l, "soname") == soname && str_of(l, "path") == path.string()) return l.dump();
  }
  ADD_FAILURE() << "the report does not show " << path << " for " << soname << " of " << plugin
                << "\nsteps: " << (r.contains("steps") ? r["steps"].dump(2) : "<none>")
                << "\nlibraries: " << json(report_libraries(r, plugin)).dump(2);
  return "";
}

TEST_F(Dependencies, MissingRequiredDependency) {
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(json::array({dep_entry()}), {"$ORIGIN/deps"}));
  fs::create_directories(s.folder / "deps");
  init_ok({s.folder});
  const BackendView b = backend("fault_needs_dep");
  expect_state(b, KF_BACKEND_UNAVAILABLE);
  EXPECT_HAS(b.reason, kDep);
  EXPECT_HAS(b.reason, (s.folder / "deps").string());
#if defined(__linux__)
  EXPECT_HAS(b.reason, "cannot open shared object file");  // dlerror()'s text
#endif
  expect_message_names(b, {s.manifest, s.library});
}

TEST_F(Dependencies, MissingOptionalDependencyStillLoads) {
  const json preload = json::array(
      {dep_entry(), {{"soname", "libkf_absent_dep.so.3"}, {"required", false}}});
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(preload, {"$ORIGIN/deps"}));
  const fs::path dep = place_dep(s.folder / "deps");
  init_ok({s.folder});
  const BackendView b = backend("fault_needs_dep");
  expect_state(b, KF_BACKEND_LOADED);
  expect_dependency_shown("fault_needs_dep", kDep, dep);
  EXPECT_HAS(report().dump(), "libkf_absent_dep.so.3");
  expect_faultdev_neg_works("fault_needs_dep");
}

TEST_F(Dependencies, FoundOnlyUnderFoldersLayout) {
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(json::array({dep_entry({"kfdep"})}),
                                            {"$ORIGIN/site/{folder}/lib"}));
  fs::create_directories(s.folder / "site" / "other" / "lib");
  const fs::path dep = place_dep(s.folder / "site" / "kfdep" / "lib");
  init_ok({s.folder});
  const BackendView b = backend("fault_needs_dep");
  expect_state(b, KF_BACKEND_LOADED);
  expect_dependency_shown("fault_needs_dep", kDep, dep);
  expect_faultdev_neg_works("fault_needs_dep");
}

// The Python frontend passes its site-packages roots; R/nvidia/<folder>/lib is searched.
TEST_F(Dependencies, FoundUnderWheelLayoutOfLibraryRoot) {
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(json::array({dep_entry({"kfdep"})}),
                                            {"$ORIGIN/deps"}));
  const fs::path dep = place_dep(tmp() / "sp" / "nvidia" / "kfdep" / "lib");
  init_ok({s.folder}, {tmp() / "sp"});
  const BackendView b = backend("fault_needs_dep");
  expect_state(b, KF_BACKEND_LOADED);
  expect_dependency_shown("fault_needs_dep", kDep, dep);
  expect_faultdev_neg_works("fault_needs_dep");
}

#if !defined(_WIN32)
/// Lines of /proc/self/maps that map a file under `folder`.
std::string mappings_under(const fs::path& folder) {
  std::string out;
  std::istringstream maps(read_file("/proc/self/maps"));
  for (std::string line; std::getline(maps, line);) {
    if (contains(line, folder.string() + "/")) out += line + "\n";
  }
  return out;
}
#endif

TEST_F(Dependencies, AlreadyMappedIsNotLoadedTwice) {
#if defined(_WIN32)
  GTEST_SKIP() << "dlopen and /proc/self/maps are POSIX";
#else
  const fs::path a = place_dep(tmp() / "app");
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(json::array({dep_entry()}), {"$ORIGIN/deps"}));
  const fs::path b_copy = place_dep(s.folder / "deps");
  void* app_copy = dlopen(a.string().c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(app_copy, nullptr) << dlerror();
  init_ok({s.folder});
  const BackendView b = backend("fault_needs_dep");
  expect_state(b, KF_BACKEND_LOADED);
  const std::string shown = expect_dependency_shown("fault_needs_dep", kDep, a);
  EXPECT_HAS(shown, "already mapped");
  EXPECT_EQ(mappings_under(b_copy.parent_path()), "")
      << "the copy in " << b_copy.parent_path() << " was mapped too";
  expect_faultdev_neg_works("fault_needs_dep");
#endif
}

TEST_F(Dependencies, GlobalDepsAreLoadedGlobally) {
#if defined(_WIN32)
  GTEST_SKIP() << "RTLD_GLOBAL is POSIX";
#else
  json m = manifest_for("ok");
  m["global_deps"] = {kDep};
  m["search"] = {"$ORIGIN/deps"};
  const Staged s = stage(tmp() / "plugins", "ok", m);
  const fs::path dep = place_dep(s.folder / "deps");
  ASSERT_EQ(dlsym(RTLD_DEFAULT, "kf_test_dep_answer"), nullptr) << "already global before init";
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_LOADED);
  void* fn = dlsym(RTLD_DEFAULT, "kf_test_dep_answer");
  ASSERT_NE(fn, nullptr) << "global_deps did not load " << kDep << " RTLD_GLOBAL";
  EXPECT_EQ(reinterpret_cast<int (*)(void)>(fn)(), 42);
  expect_dependency_shown("fault_ok", kDep, dep);
  expect_faultdev_neg_works("fault_ok");
#endif
}

}  // namespace
}  // namespace loader_test
