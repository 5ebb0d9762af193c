// Kernels that do not build (the test builds of the plugin in tests/opencl/CMakeLists.txt, run
// by the CTest case opencl.BrokenKernels with the real plugin disabled): the process goes on,
// the caller gets a clean error with the compiler's log, and the rest of the backend works.
#include <cstdlib>
#include <string>

#include "opencl_util.hpp"

namespace opencl_test {
namespace {

#define BROKEN_ONLY()                                                                   \
  do {                                                                                  \
    if (std::getenv("KF_TEST_BROKEN") == nullptr) {                                     \
      GTEST_SKIP() << "run by the CTest case opencl.BrokenKernels";                     \
    }                                                                                   \
  } while (0)

const std::string kDir = KF_OPENCL_BROKEN_PLUGIN_DIR;

TEST(BrokenKernels, AKernelSourceThatDoesNotBuildAtInitMakesThePluginUnavailable) {
  BROKEN_ONLY();
  const kf_status_t s = kf_load_plugin((kDir + "/opencl_broken_copy.json").c_str());
  const std::string why = last_error();
  if (s == KF_OK) FAIL() << "a plugin whose copy kernels do not build was loaded";
  if (why.find("no OpenCL platform") != std::string::npos) GTEST_SKIP() << why;
  EXPECT_EQ(s, KF_UNAVAILABLE) << why;
  EXPECT_NE(why.find("copy.cl"), std::string::npos) << why;
  EXPECT_NE(why.find("build log"), std::string::npos) << why;
  EXPECT_NE(why.find("deliberately broken"), std::string::npos) << why;
}

TEST(BrokenKernels, AKernelSourceThatDoesNotBuildOnFirstUseIsACleanErrorEachTime) {
  BROKEN_ONLY();
  const kf_status_t s = kf_load_plugin((kDir + "/opencl_broken_binary.json").c_str());
  if (s != KF_OK && last_error().find("no OpenCL platform") != std::string::npos) {
    GTEST_SKIP() << last_error();
  }
  ASSERT_EQ(s, KF_OK) << last_error();
  kf_device_t dev{0, 0};
  ASSERT_EQ(kf_device_parse("opencl:0", &dev), KF_OK) << last_error();
  T a, b, c;
  make(a, {1, 2, 3}, {3}, dev);
  for (int attempt = 0; attempt < 2; ++attempt) {
    EXPECT_EQ(kf_add(a, a, kf_scalar_i64(1), c.out()), KF_INTERNAL) << "attempt " << attempt;
    const std::string why = last_error();
    EXPECT_NE(why.find("binary.cl"), std::string::npos) << why;
    EXPECT_NE(why.find("build log"), std::string::npos) << why;
    EXPECT_NE(why.find("deliberately broken"), std::string::npos) << why;
  }
  // The families that build still work on the same device.
  ASSERT_EQ(kf_neg(a, b.out()), KF_OK) << last_error();
  EXPECT_EQ(host(b), (std::vector<float>{-1, -2, -3}));
}

}  // namespace
}  // namespace opencl_test
