// test_dependencies.cpp — the preload and global_deps steps with libkf_test_dep (SONAME
// libkf_test_dep.so.1), which the needs_dep plugin links without RPATH: a missing required
// dependency, a missing optional one, a dependency found only through a `folders` layout or the
// Python wheel layout under a library root, one already mapped before start-up (not loaded
// twice), and global_deps loaded RTLD_GLOBAL; names that are not bare sonames (a '/', '..', an
// absolute path) refused as manifest errors, a dependency below a world-writable folder refused,
// and a copy in the current directory never loaded, whatever LD_LIBRARY_PATH says. On Linux also libkfx, whose file
// (libkfx.so.1.2.3) is not called by its soname (libkfx.so.1): the application's copy, loaded
// before start-up, is found by soname and used, as a preload and as a global_dep.
#include <set>
#include <string>

#include "loader_fixture.hpp"

#if !defined(_WIN32)
#  include <dlfcn.h>
#  include <sys/stat.h>
#  include <sys/wait.h>

#  include <cstdio>
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
  // The system's own search is done by the loader (never in the current directory) and named.
  EXPECT_HAS(b.reason, "the system's own search");
#if defined(__GLIBC__)
  EXPECT_HAS(b.reason, "ld.so.cache");
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

#if defined(KF_TEST_KFX_PATH)
const std::string kKfx = KF_TEST_KFX_SONAME;  // libkfx.so.1; the file is libkfx.so.1.2.3

/// Folder A (`root`/app) holds the application's copy under its real file name, and folder B
/// (the plugin's $ORIGIN/deps, its manifest's only search root) another copy named by the soname.
struct KfxSetup {
  fs::path app;     // A/libkfx.so.1.2.3, canonical
  fs::path b_copy;  // B/libkfx.so.1
  Staged plugin;    // needs_kfx, listing libkfx.so.1 under `key`
  void* handle = nullptr;  // the application's dlopen of `app`; null (dlerror() says why) on failure
};

/// Stages A, B and the needs_kfx plugin whose manifest lists libkfx.so.1 under `key`
/// ("preload" or "global_deps"), then opens A's copy by absolute path, RTLD_NOW | RTLD_LOCAL,
/// as an application that brought its own library does before kernforge starts.
KfxSetup stage_kfx(const fs::path& root, const std::string& key) {
  KfxSetup k;
  fs::create_directories(root / "app");
  k.app = fs::canonical(root / "app") / fs::path(KF_TEST_KFX_PATH).filename();
  fs::copy_file(KF_TEST_KFX_PATH, k.app, fs::copy_options::overwrite_existing);
  json m = manifest_for("needs_kfx");
  m[key] = key == "preload" ? json::array({{{"soname", kKfx}}}) : json::array({kKfx});
  m["search"] = {"$ORIGIN/deps"};
  k.plugin = stage(root / "plugins", "needs_kfx", m);
  fs::create_directories(k.plugin.folder / "deps");
  k.b_copy = k.plugin.folder / "deps" / kKfx;
  fs::copy_file(KF_TEST_KFX_PATH, k.b_copy, fs::copy_options::overwrite_existing);
  k.handle = dlopen(k.app.string().c_str(), RTLD_NOW | RTLD_LOCAL);
  return k;
}

/// The distinct files mapped in this process whose name starts with `prefix`.
std::set<std::string> mapped_files_starting(const std::string& prefix) {
  std::set<std::string> out;
  std::istringstream maps(read_file("/proc/self/maps"));
  for (std::string line; std::getline(maps, line);) {
    const size_t slash = line.find('/');
    if (slash == std::string::npos) continue;
    const std::string path = line.substr(slash);
    if (fs::path(path).filename().string().rfind(prefix, 0) == 0) out.insert(path);
  }
  return out;
}

/// After start-up: one copy of libkfx is mapped, A's; the `what` step ("preload" or
/// "global_dep") and the backend's "libraries" list name A's path as already mapped; the plugin
/// loaded, and its own call to kfx_touch() landed in A's copy.
void expect_only_app_copy(const KfxSetup& k, const std::string& what, bool global) {
  EXPECT_EQ(mapped_files_starting("libkfx.so"), std::set<std::string>{k.app.string()})
      << "libkfx is mapped from more than the application's copy";
  expect_state(backend("fault_needs_kfx"), KF_BACKEND_LOADED);
  const json r = report();
  const std::vector<json> st = steps(r, "fault_needs_kfx", what);
  ASSERT_EQ(st.size(), 1u) << json(st).dump(2);
  EXPECT_EQ(str_of(st[0], "path"), k.app.string()) << st[0].dump();
  EXPECT_EQ(str_of(st[0], "result"), "ok") << st[0].dump();
  EXPECT_HAS(str_of(st[0], "reason"), "already mapped");
  const std::vector<json> libs = report_libraries(r, "fault_needs_kfx");
  ASSERT_EQ(libs.size(), 1u) << json(libs).dump(2);
  EXPECT_EQ(str_of(libs[0], "soname"), kKfx) << libs[0].dump();
  EXPECT_EQ(str_of(libs[0], "path"), k.app.string()) << libs[0].dump();
  EXPECT_EQ(str_of(libs[0], "how"), "already mapped") << libs[0].dump();
  EXPECT_EQ(libs[0].value("global", !global), global) << libs[0].dump();
  const auto* calls = static_cast<const int*>(dlsym(k.handle, "kfx_calls"));
  ASSERT_NE(calls, nullptr) << dlerror();
  EXPECT_EQ(*calls, 1) << "the plugin's kfx_touch() did not run in the application's copy";
  expect_faultdev_neg_works("fault_needs_kfx");
}
#endif

