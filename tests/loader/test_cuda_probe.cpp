// test_cuda_probe.cpp — real libraries (built only where the CUDA toolkit is installed): the
// cuda_probe plugin, linked against cuBLAS and cudart with no RPATH, loads with LD_LIBRARY_PATH
// unset because its manifest preloads cublasLt, cublas and cudart (PyTorch's order) from the
// toolkit's folder; the report shows each library's absolute path in that order. Nothing runs
// on a GPU.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "loader_fixture.hpp"

extern char** environ;

namespace loader_test {
namespace {

/// glibc reads LD_LIBRARY_PATH once, at start: when it is set (the binary run by hand; ctest
/// unsets it), run this same command line again without it.
void reexec_without_ld_library_path() {
  if (std::getenv("LD_LIBRARY_PATH") == nullptr) return;
  const std::string cmdline = read_file("/proc/self/cmdline");
  std::vector<std::string> args;
  for (size_t start = 0; start < cmdline.size();) {
    const size_t end = cmdline.find('\0', start);
    args.push_back(cmdline.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string(*e).rfind("LD_LIBRARY_PATH=", 0) != 0) envp.push_back(*e);
  }
  envp.push_back(nullptr);
  std::fflush(nullptr);
  execve("/proc/self/exe", argv.data(), envp.data());
  ADD_FAILURE() << "cannot re-run without LD_LIBRARY_PATH";
}

class CudaProbe : public LoaderTest {
 protected:
  void SetUp() override {
    reexec_without_ld_library_path();
    LoaderTest::SetUp();
  }
};

/// Lines of /proc/self/maps naming `file`.
bool mapped(const fs::path& file) {
  return contains(read_file("/proc/self/maps"), file.string() + "\n");
}

TEST_F(CudaProbe, LoadsWithPreloadOrderFromToolkit) {
  ASSERT_EQ(std::getenv("LD_LIBRARY_PATH"), nullptr);
  const fs::path folder = tmp() / "plugins";
  fs::create_directories(folder);
  const fs::path library = folder / fs::path(KF_TEST_CUDA_PROBE).filename();
  fs::copy_file(KF_TEST_CUDA_PROBE, library);
  fs::copy_file(KF_TEST_CUDA_PROBE_MANIFEST, folder / "cuda_probe.json");
  init_ok({folder});

  const BackendView b = backend("cuda_probe");
  expect_state(b, KF_BACKEND_LOADED);

  const fs::path toolkit = fs::canonical(KF_TEST_CUDA_LIBRARY_DIR);
  const std::vector<std::string> order = {KF_TEST_CUBLASLT_SONAME, KF_TEST_CUBLAS_SONAME,
                                          KF_TEST_CUDART_SONAME};
  const json r = report();
  const std::vector<json> preload = steps(r, "cuda_probe", "preload");
  long last = -1;
  for (const std::string& soname : order) {
    long at = -1;
    for (size_t i = 0; i < preload.size(); ++i) {
      if (fs::path(str_of(preload[i], "path")).filename() == soname) {
        at = static_cast<long>(i);
        break;
      }
    }
    ASSERT_GE(at, 0) << "no preload step for " << soname << ": " << json(preload).dump(2);
    const json& step = preload[static_cast<size_t>(at)];
    const fs::path path = str_of(step, "path");
    EXPECT_EQ(str_of(step, "result"), "ok") << step.dump();
    EXPECT_TRUE(path.is_absolute()) << step.dump();
    std::error_code ec;
    EXPECT_EQ(fs::canonical(path.parent_path(), ec), toolkit) << step.dump();
    EXPECT_GT(at, last) << soname << " was preloaded out of PyTorch's order: "
                        << json(preload).dump(2);
    last = at;
    EXPECT_TRUE(mapped(fs::canonical(toolkit / soname, ec)))
        << "the live " << soname << " is not the toolkit's";
  }
  const std::vector<json> libs = report_libraries(r, "cuda_probe");
  if (!libs.empty()) {
    ASSERT_GE(libs.size(), order.size()) << json(libs).dump(2);
    for (size_t i = 0; i < order.size(); ++i) {
      EXPECT_EQ(str_of(libs[i], "soname"), order[i]) << json(libs).dump(2);
      std::error_code ec;
      EXPECT_EQ(fs::canonical(fs::path(str_of(libs[i], "path")).parent_path(), ec), toolkit)
          << libs[i].dump();
    }
  }
}

}  // namespace
}  // namespace loader_test
