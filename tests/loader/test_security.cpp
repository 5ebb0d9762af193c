// test_security.cpp — the loader's security rules (docs/loader.md): a world-writable plugin folder
// or library is refused unless KERNFORGE_ALLOW_INSECURE_PLUGINS=1; the same library reached twice
// (a symlinked folder, a symlinked library) loads once; KERNFORGE_PLUGIN_PATH drops relative and
// empty entries; the current directory is never searched. (secure_getenv: test_setuid.cpp.)
#include <string>

#include "loader_fixture.hpp"

#if !defined(_WIN32)
#  include <sys/stat.h>
#endif

namespace loader_test {
namespace {

using Security = LoaderTest;

#if !defined(_WIN32)
void chmod_or_fail(const fs::path& p, mode_t mode) {
  ASSERT_EQ(::chmod(p.c_str(), mode), 0) << "chmod " << p;
}
#endif

TEST_F(Security, WorldWritableFolderIsRefused) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions (Windows ACLs are not checked)";
#else
  const Staged s = stage(tmp() / "plugins", "ok");
  chmod_or_fail(s.folder, 0777);  // no sticky bit
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED);
  EXPECT_HAS(b.reason, "world-writable");
  EXPECT_HAS(b.reason, s.folder.string());
#endif
}

TEST_F(Security, WorldWritableFolderAllowedByEnvironment) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions (Windows ACLs are not checked)";
#else
  const Staged s = stage(tmp() / "plugins", "ok");
  chmod_or_fail(s.folder, 0777);
  set_env("KERNFORGE_ALLOW_INSECURE_PLUGINS", "1");
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_LOADED);
  expect_faultdev_neg_works("fault_ok");
#endif
}

TEST_F(Security, WorldWritableLibraryIsRefused) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions (Windows ACLs are not checked)";
#else
  const Staged s = stage(tmp() / "plugins", "ok");
  chmod_or_fail(s.library, 0666);
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED);
  EXPECT_HAS(b.reason, "world-writable");
  EXPECT_HAS(b.reason, s.library.string());
#endif
}

/// Exactly one of the backends named fault_ok is LOADED; the other is SHADOWED and its reason
/// says the same library, named by its real path, is already loaded.
[[maybe_unused]] void expect_loaded_once(const fs::path& real_library) {
  const std::vector<BackendView> v = backends_named("fault_ok");
  ASSERT_EQ(v.size(), 2u) << describe_backends();
  int loaded = 0, shadowed = 0;
  for (const BackendView& b : v) {
    if (b.state == KF_BACKEND_LOADED) ++loaded;
    if (b.state == KF_BACKEND_SHADOWED) {
      ++shadowed;
      EXPECT_HAS(b.reason, "already loaded");
      EXPECT_HAS(b.reason, real_library.string());
    }
  }
  EXPECT_EQ(loaded, 1) << describe_backends();
  EXPECT_EQ(shadowed, 1) << describe_backends();
  expect_faultdev_neg_works("fault_ok");
}

TEST_F(Security, SymlinkedFolderLoadsOnce) {
#if defined(_WIN32)
  GTEST_SKIP() << "symlinks need privileges on Windows";
#else
  const Staged s = stage(tmp() / "x", "ok");
  fs::create_directory_symlink(s.folder, tmp() / "y");
  init_ok({s.folder, tmp() / "y"});
  expect_loaded_once(fs::canonical(s.library));
#endif
}

TEST_F(Security, SymlinkedLibraryLoadsOnce) {
#if defined(_WIN32)
  GTEST_SKIP() << "symlinks need privileges on Windows";
#else
  const Staged s = stage(tmp() / "x", "ok");
  fs::create_directories(tmp() / "y");
  fs::create_symlink(s.library, tmp() / "y" / s.library.filename());
  write_manifest(tmp() / "y", manifest_for("ok"));
  init_ok({s.folder, tmp() / "y"});
  expect_loaded_once(fs::canonical(s.library));
#endif
}

TEST_F(Security, PluginPathDropsRelativeAndEmptyEntries) {
#if defined(_WIN32)
  GTEST_SKIP() << "':' separated POSIX paths";
#else
  const Staged s = stage(tmp() / "plugins", "ok");
  set_env("KERNFORGE_PLUGIN_PATH", "rel/dir::" + s.folder.string());
  init_ok({});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_LOADED);
  const json r = report();
  bool skipped = false;
  for (const json& st : steps(r, "", "discover")) {
    const std::string text = str_of(st, "path") + " | " + str_of(st, "reason");
    if (str_of(st, "result") == "skipped" && contains(text, "rel/dir")) skipped = true;
  }
  EXPECT_TRUE(skipped) << "no skipped discover step names rel/dir: " << r["steps"].dump(2);
#endif
}

/// Runs in `dir` until destroyed.
class ChangeDirectory {
 public:
  explicit ChangeDirectory(const fs::path& dir) : saved_(fs::current_path()) {
    fs::current_path(dir);
  }
  ~ChangeDirectory() {
    std::error_code ec;
    fs::current_path(saved_, ec);
  }

 private:
  fs::path saved_;
};

/// No backend comes from `cwd`, and faultdev is unknown.
void expect_nothing_from(const fs::path& cwd) {
  for (const BackendView& b : all_backends()) {
    EXPECT_FALSE(b.state == KF_BACKEND_LOADED &&
                 (contains(b.library, cwd.string()) || contains(b.manifest, cwd.string())))
        << "loaded from the current directory: " << b;
  }
  const BackendView b = backend("fault_ok");
  if (b.found()) {
    EXPECT_NE(b.state, KF_BACKEND_LOADED) << b;
  }
  kf_device_t d{};
  EXPECT_NE(kf_device_parse("faultdev", &d), KF_OK) << "faultdev is served";
}

TEST_F(Security, CurrentDirectoryIsNeverSearched) {
  const Staged s = stage(tmp() / "cwd", "ok");
  ChangeDirectory cd(s.folder);
  init_ok({});
  expect_nothing_from(s.folder);
}

TEST_F(Security, CurrentDirectoryIsNotReachedThroughRelativePluginPath) {
#if defined(_WIN32)
  GTEST_SKIP() << "':' separated POSIX paths";
#else
  const Staged s = stage(tmp() / "cwd", "ok");
  ChangeDirectory cd(s.folder);
  set_env("KERNFORGE_PLUGIN_PATH", ".:" + std::string(":./"));
  init_ok({});
  expect_nothing_from(s.folder);
#endif
}

}  // namespace
}  // namespace loader_test
