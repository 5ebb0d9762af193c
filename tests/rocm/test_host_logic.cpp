// The rocm plugin's host logic without an AMD GPU (backends/rocm/discovery.hpp and the shared
// error mapping, cuda_check.hpp, compiled for HIP): a device's gfx target against the build's,
// the reason given when the runtime finds no device, HIP's versions as text, and HIP's errors
// as kernforge statuses and messages.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "discovery.hpp"

namespace {

using kf::cuda::arch_problem;
using kf::cuda::built_targets;
using kf::cuda::gfx_target;
using kf::cuda::no_device_reason;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(HostLogic, TheGfxTargetIsTheArchNameBeforeItsFeatures) {
  EXPECT_EQ(gfx_target("gfx90a:sramecc+:xnack-"), "gfx90a");
  EXPECT_EQ(gfx_target("gfx1030"), "gfx1030");
  EXPECT_EQ(gfx_target(""), "");
}

TEST(HostLogic, TheTargetsBuiltAreKfRocmArchitectures) {
  std::vector<std::string> want;
  std::string list = KF_TEST_ROCM_ARCHITECTURES;
  for (size_t start = 0; start <= list.size();) {
    const size_t end = std::min(list.find(',', start), list.size());
    want.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  EXPECT_EQ(built_targets(), want);
}

TEST(HostLogic, ADeviceOfAnotherTargetIsSkippedNamingTheBuildsTargets) {
  const std::vector<std::string> built = {"gfx90a", "gfx1030"};
  EXPECT_EQ(arch_problem("gfx90a", built), "");
  EXPECT_EQ(arch_problem("gfx1030", built), "");
  EXPECT_EQ(arch_problem("gfx90a", {"gfx90a:xnack-"}), "") << "a target built with features";
  const std::string why = arch_problem("gfx1100", built);
  EXPECT_TRUE(has(why, "gfx90a, gfx1030")) << why;
  EXPECT_TRUE(has(why, "gfx1100 in KF_ROCM_ARCHITECTURES")) << why;
}

TEST(HostLogic, WithoutADeviceTheReasonIsTheRuntimesAnswerAndWhatToInstall) {
  // What HIP 5.2 answers on a machine without the amdgpu kernel driver.
  const std::string why = no_device_reason(hipErrorInvalidDevice, hipErrorNoDevice, 0);
  EXPECT_TRUE(has(why, "no AMD GPU")) << why;
  EXPECT_TRUE(has(why, "hipInit: hipErrorInvalidDevice")) << why;
  EXPECT_TRUE(has(why, "hipGetDeviceCount: hipErrorNoDevice")) << why;
  EXPECT_TRUE(has(why, "amdgpu kernel driver")) << why;
  // A runtime that starts but counts no device.
  const std::string none = no_device_reason(hipSuccess, hipSuccess, 0);
  EXPECT_TRUE(has(none, "0 devices")) << none;
  EXPECT_FALSE(has(none, "hipInit")) << none;
  EXPECT_EQ(no_device_reason(hipSuccess, hipSuccess, 2), "");
}

TEST(HostLogic, HipVersionsReadAsMajorMinorPatch) {
  EXPECT_EQ(kf::cuda::hip_version_text(50221153), "5.2.21153");
  EXPECT_EQ(kf::cuda::hip_version_text(60032830), "6.0.32830");
}

TEST(HostLogic, HipErrorsBecomeStatusesAndNamedMessages) {
  using kf::cuda::status_of;
  EXPECT_EQ(status_of(hipSuccess), KF_OK);
  EXPECT_EQ(status_of(hipErrorOutOfMemory), KF_OUT_OF_MEMORY);
  EXPECT_EQ(status_of(hipErrorNoDevice), KF_UNAVAILABLE);
  EXPECT_EQ(status_of(hipErrorInsufficientDriver), KF_UNAVAILABLE);
  EXPECT_EQ(status_of(hipErrorNoBinaryForGpu), KF_UNAVAILABLE);
  EXPECT_EQ(status_of(hipErrorInvalidValue), KF_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(hipErrorInvalidDevice), KF_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(hipErrorLaunchFailure), KF_INTERNAL);
  const std::string m = kf::cuda::message_of(hipErrorOutOfMemory);
  EXPECT_EQ(m.rfind("hipErrorOutOfMemory", 0), 0u) << m;
}

}  // namespace
