// Error mapping: every ze_result_t has its name and a kernforge status (ze_result.hpp).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ze_result.hpp"

namespace {

using kf::xpu::ze_result_name;
using kf::xpu::ze_result_status;

/// Every enumerator of ze_result_t in the Level Zero header this build uses, with its value.
std::vector<std::pair<std::string, uint32_t>> header_results() {
  std::ifstream in(KF_XPU_ZE_API_H);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const size_t begin = all.find("typedef enum _ze_result_t");
  const size_t end = all.find("} ze_result_t;", begin);
  const std::string body = all.substr(begin, end - begin);
  // Each "ZE_RESULT_<NAME> = <number>" of the body (no <regex>: GCC 12 warns inside it under
  // the sanitizers, and the build treats warnings as errors).
  std::vector<std::pair<std::string, uint32_t>> out;
  const auto is_name_char = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t at = body.find("ZE_RESULT_"); at != std::string::npos;
       at = body.find("ZE_RESULT_", at + 1)) {
    size_t name_end = at;
    while (name_end < body.size() && is_name_char(body[name_end])) ++name_end;
    if (body.compare(name_end, 3, " = ") != 0) continue;
    const std::string name = body.substr(at, name_end - at);
    if (name == "ZE_RESULT_FORCE_UINT32") continue;
    const unsigned long value = std::stoul(body.substr(name_end + 3), nullptr, 0);
    out.emplace_back(name, static_cast<uint32_t>(value));
  }
  return out;
}

TEST(Results, EveryResultOfTheHeaderHasItsName) {
  const auto results = header_results();
  ASSERT_GT(results.size(), 40u) << "could not read the enumerators of " << KF_XPU_ZE_API_H;
  for (const auto& [name, value] : results) {
    EXPECT_EQ(ze_result_name(static_cast<ze_result_t>(value)), name);
  }
}

TEST(Results, EveryErrorOfTheHeaderIsAnError) {
  for (const auto& [name, value] : header_results()) {
    const kf_status_t status = ze_result_status(static_cast<ze_result_t>(value));
    if (name == "ZE_RESULT_SUCCESS") {
      EXPECT_EQ(status, KF_OK);
    } else {
      EXPECT_NE(status, KF_OK) << name;
    }
  }
}

TEST(Results, AValueTheHeaderLacksIsNamedByNumberAndInternal) {
  const auto odd = static_cast<ze_result_t>(0x12345678);
  EXPECT_EQ(ze_result_name(odd), "ze_result_t 0x12345678");
  EXPECT_EQ(ze_result_status(odd), KF_INTERNAL);
}

TEST(Results, StatusesOfTheResultsUsersMeet) {
  EXPECT_EQ(ze_result_status(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY), KF_OUT_OF_MEMORY);
  EXPECT_EQ(ze_result_status(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY), KF_OUT_OF_MEMORY);
  EXPECT_EQ(ze_result_status(ZE_RESULT_ERROR_UNINITIALIZED), KF_UNAVAILABLE);
  EXPECT_EQ(ze_result_status(ZE_RESULT_ERROR_DEVICE_LOST), KF_UNAVAILABLE);
  EXPECT_EQ(ze_result_status(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE), KF_UNAVAILABLE);
  EXPECT_EQ(ze_result_status(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE), KF_INTERNAL);
  EXPECT_EQ(ze_result_status(ZE_RESULT_ERROR_INVALID_KERNEL_NAME), KF_INTERNAL);
  EXPECT_EQ(ze_result_status(ZE_RESULT_ERROR_INVALID_NULL_HANDLE), KF_INTERNAL);
  EXPECT_EQ(ze_result_status(ZE_RESULT_NOT_READY), KF_FAILED_PRECONDITION);
}

TEST(Results, CheckThrowsWithTheContextTheCallTheNameAndAHint) {
  EXPECT_NO_THROW(kf::xpu::check(ZE_RESULT_SUCCESS, "zeMemAllocDevice", "ctx"));
  try {
    kf::xpu::check(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, "zeMemAllocDevice",
                   "xpu:0: allocating 64 bytes");
    FAIL() << "check did not throw";
  } catch (const kf::xpu::ZeError& e) {
    EXPECT_EQ(e.status(), KF_OUT_OF_MEMORY);
    EXPECT_STREQ(e.what(),
                 "xpu:0: allocating 64 bytes: zeMemAllocDevice failed: "
                 "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY (the GPU's memory is full)");
  }
}

TEST(Results, NoDriverHasAPlainReason) {
  EXPECT_EQ(kf::xpu::ze_failure("zeInit", ZE_RESULT_ERROR_UNINITIALIZED),
            "zeInit failed: ZE_RESULT_ERROR_UNINITIALIZED (no Level Zero driver is installed: "
            "install Intel's compute runtime, intel-level-zero-gpu)");
}

}  // namespace
