#include "cache_util.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include "digest.hpp"

extern char** environ;

namespace opencl_test {
namespace {

std::string self_exe() {
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "";
  exe[n] = '\0';
  return exe;
}

/// This process's environment with `env` laid over it, as "NAME=value" strings.
std::vector<std::string> child_environment(const std::map<std::string, std::string>& env) {
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (env.count(name) == 0) out.push_back(entry);
  }
  for (const auto& [name, value] : env) {
    if (!value.empty()) out.push_back(name + "=" + value);
  }
  out.push_back("KF_TEST_CACHE_CHILD=1");
  return out;
}

struct Started {
  pid_t pid = -1;
  fs::path output;
};

Started start_child(const std::map<std::string, std::string>& env, const fs::path& output) {
  Started s;
  s.output = output;
  const std::string exe = self_exe();
  std::string filter = "--gtest_filter=CacheChild.RunsOps";
  char* argv[] = {const_cast<char*>(exe.c_str()), filter.data(), nullptr};
  std::vector<std::string> strings = child_environment(env);
  std::vector<char*> envp;
  for (std::string& e : strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  if (posix_spawn(&s.pid, exe.c_str(), &actions, nullptr, argv, envp.data()) != 0) s.pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return s;
}

ChildRun wait_child(const Started& s, int timeout_s) {
  ChildRun r;
  if (s.pid < 0) return r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(s.pid, &status, WNOHANG);
    if (done == s.pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(s.pid, SIGKILL);
      waitpid(s.pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.output = read_bytes(s.output);
  return r;
}

/// A file for the output of this test's next child: <tmp>/<suite>.<test>.child<n>.log.
fs::path output_file() {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  static int runs = 0;
  return fs::path(KF_OPENCL_TEST_TMP) / (std::string(t->test_suite_name()) + "." + t->name() +
                                         ".child" + std::to_string(++runs) + ".log");
}

}  // namespace

std::string ChildRun::unavailable() const {
  const std::string mark = "kf-child: unavailable: ";
  const size_t at = output.find(mark);
  if (at == std::string::npos) return "";
  return output.substr(at + mark.size(), output.find('\n', at) - at - mark.size());
}

bool ChildRun::ops_right() const {
  return !timed_out && exit_code == 0 && output.find("kf-child: ops right") != std::string::npos;
}

size_t ChildRun::count(const std::string& what) const {
  size_t n = 0;
  for (size_t at = output.find(what); at != std::string::npos; at = output.find(what, at + 1)) {
    ++n;
  }
  return n;
}

ChildRun run_child(const std::map<std::string, std::string>& env, int timeout_s) {
  return wait_child(start_child(env, output_file()), timeout_s);
}

std::array<ChildRun, 2> run_two_children(const std::map<std::string, std::string>& env) {
  const Started a = start_child(env, output_file());
  const Started b = start_child(env, output_file());
  return {wait_child(a, 240), wait_child(b, 240)};
}

fs::path fresh_folder() {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path p =
      fs::path(KF_OPENCL_TEST_TMP) / (std::string(t->test_suite_name()) + "." + t->name());
  std::error_code ec;
  fs::remove_all(p, ec);
  fs::create_directories(p);
  chmod(KF_OPENCL_TEST_TMP, 0755);
  chmod(p.c_str(), 0755);
  return p;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

kf::opencl::Digest sha256_of(const std::string& bytes) {
  kf::opencl::Digest d{};
  EXPECT_TRUE(kf::opencl::sha256(bytes.data(), bytes.size(), d));
  return d;
}

fs::path Entry::binary_file() const {
  return file.parent_path() / (kf::opencl::hex(entry.binary_sha256) + ".bin");
}

bool Entry::binary_matches() const {
  const std::string binary = read_bytes(binary_file());
  return binary.size() == entry.binary_bytes && sha256_of(binary) == entry.binary_sha256;
}

std::vector<Entry> entries_of(const fs::path& folder) {
  std::vector<Entry> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.path().extension() != ".entry" || !e.is_regular_file()) continue;
    const std::string text = read_bytes(e.path());
    const auto parsed = kf::opencl::parse_entry(
        reinterpret_cast<const unsigned char*>(text.data()), text.size());
    if (parsed) out.push_back(Entry{e.path(), *parsed});
  }
  return out;
}

std::optional<Entry> entry_for(const fs::path& folder, const std::string& family, int dtype) {
  const std::string line = "#line 1 \"" + family + ".cl\"";
  const std::string option = "-DKF_DT=" + std::to_string(dtype) + " ";
  for (const Entry& e : entries_of(folder)) {
    if (e.entry.key.find(line) != std::string::npos &&
        e.entry.key.find(option) != std::string::npos) {
      return e;
    }
  }
  return std::nullopt;
}

Populated populate(const fs::path& root) {
  Populated p;
  p.run = run_child({{"KERNFORGE_CACHE_DIR", root.string()}});
  p.f32 = entry_for(root / "opencl", "binary", 0);
  p.f16 = entry_for(root / "opencl", "binary", 2);
  return p;
}

std::array<fs::path, 2> plant(const fs::path& folder, const Entry& victim,
                              const std::string& binary) {
  kf::opencl::CacheEntry forged = victim.entry;
  forged.binary_bytes = binary.size();
  forged.binary_sha256 = sha256_of(binary);
  const fs::path entry = folder / victim.file.filename();
  const fs::path bin = folder / (kf::opencl::hex(forged.binary_sha256) + ".bin");
  write_bytes(entry, kf::opencl::format_entry(forged));
  write_bytes(bin, binary);
  return {entry, bin};
}

}  // namespace opencl_test