// The application loaded libkfx.so.1.2.3 itself; the plugin preloads "libkfx.so.1", and its
// search root holds another copy under exactly that name. The application's copy is used.
TEST_F(Dependencies, VersionedSonameAlreadyLoadedIsNotPreloadedAgain) {
#if !defined(KF_TEST_KFX_PATH)
  GTEST_SKIP() << "versioned ELF sonames, dlopen and /proc/self/maps are Linux";
#else
  const KfxSetup k = stage_kfx(tmp(), "preload");
  ASSERT_NE(k.handle, nullptr) << dlerror();
  init_ok({k.plugin.folder});
  expect_only_app_copy(k, "preload", false);
#endif
}

// The same with libkfx.so.1 under global_deps: the application's copy is made global (RTLD_GLOBAL
// by its live path) instead of B's copy being loaded.
TEST_F(Dependencies, VersionedSonameAlreadyLoadedIsTheGlobalDep) {
#if !defined(KF_TEST_KFX_PATH)
  GTEST_SKIP() << "versioned ELF sonames, dlopen, RTLD_GLOBAL and /proc/self/maps are Linux";
#else
  const KfxSetup k = stage_kfx(tmp(), "global_deps");
  ASSERT_NE(k.handle, nullptr) << dlerror();
  ASSERT_EQ(dlsym(RTLD_DEFAULT, "kfx_touch"), nullptr) << "already global before init";
  init_ok({k.plugin.folder});
  expect_only_app_copy(k, "global_dep", true);
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "kfx_touch"), dlsym(k.handle, "kfx_touch"))
      << "the global kfx_touch is not the application's copy";
#endif
}

// A library only the system search finds (ld.so.cache), whose file is not called by its soname
// (libz.so.1 is libz.so.1.2.13): the report names the file that was loaded.
TEST_F(Dependencies, SystemSearchReportsTheLiveFile) {
#if !defined(__linux__)
  GTEST_SKIP() << "ld.so.cache and versioned sonames are Linux";
#else
  const std::string soname = "libz.so.1";
  if (void* h = dlopen(soname.c_str(), RTLD_NOLOAD | RTLD_LAZY); h != nullptr) {
    dlclose(h);
    GTEST_SKIP() << soname << " is already loaded in this process";
  }
  json m = manifest_for("ok");
  m["preload"] = json::array({{{"soname", soname}, {"required", false}}});
  m["search"] = {"$ORIGIN/deps"};
  const Staged s = stage(tmp() / "plugins", "ok", m);
  fs::create_directories(s.folder / "deps");
  init_ok({s.folder});
  expect_state(backend("fault_ok"), KF_BACKEND_LOADED);
  const std::vector<json> st = steps(report(), "fault_ok", "preload");
  ASSERT_EQ(st.size(), 1u) << json(st).dump(2);
  if (str_of(st[0], "result") == "skipped") GTEST_SKIP() << soname << " is not installed";
  EXPECT_HAS(str_of(st[0], "reason"), "system search");
  const fs::path live = str_of(st[0], "path");
  ASSERT_TRUE(live.is_absolute()) << st[0].dump();
  std::error_code ec;
  EXPECT_EQ(fs::canonical(live, ec), live) << st[0].dump();
  EXPECT_HAS(read_file("/proc/self/maps"), live.string() + "\n");
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

// ------------------------------------------------------ names, folders, current directory

/// REJECTED with KF_INVALID_ARGUMENT: the manifest names `key` and the offending `value`.
void expect_bad_soname(const Staged& s, const std::string& key, const std::string& value) {
  const BackendView b = backend_with_manifest(s.manifest);
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, s.manifest.string());
  EXPECT_HAS(b.reason, "'" + key + "'");
  EXPECT_HAS(b.reason, "'" + value + "'");
  const std::vector<json> libs = report_libraries(report(), "fault_needs_dep");
  EXPECT_TRUE(libs.empty()) << "a library was looked for: " << json(libs).dump(2);
}

// A path where an soname belongs would be joined to each search root and skip the search's
// rules: "sub/libkf_test_dep.so.1" found $ORIGIN/deps/sub/libkf_test_dep.so.1.
TEST_F(Dependencies, SonameWithSlashIsAManifestError) {
  const std::string value = "sub/" + kDep;
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(json::array({{{"soname", value}}}), {"$ORIGIN/deps"}));
  place_dep(s.folder / "deps" / "sub");
  init_ok({s.folder});
  expect_bad_soname(s, "preload", value);
}

