// A program's first call names a device type a plugin brings: kf_device_parse must start the
// runtime (load the plugins) before it looks the name up, or the type is unknown. Run by the
// ctest case dispatch.FirstCallNamesAPluginDevice in a process of its own, with
// KERNFORGE_PLUGIN_PATH naming the test plugins' folder; skipped in the discovered run, where
// other calls come first.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernforge/kernforge.h"

namespace {

TEST(FirstCall, ParsingAPluginDeviceTypeStartsTheRuntime) {
  if (std::getenv("KF_TEST_FIRST_CALL") == nullptr) {
    GTEST_SKIP() << "run by dispatch.FirstCallNamesAPluginDevice in a fresh process";
  }
  kf_device_t dev{KF_DEVICE_NONE, -1};
  ASSERT_EQ(kf_device_parse("testdev:1", &dev), KF_OK) << kf_last_error_message();
  EXPECT_NE(dev.type, KF_DEVICE_NONE);
  EXPECT_EQ(dev.index, 1);
  char name[64] = {};
  ASSERT_EQ(kf_device_name(dev, name, sizeof name), KF_OK) << kf_last_error_message();
  EXPECT_EQ(std::string(name), "testdev:1");
}

}  // namespace
