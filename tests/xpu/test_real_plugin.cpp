// The real libkernforge_xpu.so, loaded by the runtime as any program loads it. Without a Level
// Zero GPU driver (these machines) its manifest's driver gate makes it unavailable naming
// libze_intel_gpu.so.1, not crashed and not rejected, with nothing of it mapped, not even
// libze_loader.so.1. With a driver that zeInit refuses it is unavailable with zeInit's result as
// its reason; with a driver and a GPU it must be loaded. The test asks zeInit itself (through
// the loader the plugin's manifest preloaded) which of the two it should see.
// The manifest says "activation": "first_use": until something needs a backend list, nothing
// of the plugin is loaded, not even libze_loader.so.1.
#include <dlfcn.h>
#include <unistd.h>
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "kernforge/kernforge.h"
#include "real_plugin.hpp"
#include "ze_result.hpp"

namespace {

using json = nlohmann::json;
using real_plugin::report;

/// The report's entry named "xpu" in `list` ("backends" or "deferred"), or null.
json entry(const json& r, const char* list) { return real_plugin::entry(r, list, "xpu"); }

/// The xpu backend's record (an enumeration: it starts the plugin).
bool find_xpu(kf_backend_info_t* out) { return real_plugin::find_backend("xpu", out); }

/// zeInit(GPU only) through the loader the plugin's preload mapped.
ze_result_t ze_init_here() {
  void* loader = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(loader, nullptr) << "the manifest's preload did not map libze_loader.so.1";
  if (loader == nullptr) return ZE_RESULT_ERROR_UNINITIALIZED;
  auto init = reinterpret_cast<decltype(&zeInit)>(dlsym(loader, "zeInit"));
  return init != nullptr ? init(ZE_INIT_FLAG_GPU_ONLY) : ZE_RESULT_ERROR_UNINITIALIZED;
}

/// Whether a driver the gate accepts is there: libze_intel_gpu.so.1 as the dynamic loader finds
/// it (loaded now if so, never closed), or the path ZE_ENABLE_ALT_DRIVERS names.
bool driver_installed() {
  const char* alt = std::getenv("ZE_ENABLE_ALT_DRIVERS");
  if (alt != nullptr && *alt == '/' && access(alt, F_OK) == 0) return true;
  return dlopen("libze_intel_gpu.so.1", RTLD_LAZY | RTLD_LOCAL) != nullptr;
}

TEST(RealPlugin, NothingOfItIsLoadedBeforeFirstUse) {
  ASSERT_EQ(kf_init(nullptr), KF_OK);
  const json r = report();
  // Set aside for first use, or (no driver) unavailable by its gate at once.
  EXPECT_NE(entry(r, "deferred").is_null(), entry(r, "backends").is_null()) << r.dump(2);
  EXPECT_EQ(dlopen("libze_loader.so.1", RTLD_NOW | RTLD_NOLOAD), nullptr)
      << "the Level Zero loader was mapped before anything needed xpu";
}

TEST(RealPlugin, WithoutADriverNothingOfItIsMapped) {
  kf_backend_info_t info{};
  ASSERT_TRUE(find_xpu(&info)) << "libkernforge_xpu.so was not found next to libkernforge";
  if (driver_installed()) GTEST_SKIP() << "a Level Zero GPU driver is installed here";
  const std::string reason = info.reason;
  EXPECT_STREQ(kf_backend_state_name(info.state), "unavailable") << reason;
  EXPECT_EQ(info.failure, KF_UNAVAILABLE);
  EXPECT_NE(reason.find("libze_intel_gpu.so.1"), std::string::npos) << reason;
  EXPECT_NE(reason.find("Install a Level Zero GPU driver"), std::string::npos) << reason;
  EXPECT_EQ(dlopen("libze_loader.so.1", RTLD_NOW | RTLD_NOLOAD), nullptr);
  EXPECT_EQ(dlopen("libkernforge_xpu.so", RTLD_NOW | RTLD_NOLOAD), nullptr);
}

TEST(RealPlugin, ReportsWhatZeInitSays) {
  // Without a driver, a path that exists in ZE_ENABLE_ALT_DRIVERS passes the gate, and zeInit
  // refuses it: the plugin then loads its libraries and reports zeInit's result.
  if (!driver_installed()) setenv("ZE_ENABLE_ALT_DRIVERS", "/dev/null", 1);
  kf_backend_info_t info{};
  ASSERT_TRUE(find_xpu(&info)) << "libkernforge_xpu.so was not found next to libkernforge";
  const ze_result_t init = ze_init_here();
  const std::string reason = info.reason;
  const json record = entry(report(), "backends");
  ASSERT_FALSE(record.is_null());
  bool preloaded = false;
  for (const json& lib : record.value("libraries", json::array())) {
    preloaded = preloaded || (lib.value("soname", "") == "libze_loader.so.1" &&
                              lib.value("how", "") == "loaded");
  }
  EXPECT_TRUE(preloaded) << record.dump();
  if (init != ZE_RESULT_SUCCESS) {
    EXPECT_STREQ(kf_backend_state_name(info.state), "unavailable") << reason;
    EXPECT_EQ(info.failure, KF_UNAVAILABLE);
    const std::string expected = "xpu: " + kf::xpu::ze_failure("zeInit", init);
    EXPECT_NE(reason.find(expected), std::string::npos) << reason;
    EXPECT_NE(record.value("reason", "").find(expected), std::string::npos) << record.dump();
    return;
  }
  if (info.state != KF_BACKEND_LOADED) {
    // A driver without a GPU (or one that refuses the modules) is unavailable, never rejected.
    EXPECT_STREQ(kf_backend_state_name(info.state), "unavailable") << reason;
    EXPECT_FALSE(reason.empty());
    return;
  }
  EXPECT_GE(info.device_count, 1);
  EXPECT_NE(std::string(info.details).find("Level Zero API"), std::string::npos);
}

}  // namespace
