// The real libkernforge_xpu.so, loaded by the runtime as any program loads it. Without a Level
// Zero driver (these machines) it must be unavailable with zeInit's result as its reason, not
// crash and not be rejected; with a driver and a GPU it must be loaded. The test asks zeInit
// itself which of the two it should see.
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <string>
#include <vector>

#include "kernforge/kernforge.h"
#include "ze_result.hpp"

namespace {

/// The xpu backend's record; fails the test when the runtime does not know it.
bool find_xpu(kf_backend_info_t* out) {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) == KF_OK && std::string(info.name) == "xpu") {
      *out = info;
      return true;
    }
  }
  return false;
}

std::string report_json() {
  size_t needed = 0;
  kf_runtime_report_json(nullptr, 0, &needed);
  std::string text(needed, '\0');
  EXPECT_EQ(kf_runtime_report_json(text.data(), text.size(), &needed), KF_OK);
  text.resize(needed > 0 ? needed - 1 : 0);
  return text;
}

TEST(RealPlugin, ReportsWhatZeInitSays) {
  const ze_result_t init = zeInit(ZE_INIT_FLAG_GPU_ONLY);
  kf_backend_info_t info{};
  ASSERT_TRUE(find_xpu(&info)) << "libkernforge_xpu.so was not found next to libkernforge";
  const std::string reason = info.reason;
  if (init != ZE_RESULT_SUCCESS) {
    EXPECT_STREQ(kf_backend_state_name(info.state), "unavailable") << reason;
    EXPECT_EQ(info.failure, KF_UNAVAILABLE);
    const std::string expected = "xpu: " + kf::xpu::ze_failure("zeInit", init);
    EXPECT_NE(reason.find(expected), std::string::npos) << reason;
    EXPECT_NE(report_json().find("zeInit failed: " + kf::xpu::ze_result_name(init)),
              std::string::npos);
    return;
  }
  uint32_t drivers = 0;
  zeDriverGet(&drivers, nullptr);
  if (info.state != KF_BACKEND_LOADED) {
    // A driver without a GPU (or one that refuses the modules) is unavailable, never rejected.
    EXPECT_STREQ(kf_backend_state_name(info.state), "unavailable") << reason;
    EXPECT_FALSE(reason.empty());
    return;
  }
  EXPECT_GE(info.device_count, 1);
  EXPECT_NE(std::string(info.details).find("Level Zero API"), std::string::npos);
}

TEST(RealPlugin, TheManifestPreloadsTheLevelZeroLoader) {
  const std::string json = report_json();
  EXPECT_NE(json.find("libze_loader.so.1"), std::string::npos);
}

}  // namespace
