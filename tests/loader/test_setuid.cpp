// test_setuid.cpp — secure_getenv: a setuid copy of loader_setuid_helper (owned by nobody, mode
// 04755) must ignore KERNFORGE_PLUGIN_PATH, while a plain copy given the same environment loads
// the plugin from it (the control that makes the first result mean something). Skips only when
// the situation cannot be created: not root, or the kernel does not make the copy AT_SECURE
// (a nosuid mount, no_new_privs).
#include <string>

#include "loader_fixture.hpp"

#if !defined(_WIN32)
#  include <sys/stat.h>
#  include <sys/wait.h>
#  include <unistd.h>

#  include <cstdio>
#endif

namespace loader_test {
namespace {

using Setuid = LoaderTest;

#if !defined(_WIN32) && defined(KF_TEST_SETUID_HELPER)
struct HelperRun {
  int exit_code = -1;
  std::string output;
};

std::string quoted(const std::string& s) { return "'" + s + "'"; }

/// Runs `helper fault_ok` with KERNFORGE_PLUGIN_PATH=plugin_path and no LD_LIBRARY_PATH.
HelperRun run_helper(const fs::path& helper, const fs::path& plugin_path) {
  const std::string cmd = "env -u LD_LIBRARY_PATH KERNFORGE_PLUGIN_PATH=" +
                          quoted(plugin_path.string()) + " ASAN_OPTIONS=detect_leaks=0 " +
                          quoted(helper.string()) + " fault_ok 2>&1";
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

TEST_F(Setuid, SecureGetenvIgnoresPluginPath) {
#if defined(_WIN32) || !defined(KF_TEST_SETUID_HELPER)
  GTEST_SKIP() << "setuid executables are POSIX";
#else
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give the helper to nobody (uid 65534)";
  const Staged s = stage(tmp() / "plugins", "ok");
  const fs::path bin = tmp() / "bin";
  fs::create_directories(bin);
  const fs::path plain = bin / "helper_plain";
  const fs::path setuid = bin / "helper_setuid";
  fs::copy_file(KF_TEST_SETUID_HELPER, plain);
  fs::copy_file(KF_TEST_SETUID_HELPER, setuid);
  // Everything readable by nobody; the setuid copy owned by nobody (chown first: it clears
  // the setuid bit).
  for (const fs::path& d : {tmp(), s.folder, bin}) ASSERT_EQ(::chmod(d.c_str(), 0755), 0) << d;
  for (const fs::path& f : {s.library, s.manifest}) ASSERT_EQ(::chmod(f.c_str(), 0644), 0) << f;
  ASSERT_EQ(::chown(setuid.c_str(), 65534, 65534), 0) << "chown nobody " << setuid;
  ASSERT_EQ(::chmod(setuid.c_str(), 04755), 0) << setuid;

  const HelperRun control = run_helper(plain, s.folder);
  EXPECT_HAS(control.output, "AT_SECURE=0");
  EXPECT_HAS(control.output, "loaded=1");
  EXPECT_EQ(control.exit_code, 10) << "control: the plain helper did not load fault_ok from "
                                     "KERNFORGE_PLUGIN_PATH:\n" << control.output;

  const HelperRun secure = run_helper(setuid, s.folder);
  if (contains(secure.output, "AT_SECURE=0")) {
    GTEST_SKIP() << "the setuid copy is not AT_SECURE here (nosuid mount or no_new_privs):\n"
                 << secure.output;
  }
  EXPECT_HAS(secure.output, "AT_SECURE=1");
  EXPECT_EQ(secure.exit_code, 0) << "the setuid helper loaded fault_ok from "
                                    "KERNFORGE_PLUGIN_PATH (or failed):\n" << secure.output;
  EXPECT_HAS(secure.output, "loaded=0");
  EXPECT_HAS(secure.output, "cpu_add=ok");
#endif
}

}  // namespace
}  // namespace loader_test
