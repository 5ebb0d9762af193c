// test_security.cpp — the loader's security rules (docs/loader.md): a world-writable plugin folder
// or library is refused unless KERNFORGE_ALLOW_INSECURE_PLUGINS=1, and so is one that any folder
// on its real path (above it, or where a symbolic link points) leaves to others: world-writable
// without the sticky bit, or owned by another user who is not root; the same library reached twice
// (a symlinked folder, a symlinked library) loads once; KERNFORGE_PLUGIN_PATH drops relative and
// empty entries; the current directory is never searched. (secure_getenv: test_setuid.cpp.)
#include <string>

#include "loader_fixture.hpp"

#if !defined(_WIN32)
#  include <sys/stat.h>
#  include <unistd.h>
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

// ------------------------------------------ every folder on the way, by the real path

#if !defined(_WIN32)
/// tmp/ww, writable by everyone and without the sticky bit (like a shared folder gone wrong).
fs::path world_writable_folder(const fs::path& tmp) {
  const fs::path ww = tmp / "ww";
  fs::create_directories(ww);
  chmod_or_fail(ww, 0777);
  return fs::canonical(ww);
}

/// The ok plugin's library in `safe` and its manifest in `ww`, reached through a symbolic link
/// safe/fault_ok.json -> ww/fault_ok.json (its $ORIGIN, the link's folder, finds the library).
Staged manifest_linked_into(const fs::path& safe, const fs::path& ww) {
  const Staged s = stage(safe, "ok");
  fs::rename(s.manifest, ww / s.manifest.filename());
  fs::create_symlink(ww / s.manifest.filename(), s.manifest);
  return s;
}
#endif

// The link is in a safe folder, the manifest it points to is not: its real path is checked.
TEST_F(Security, ManifestSymlinkedIntoWorldWritableFolderIsRefused) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions and symlinks";
#else
  const fs::path ww = world_writable_folder(tmp());
  const Staged s = manifest_linked_into(tmp() / "safe", ww);
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED, KF_PERMISSION_DENIED);
  EXPECT_HAS(b.reason, "folder " + ww.string() + " is world-writable without the sticky bit");
  EXPECT_HAS(b.reason, (ww / "fault_ok.json").string());
#endif
}

TEST_F(Security, ManifestSymlinkedIntoWorldWritableFolderAllowedByEnvironment) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions and symlinks";
#else
  const fs::path ww = world_writable_folder(tmp());
  const Staged s = manifest_linked_into(tmp() / "safe", ww);
  set_env("KERNFORGE_ALLOW_INSECURE_PLUGINS", "1");
  init_ok({s.folder});
  expect_state(backend("fault_ok"), KF_BACKEND_LOADED);
  expect_faultdev_neg_works("fault_ok");
#endif
}

// The plugin folder itself is fine, the folder above it is not: whoever can write tmp/ww can
// rename plugins/ away and put another one in its place.
TEST_F(Security, PluginFolderInsideWorldWritableFolderIsRefused) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions (Windows ACLs are not checked)";
#else
  const fs::path ww = world_writable_folder(tmp());
  const Staged s = stage(ww / "plugins", "ok");
  chmod_or_fail(s.folder, 0755);
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED, KF_PERMISSION_DENIED);
  EXPECT_HAS(b.reason, ww.string() + " is world-writable without the sticky bit");
#endif
}

// The same for the library alone, named by absolute path from a manifest in a safe folder.
TEST_F(Security, LibraryBelowWorldWritableFolderIsRefused) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions (Windows ACLs are not checked)";
#else
  const fs::path ww = world_writable_folder(tmp());
  fs::create_directories(ww / "lib");
  chmod_or_fail(ww / "lib", 0755);
  const fs::path library = ww / "lib" / plugin_file_name("ok");
  fs::copy_file(built_plugin("ok"), library);
  json m = manifest_for("ok");
  m["library"] = library.string();
  const Staged s = stage(tmp() / "safe", "ok", m);
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED, KF_PERMISSION_DENIED);
  EXPECT_HAS(b.reason, library.string());
  EXPECT_HAS(b.reason, ww.string() + " is world-writable without the sticky bit");
#endif
}

// A world-writable folder with the sticky bit (/tmp's mode, 1777) lets others add entries but
// not rename or remove ours: a plugin folder inside it, or a plugin in it, is accepted.
TEST_F(Security, StickyWorldWritableFolderIsAccepted) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX permissions (Windows ACLs are not checked)";
#else
  fs::create_directories(tmp() / "sticky");
  chmod_or_fail(tmp() / "sticky", 01777);
  const Staged s = stage(tmp() / "sticky" / "plugins", "ok");
  const Staged direct = stage(tmp() / "sticky", "define_op");
  init_ok({s.folder, direct.manifest});
  expect_state(backend("fault_ok"), KF_BACKEND_LOADED);
  const BackendView direct_b = backend("fault_define_op");  // shadowed: faultdev is fault_ok's
  ASSERT_TRUE(direct_b.found()) << describe_backends();
  EXPECT_NE(direct_b.state, KF_BACKEND_REJECTED) << direct_b;
  EXPECT_LACKS(direct_b.reason, "world-writable");
#endif
}

#if !defined(_WIN32)
/// Root can give files away; the tests of other owners need it.
bool can_chown() { return geteuid() == 0; }
#endif

// A folder above the plugin owned by another user (nobody, 65534), who could replace it.
TEST_F(Security, FolderOwnedByAnotherUserIsRefused) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX owners";
#else
  if (!can_chown()) GTEST_SKIP() << "needs root to give a folder to nobody (uid 65534)";
  fs::create_directories(tmp() / "theirs");
  ASSERT_EQ(::chown((tmp() / "theirs").c_str(), 65534, 65534), 0);
  const Staged s = stage(tmp() / "theirs" / "plugins", "ok");
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED, KF_PERMISSION_DENIED);
  EXPECT_HAS(b.reason, (tmp() / "theirs").string() + " is owned by user 65534");
#endif
}

// A symbolic link owned by another user: its owner chose where it points.
TEST_F(Security, SymlinkOwnedByAnotherUserIsRefused) {
#if defined(_WIN32)
  GTEST_SKIP() << "POSIX owners and symlinks";
#else
  if (!can_chown()) GTEST_SKIP() << "needs root to give a link to nobody (uid 65534)";
  const Staged s = stage(tmp() / "real", "ok");
  fs::create_directories(tmp() / "links");
  const fs::path link = fs::canonical(tmp() / "links") / "fault_ok.json";
  fs::create_symlink(s.manifest, link);
  ASSERT_EQ(::lchown(link.c_str(), 65534, 65534), 0);
  fs::create_symlink(s.library, tmp() / "links" / s.library.filename());  // root's: fine
  init_ok({link});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED, KF_PERMISSION_DENIED);
  EXPECT_HAS(b.reason, "symbolic link " + link.string() + " is owned by user 65534");
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
