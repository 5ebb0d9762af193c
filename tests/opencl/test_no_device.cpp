// Machines where the opencl backend cannot run: no OpenCL platform at all (the ICD loader pointed
// at an empty vendor folder, OCL_ICD_VENDORS) and every device left out by the filter
// (KERNFORGE_OPENCL_DEVICE). Run by the CTest cases opencl.NoPlatform and opencl.NoDeviceLeft,
// which set those variables; the backend is then unavailable with the reason, never a crash,
// and the CPU keeps working.
#include <cstdlib>
#include <string>

#include "opencl_util.hpp"

namespace opencl_test {
namespace {

#define ONLY_WITH(variable)                                                             \
  do {                                                                                  \
    if (std::getenv(variable) == nullptr) GTEST_SKIP() << "run with " << (variable) << " set"; \
  } while (0)

void expect_cpu_works() {
  T a, b;
  make(a, {1, 2}, {2}, kf_device_cpu());
  ASSERT_EQ(kf_add(a, a, kf_scalar_i64(1), b.out()), KF_OK) << last_error();
  EXPECT_EQ(host(b), (std::vector<float>{2, 4}));
}

TEST(NoDevice, WithoutAnyPlatformTheBackendIsUnavailableWithTheReason) {
  ONLY_WITH("OCL_ICD_VENDORS");
  const std::string why = why_not_loaded("opencl");
  EXPECT_NE(why.find("no OpenCL platform"), std::string::npos) << why;
  EXPECT_NE(why.find("pocl-opencl-icd"), std::string::npos) << "says what to install: " << why;
  kf_device_t dev{};
  EXPECT_NE(kf_device_parse("opencl:0", &dev), KF_OK) << "no device type without the backend";
  expect_cpu_works();
}

TEST(NoDevice, ADeviceFilterThatLeavesNothingMakesTheBackendUnavailable) {
  ONLY_WITH("KERNFORGE_OPENCL_DEVICE");
  const std::string why = why_not_loaded("opencl");
  EXPECT_NE(why.find("no usable OpenCL device"), std::string::npos) << why;
  EXPECT_NE(why.find("KERNFORGE_OPENCL_DEVICE='no device is called this' matches no device's "
                     "name"), std::string::npos) << why;
  EXPECT_NE(why.find("give an index from 0 to"), std::string::npos) << why;
  expect_cpu_works();
}

}  // namespace
}  // namespace opencl_test