TEST_F(Dependencies, SonameWithDotDotIsAManifestError) {
  const std::string value = "../other/" + kDep;
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(json::array({{{"soname", value}}}), {"$ORIGIN/deps"}));
  fs::create_directories(s.folder / "deps");
  place_dep(s.folder / "other");
  init_ok({s.folder});
  expect_bad_soname(s, "preload", value);
}

// An absolute global_deps entry: joined to a root it is itself, loaded from anywhere.
TEST_F(Dependencies, AbsoluteGlobalDepIsAManifestError) {
  const fs::path dep = place_dep(tmp() / "anywhere");
  json m = needs_dep_manifest(json::array(), {"$ORIGIN/deps"});
  m["global_deps"] = {dep.string()};
  const Staged s = stage(tmp() / "plugins", "needs_dep", m);
  fs::create_directories(s.folder / "deps");
  init_ok({s.folder});
  expect_bad_soname(s, "global_deps", dep.string());
}

// A dependency found in a search root below a folder that others may write is refused, like a
// plugin there: every folder up to / is checked, not only the one holding the file.
TEST_F(Dependencies, DependencyBelowWorldWritableFolderIsRefused) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions (Windows ACLs are not checked)";
#else
  fs::create_directories(tmp() / "ww");
  ASSERT_EQ(::chmod((tmp() / "ww").c_str(), 0777), 0);
  const fs::path dep = place_dep(tmp() / "ww" / "deps");
  ASSERT_EQ(::chmod(dep.parent_path().c_str(), 0755), 0);
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(json::array({dep_entry()}),
                                            {dep.parent_path().string()}));
  init_ok({s.folder});
  const BackendView b = backend("fault_needs_dep");
  expect_state(b, KF_BACKEND_REJECTED, KF_PERMISSION_DENIED);
  EXPECT_HAS(b.reason, dep.string());
  EXPECT_HAS(b.reason, fs::canonical(tmp() / "ww").string() +
                           " is world-writable without the sticky bit");
  EXPECT_EQ(mappings_under(dep.parent_path()), "") << "the refused file was mapped";
#endif
}

#if !defined(_WIN32) && defined(KF_TEST_SETUID_HELPER)
struct HelperRun {
  int exit_code = -1;
  std::string output;
};

std::string quoted(const std::string& s) { return "'" + s + "'"; }

/// Runs loader_setuid_helper (exit 10: fault_needs_dep loaded, 0: not) in `cwd` with
/// LD_LIBRARY_PATH=`library_path` (glibc reads it at start-up: a child process is needed) and
/// KERNFORGE_PLUGIN_PATH=`plugins`.
HelperRun run_helper_in(const fs::path& cwd, const std::string& library_path,
                        const fs::path& plugins) {
  const std::string cmd = "cd " + quoted(cwd.string()) + " && env LD_LIBRARY_PATH=" +
                          quoted(library_path) + " KERNFORGE_PLUGIN_PATH=" +
                          quoted(plugins.string()) + " ASAN_OPTIONS=detect_leaks=0 " +
                          quoted(KF_TEST_SETUID_HELPER) + " fault_needs_dep 2>&1";
  HelperRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}
#endif

// The current directory holds the missing dependency, and LD_LIBRARY_PATH has an empty entry or
// "." (both mean the current directory to the dynamic loader). dlopen of the bare soname would
// load it from there; the loader's own system search leaves those entries out and says so.
TEST_F(Dependencies, LibraryInCurrentDirectoryIsNeverLoaded) {
#if defined(_WIN32) || !defined(KF_TEST_SETUID_HELPER)
  GTEST_SKIP() << "LD_LIBRARY_PATH and the helper program are POSIX";
#else
  const Staged s = stage(tmp() / "plugins", "needs_dep",
                         needs_dep_manifest(json::array({dep_entry()}), {"$ORIGIN/deps"}));
  fs::create_directories(s.folder / "deps");
  const fs::path cwd = place_dep(tmp() / "cwd").parent_path();
  for (const std::string& library_path : {std::string(":/nonexistent"), std::string(".")}) {
    const HelperRun r = run_helper_in(cwd, library_path, s.folder);
    EXPECT_EQ(r.exit_code, 0) << "LD_LIBRARY_PATH=" << library_path
                              << ": fault_needs_dep loaded (or the helper failed):\n" << r.output;
    EXPECT_HAS(r.output, "loaded=0");
    EXPECT_HAS(r.output, "cpu_add=ok");
    EXPECT_HAS(r.output, "which is never searched");
  }
  // The control: the same run with the dependency in the plugin's search root loads it.
  place_dep(s.folder / "deps");
  const HelperRun control = run_helper_in(cwd, ".", s.folder);
  EXPECT_EQ(control.exit_code, 10) << "control: fault_needs_dep did not load:\n" << control.output;
#endif
}

}  // namespace
}  // namespace loader_test
