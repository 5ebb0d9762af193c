// xpu_test_util.hpp — the fixture of the xpu backend's unit tests: a clean fake driver, a host
// API that records the plugin's error messages and logs, and a Runtime over the fake.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "fake_ze.hpp"
#include "kernforge/plugin.hpp"
#include "runtime.hpp"

namespace xpu_test {

/// The last message the plugin set with set_error, and everything it logged.
struct HostRecord {
  std::string error;
  std::vector<std::string> logs;
};
HostRecord& host_record();
const kf_host_api_t* test_host();

/// A module library that has fake_module() for every program.
kf::xpu::ModuleLibrary fake_library();

/// Whether `text` contains `part` (for EXPECT_PRED2 with readable failures).
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class XpuTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  /// A Runtime over the fake with its current State; fails the test when it throws.
  std::unique_ptr<kf::xpu::Runtime> make_runtime(const char* filter = nullptr);
  /// The message ZeError carries when Runtime::create throws (and its status).
  std::string create_error(kf_status_t* status, const char* filter = nullptr);
};

}  // namespace xpu_test
