// The opencl backend's program cache (backends/opencl/program_cache.hpp), in the folder the
// CTest case opencl.ProgramCacheInAFreshFolder sets (KERNFORGE_CACHE_DIR): built programs are
// stored with their key, and a cached binary the driver refuses is rebuilt from source and
// replaced, in a new process (this binary again, running only ProgramCache.Child).
#include <dirent.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "opencl_util.hpp"

namespace opencl_test {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// The cache file of kernels/unary.cl built for float16 (KF_DT=2), "" when there is none.
std::string unary_f16_file(const std::string& folder) {
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return "";
  std::string found;
  while (dirent* e = readdir(dir)) {
    const std::string name = e->d_name;
    if (name.size() < 4 || name.substr(name.size() - 4) != ".bin") continue;
    const std::string text = read_file(folder + "/" + name);
    const std::string key = text.substr(0, text.find('\0'));
    if (key.find("#line 1 \"unary.cl\"") != std::string::npos &&
        key.find("-DKF_DT=2 ") != std::string::npos) {
      found = folder + "/" + name;
    }
  }
  closedir(dir);
  return found;
}

/// neg on float16 values on the device; true when the result is right.
bool neg_f16_works(kf_device_t dev) {
  T a, b, c;
  const int64_t shape[1] = {3};
  const float values[3] = {1.5f, -2.0f, 0.25f};
  if (kf_tensor_from_data(values, shape, 1, KF_FLOAT32, dev, a.out()) != KF_OK) return false;
  if (kf_to_dtype(a, KF_FLOAT16, b.out()) != KF_OK) return false;
  if (kf_neg(b, c.out()) != KF_OK) return false;
  T d;
  if (kf_to_dtype(c, KF_FLOAT32, d.out()) != KF_OK) return false;
  return host(d) == std::vector<float>{-1.5f, 2.0f, -0.25f};
}

/// Runs this test binary's ProgramCache.Child in a new process; its exit status.
int run_child() {
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return -1;
  exe[n] = '\0';
  char filter[] = "--gtest_filter=ProgramCache.Child";
  char* argv[] = {exe, filter, nullptr};
  setenv("KF_TEST_CACHE_CHILD", "1", 1);
  pid_t pid = 0;
  const int e = posix_spawn(&pid, exe, nullptr, nullptr, argv, environ);
  unsetenv("KF_TEST_CACHE_CHILD");
  int status = 0;
  if (e != 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(ProgramCache, Child) {
  if (std::getenv("KF_TEST_CACHE_CHILD") == nullptr) GTEST_SKIP() << "run by the test below";
  OPENCL_OR_SKIP(dev);
  EXPECT_TRUE(neg_f16_works(dev)) << last_error();
}

TEST(ProgramCache, StoresProgramsAndRebuildsABinaryTheDriverRefuses) {
  if (std::getenv("KF_TEST_FRESH_CACHE") == nullptr) {
    GTEST_SKIP() << "run by the CTest case opencl.ProgramCacheInAFreshFolder";
  }
  // Emptied before the backend starts, so each program has one file: the one built now (a file
  // of an earlier run, for an older source, would have the same family and dtype).
  const std::string folder = std::string(std::getenv("KERNFORGE_CACHE_DIR")) + "/opencl";
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);
  OPENCL_OR_SKIP(dev);
  ASSERT_TRUE(neg_f16_works(dev)) << last_error();
  const std::string file = unary_f16_file(folder);
  ASSERT_FALSE(file.empty()) << "no cache file for unary.cl/float16 in " << folder;
  const std::string good = read_file(file);
  const size_t key_end = good.find('\0');
  ASSERT_NE(key_end, std::string::npos);
  ASSERT_GT(good.size(), key_end + 1) << "the file holds no binary after its key";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << good.substr(0, key_end + 1) << "not a program binary";
  }
  EXPECT_EQ(run_child(), 0)
      << "a new process with a refused cached binary must rebuild it from source";
  const std::string repaired = read_file(file);
  EXPECT_EQ(repaired.substr(0, key_end + 1), good.substr(0, key_end + 1));
  EXPECT_NE(repaired.find("not a program binary"), key_end + 1) << "the bad binary was kept";
}

}  // namespace
}  // namespace opencl_test
