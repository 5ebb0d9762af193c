// KERNFORGE_OPENCL_DEVICE and KERNFORGE_OPENCL_PLATFORM values that choose nothing
// (backends/opencl/device_filter.hpp; issue 29): a negative index, a number that is not an
// index, an index past the last device make the backend unavailable with a reason that names
// the variable, the value and the valid range (which `kernforge doctor` shows: the CTest case
// opencl.DoctorNamesABadDeviceIndex), and an op on "opencl" then says so too, not only "unknown
// device 'opencl'" (core/device_type_hint.hpp). Each value in a child process of this binary
// (CacheChild.RunsOps, test_program_cache.cpp).
#include "cache_util.hpp"

namespace opencl_test {
namespace {

/// The backend's reason in a child run with `variable`=`value`; skips without a platform.
#define REASON_WITH(reason, variable, value)                                         \
  const ChildRun run_ = run_child({{variable, value}});                                \
  const std::string reason = run_.unavailable();                                     \
  if (reason.find("no OpenCL platform") != std::string::npos) GTEST_SKIP() << reason; \
  ASSERT_FALSE(reason.empty()) << "the backend loaded: " << run_.output

TEST(DeviceFilter, ANegativeIndexNamesTheVariableTheValueAndTheRange) {
  REASON_WITH(why, "KERNFORGE_OPENCL_DEVICE", "-1");
  EXPECT_NE(why.find("KERNFORGE_OPENCL_DEVICE='-1' is not a device index or name"),
            std::string::npos) << why;
  EXPECT_NE(why.find("give an index from 0 to"), std::string::npos) << why;
  EXPECT_NE(why.find("the devices are 0 '"), std::string::npos) << why;
  // An op on the device then says why there is no such device, not only that there is none.
  EXPECT_EQ(run_.count("kf-child: parse: 1 unknown device 'opencl:0'"), 1u) << run_.output;
  EXPECT_EQ(run_.count("plugin 'opencl' declares device type 'opencl' but is unavailable: "), 1u)
      << run_.output;
  const size_t parse = run_.output.find("kf-child: parse: ");
  ASSERT_NE(parse, std::string::npos) << run_.output;
  const std::string line = run_.output.substr(parse, run_.output.find('\n', parse) - parse);
  EXPECT_NE(line.find("KERNFORGE_OPENCL_DEVICE='-1' is not a device index or name"),
            std::string::npos) << line;
}

TEST(DeviceFilter, ANumberThatIsNotAnIndexIsRefused) {
  REASON_WITH(why, "KERNFORGE_OPENCL_DEVICE", "1.5");
  EXPECT_NE(why.find("KERNFORGE_OPENCL_DEVICE='1.5' is not a device index or name"),
            std::string::npos) << why;
}

TEST(DeviceFilter, AnIndexPastTheLastDeviceIsOutOfRange) {
  REASON_WITH(why, "KERNFORGE_OPENCL_DEVICE", "99");
  EXPECT_NE(why.find("KERNFORGE_OPENCL_DEVICE='99' is out of range"), std::string::npos) << why;
  EXPECT_NE(why.find("give an index from 0 to"), std::string::npos) << why;
}

TEST(DeviceFilter, ABadPlatformIndexIsRefusedToo) {
  REASON_WITH(why, "KERNFORGE_OPENCL_PLATFORM", "-3");
  EXPECT_NE(why.find("KERNFORGE_OPENCL_PLATFORM='-3' is not a platform index or name"),
            std::string::npos) << why;
  EXPECT_NE(why.find("the platforms are 0 '"), std::string::npos) << why;
}

TEST(DeviceFilter, AGoodIndexStillChoosesTheDevice) {
  const ChildRun run = run_child({{"KERNFORGE_OPENCL_DEVICE", "0"}});
  SKIP_WITHOUT_OPENCL(run);
  EXPECT_TRUE(run.ops_right()) << run.output;
}

}  // namespace
}  // namespace opencl_test
