// The real libkernforge_rocm.so, loaded by the runtime as any program loads it. Its manifest
// preloads the HIP runtime and says "activation": "first_use": until something needs a backend
// list, nothing of it is mapped. On a machine with the HIP runtime but no AMD GPU (CI) it loads
// and is unavailable with hipInit's and hipGetDeviceCount's answers (Note [No AMD GPU]), never
// rejected; an op on rocm:0 is then a clear error. With a GPU it must be loaded and describe
// the device.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"
#include "real_plugin.hpp"

namespace {

using json = nlohmann::json;
using real_plugin::mapped;
using real_plugin::report;

/// The report's entry named "rocm" in `list` ("backends" or "deferred"), or null.
json entry(const json& r, const char* list) { return real_plugin::entry(r, list, "rocm"); }

/// The rocm backend's record (an enumeration: it starts the plugin).
bool find_rocm(kf_backend_info_t* out) { return real_plugin::find_backend("rocm", out); }

json manifest() {
  std::ifstream in(KF_TEST_ROCM_MANIFEST);
  EXPECT_TRUE(in.good()) << KF_TEST_ROCM_MANIFEST;
  return json::parse(in);
}

TEST(RealPlugin, TheManifestPreloadsTheHipRuntimeOnFirstUse) {
  const json m = manifest();
  ASSERT_EQ(m.at("preload").size(), 1u) << m.dump(2);
  EXPECT_EQ(m.at("preload").at(0).at("soname").get<std::string>().rfind("libamdhip64.so.", 0),
            0u)
      << m.dump(2);
  EXPECT_EQ(m.value("activation", ""), "first_use");
  EXPECT_EQ(m.value("device_type", ""), "rocm");
}

TEST(RealPlugin, NothingOfItIsLoadedBeforeFirstUse) {
  ASSERT_EQ(kf_init(nullptr), KF_OK);
  const json r = report();
  EXPECT_FALSE(entry(r, "deferred").is_null()) << r.dump(2);
  EXPECT_FALSE(mapped(manifest().at("preload").at(0).at("soname").get<std::string>()))
      << "the HIP runtime was mapped before anything needed rocm";
}

TEST(RealPlugin, ReportsTheRuntimesReasonOrItsDevices) {
  kf_backend_info_t info{};
  ASSERT_TRUE(find_rocm(&info)) << "libkernforge_rocm.so was not found next to libkernforge";
  const std::string reason = info.reason;
  const json record = entry(report(), "backends");
  ASSERT_FALSE(record.is_null());
  // The HIP runtime was preloaded by absolute path.
  bool preloaded = false;
  for (const json& lib : record.value("libraries", json::array())) {
    if (lib.value("soname", "").rfind("libamdhip64.so.", 0) == 0) {
      preloaded = lib.value("path", "").rfind('/', 0) == 0;
    }
  }
  EXPECT_TRUE(preloaded) << record.dump(2);
  if (info.state == KF_BACKEND_LOADED) {
    EXPECT_GE(info.device_count, 1);
    EXPECT_NE(std::string(info.details).find("HIP runtime"), std::string::npos) << info.details;
    return;
  }
  EXPECT_STREQ(kf_backend_state_name(info.state), "unavailable") << reason;
  EXPECT_EQ(info.failure, KF_UNAVAILABLE);
  EXPECT_NE(reason.find("no AMD GPU"), std::string::npos) << reason;
  EXPECT_NE(reason.find("hipGetDeviceCount"), std::string::npos) << reason;
  EXPECT_NE(reason.find("amdgpu kernel driver"), std::string::npos) << reason;
}

TEST(RealPlugin, UnavailableItListsWhatItWouldRunNatively) {
  kf_backend_info_t info{};
  ASSERT_TRUE(find_rocm(&info));
  if (info.state == KF_BACKEND_LOADED) GTEST_SKIP() << "rocm is loaded here";
  // Plugin ABI 2.2: the load report's "catalogue", what `kernforge ops` shows in rocm's column.
  const json listed = entry(report(), "backends").value("catalogue", json::array());
  uint32_t add = 0, mm = 0;
  for (const json& e : listed) {
    if (e.value("op", "") == "add") add = e.value("dtype_mask", 0u);
    if (e.value("op", "") == "mm") mm = e.value("dtype_mask", 0u);
  }
  EXPECT_NE(add & (1u << KF_FLOAT32), 0u) << listed.dump();
  EXPECT_NE(add & (1u << KF_BFLOAT16), 0u) << listed.dump();
  EXPECT_NE(mm & (1u << KF_FLOAT64), 0u) << listed.dump();
  EXPECT_NE(mm & (1u << KF_INT32), 0u) << listed.dump();
  EXPECT_EQ(add & (1u << KF_COMPLEX64), 0u) << "complex runs on the CPU fallback";
}

TEST(RealPlugin, AnOpOnAMissingDeviceIsAClearError) {
  kf_backend_info_t info{};
  ASSERT_TRUE(find_rocm(&info));
  if (info.state == KF_BACKEND_LOADED) GTEST_SKIP() << "rocm is loaded here";
  kf_device_t rocm{};
  ASSERT_EQ(kf_device_parse("rocm:0", &rocm), KF_OK);
  const int64_t shape[] = {4};
  kf_tensor_t t = nullptr;
  EXPECT_NE(kf_tensor_empty(shape, 1, KF_FLOAT32, rocm, &t), KF_OK);
  EXPECT_EQ(t, nullptr);
  EXPECT_NE(std::string(kf_last_error_message()).find("rocm"), std::string::npos)
      << kf_last_error_message();
}

}  // namespace
