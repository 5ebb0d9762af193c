// test_setuid.cpp — secure_getenv: a setuid copy of loader_setuid_helper (owned by nobody, mode
// 04755) must ignore KERNFORGE_PLUGIN_PATH, while a plain copy given the same environment loads
// the plugin from it (the control that makes the first result mean something). Skips only when
// the situation cannot be created: not root, or the kernel does not make the copy AT_SECURE
// (a nosuid mount, no_new_privs).
#include <string>
#include <vector>

#include "loader_fixture.hpp"

#if !defined(_WIN32)
#  include <sys/stat.h>
#  include <sys/wait.h>
#  include <unistd.h>

#  include <cstdio>
#  include <cstdlib>

#  include "openmp_registration.hpp"

extern char** environ;
#endif

namespace loader_test {
namespace {

using Setuid = LoaderTest;

#if !defined(_WIN32) && defined(KF_TEST_SETUID_HELPER)
struct HelperRun {
  int exit_code = -1;
  std::string output;
};

/// The environment of the helper: this one without LD_LIBRARY_PATH, KERNFORGE_PLUGIN_PATH set.
std::vector<std::string> helper_environment(const fs::path& plugin_path) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    if (key != "LD_LIBRARY_PATH" && key != "KERNFORGE_PLUGIN_PATH" && key != "ASAN_OPTIONS") {
      env.push_back(entry);
    }
  }
  env.push_back("KERNFORGE_PLUGIN_PATH=" + plugin_path.string());
  env.push_back("ASAN_OPTIONS=detect_leaks=0");
  return env;
}

/// Runs `helper fault_ok` with KERNFORGE_PLUGIN_PATH=plugin_path and no LD_LIBRARY_PATH. Between
/// fork and exec the child calls only async-signal-safe functions.
HelperRun run_helper(const fs::path& helper, const fs::path& plugin_path) {
  HelperRun r;
  const std::vector<std::string> env = helper_environment(plugin_path);
  std::vector<char*> envp;
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const std::string path = helper.string();
  char arg1[] = "fault_ok";
  char* argv[] = {const_cast<char*>(path.c_str()), arg1, nullptr};
  int out[2];
  if (::pipe(out) != 0) return r;
  const pid_t pid = ::fork();
  if (pid < 0) return r;
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(out[1], STDERR_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    // The helper runs as nobody: libomp aborts ("Can't open SHM") on root's stale file.
    kftest::remove_stale_openmp_registration();
    ::execve(path.c_str(), argv, envp.data());
    ::_exit(127);
  }
  ::close(out[1]);
  char buf[4096];
  ssize_t n = 0;
  while ((n = ::read(out[0], buf, sizeof(buf))) > 0) r.output.append(buf, static_cast<size_t>(n));
  ::close(out[0]);
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return r;
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
