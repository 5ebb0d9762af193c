// The real libkernforge_cuda.so, loaded by the runtime as any program loads it. On a machine
// with the CUDA toolkit but no driver (CI) its manifest's driver gate makes it unavailable naming
// libcuda.so.1 and the NVIDIA driver, not crashed and not rejected, with nothing of it mapped:
// neither cuBLAS nor the plugin. With a driver its CUDA libraries are preloaded in PyTorch's
// order from the folders its manifest names, and with a GPU it must be loaded and describe the
// device. The manifest says "activation": "first_use": until something needs a backend list,
// nothing of the plugin is loaded, not even cuBLAS.
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

/// The report's entry named "cuda" in `list` ("backends" or "deferred"), or null.
json entry(const json& r, const char* list) { return real_plugin::entry(r, list, "cuda"); }

/// The cuda backend's record (an enumeration: it starts the plugin).
bool find_cuda(kf_backend_info_t* out) { return real_plugin::find_backend("cuda", out); }

json manifest() {
  std::ifstream in(KF_TEST_CUDA_MANIFEST);
  EXPECT_TRUE(in.good()) << KF_TEST_CUDA_MANIFEST;
  return json::parse(in);
}


/// Whether the dynamic loader can open the driver (loaded now if so; never closed).
bool driver_installed() { return dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL) != nullptr; }

TEST(RealPlugin, TheManifestPreloadsInPyTorchsOrder) {
  const json m = manifest();
  std::vector<std::string> sonames;
  std::vector<bool> required;
  for (const json& p : m.at("preload")) {
    sonames.push_back(p.at("soname").get<std::string>());
    required.push_back(p.value("required", true));
  }
  // torch/__init__.py's order; cuSOLVER after what it needs (cuBLAS, cuBLASLt, nvJitLink,
  // cuSPARSE), cuSPARSE after nvJitLink.
  const char* prefixes[] = {"libcublasLt.so.", "libcublas.so.",  "libcudart.so.",
                            "libcufft.so.",    "libnvJitLink.so.", "libcusparse.so.",
                            "libcusolver.so.", "libnvrtc.so."};
  ASSERT_EQ(sonames.size(), 9u) << m.dump(2);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(sonames[i].rfind(prefixes[i], 0), 0u) << i << ": " << m.dump(2);
  }
  EXPECT_EQ(sonames[8], "libcuda.so.1");
  EXPECT_EQ(required, (std::vector<bool>{true, true, true, true, true, true, true, false, false}));
  const std::vector<std::string> search = m.at("search").get<std::vector<std::string>>();
  EXPECT_EQ(search, (std::vector<std::string>{"$ORIGIN", "$KERNFORGE_CUDA_HOME/lib64",
                                              "$CUDA_HOME/lib64", "/usr/local/cuda/lib64"}));
  EXPECT_EQ(m.value("activation", ""), "first_use");
  const json gate = m.at("requires").at("driver");
  EXPECT_EQ(gate.at("any_of"), json::parse(R"([{"library": "libcuda.so.1"}])")) << gate.dump();
  EXPECT_NE(gate.at("install").get<std::string>().find("NVIDIA driver"), std::string::npos);
}

TEST(RealPlugin, NothingOfItIsLoadedBeforeFirstUse) {
  ASSERT_EQ(kf_init(nullptr), KF_OK);
  const json r = report();
  // Set aside for first use, or (no driver) unavailable by its gate at once.
  EXPECT_NE(entry(r, "deferred").is_null(), entry(r, "backends").is_null()) << r.dump(2);
  EXPECT_FALSE(mapped(manifest().at("preload").at(1).at("soname").get<std::string>().c_str()))
      << "cuBLAS was mapped before anything needed cuda";
}

TEST(RealPlugin, ReportsWhyItIsUnavailableOrItsDevices) {
  kf_backend_info_t info{};
  ASSERT_TRUE(find_cuda(&info)) << "libkernforge_cuda.so was not found next to libkernforge";
  const std::string reason = info.reason;
  const json record = entry(report(), "backends");
  ASSERT_FALSE(record.is_null());
  const json m = manifest();
  if (!driver_installed()) {
    EXPECT_STREQ(kf_backend_state_name(info.state), "unavailable") << reason;
    EXPECT_EQ(info.failure, KF_UNAVAILABLE);
    EXPECT_NE(reason.find("libcuda.so.1"), std::string::npos) << reason;
    EXPECT_NE(reason.find("Install the NVIDIA driver"), std::string::npos) << reason;
    EXPECT_TRUE(record.value("libraries", json::array()).empty()) << record.dump(2);
    for (const json& p : m.at("preload")) {
      EXPECT_FALSE(mapped(p.at("soname").get<std::string>().c_str())) << p.dump();
    }
    return;
  }
  // The toolkit's libraries were preloaded, in the manifest's order, by absolute path.
  std::vector<std::string> loaded;
  for (const json& lib : record.value("libraries", json::array())) {
    if (lib.value("how", "") == "loaded" || lib.value("how", "") == "already mapped") {
      loaded.push_back(lib.value("soname", ""));
      EXPECT_EQ(lib.value("path", "").rfind('/', 0), 0u) << lib.dump();
    }
  }
  ASSERT_GE(loaded.size(), 3u) << record.dump(2);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(loaded[i], m.at("preload").at(i).at("soname")) << record.dump(2);
  }
  if (info.state != KF_BACKEND_LOADED) {
    // A driver without a GPU (or too old for the runtime) is unavailable, never rejected.
    EXPECT_STREQ(kf_backend_state_name(info.state), "unavailable") << reason;
    EXPECT_FALSE(reason.empty());
    return;
  }
  EXPECT_GE(info.device_count, 1);
  EXPECT_NE(std::string(info.details).find("CUDA runtime"), std::string::npos) << info.details;
}

TEST(RealPlugin, AnOpOnAMissingDeviceIsAClearError) {
  kf_backend_info_t info{};
  ASSERT_TRUE(find_cuda(&info));
  if (info.state == KF_BACKEND_LOADED) GTEST_SKIP() << "cuda is loaded here";
  kf_device_t cuda{};
  ASSERT_EQ(kf_device_parse("cuda:0", &cuda), KF_OK);
  const int64_t shape[] = {4};
  kf_tensor_t t = nullptr;
  EXPECT_NE(kf_tensor_empty(shape, 1, KF_FLOAT32, cuda, &t), KF_OK);
  EXPECT_EQ(t, nullptr);
  EXPECT_NE(std::string(kf_last_error_message()).find("cuda"), std::string::npos)
      << kf_last_error_message();
}

}  // namespace
