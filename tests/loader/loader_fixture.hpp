// loader_fixture.hpp — LoaderTest, the fixture of every loader test: a temporary folder, one
// kf_init (autoload on, so the CPU plugin next to libkernforge is found) and the epilogue that
// checks the CPU plugin still works and no file descriptor leaked (memory leaks: LSan, CI runs
// label `loader` under ASan).
//
// Each test must run in its own process (ctest does: gtest_discover_tests makes every test a
// case): the runtime initialises once per process, so a second test in one process is skipped.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"
#include "test_files.hpp"
#include "test_manifests.hpp"
#include "test_report.hpp"
#include "test_runtime_checks.hpp"

namespace loader_test {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ------------------------------------------------------------------ the fixture

inline int& tests_in_this_process() {
  static int n = 0;
  return n;
}

/// One loader test: a temporary folder, one kf_init, and the common epilogue.
class LoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (++tests_in_this_process() > 1) {
      GTEST_SKIP() << "the runtime initialises once per process: run each loader test in its "
                      "own process (ctest does, or use --gtest_filter)";
    }
    for (const char* v : {"KERNFORGE_PLUGIN_PATH", "KERNFORGE_DISABLE_PLUGINS",
                          "KERNFORGE_AUTOLOAD", "KERNFORGE_ALLOW_INSECURE_PLUGINS",
                          "KERNFORGE_PREFER_PLUGINS"}) {
      unset_env(v);
    }
    // The shipped driver backends stay out: what they do depends on the machine's drivers (PoCL
    // here), not on the loader; tests/opencl and tests/xpu test them. A test may set it again.
    set_env("KERNFORGE_DISABLE_PLUGINS", "opencl,xpu");
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    tmp_ = std::make_unique<TempDir>(info->name());
    ASSERT_FALSE(tmp_->path().empty()) << "cannot create a folder under " << KF_TEST_TMP_ROOT;
  }

  void TearDown() override {
    if (initialised_ && !IsSkipped()) {
      if (HasFailure() || std::getenv("KF_LOADER_TEST_VERBOSE") != nullptr) {
        std::printf("backends:%s\nreport: %s\n", describe_backends().c_str(),
                    report().dump(2).c_str());
      }
      if (expect_shipped_cpu_) expect_cpu_add_works();
      if (fds_before_ >= 0) {
        EXPECT_EQ(open_fd_count(), fds_before_)
            << "file descriptors leaked by start-up; open now:" << open_fds();
      }
    }
  }

  const fs::path& tmp() const { return tmp_->path(); }

  /// Whether the epilogue checks that the shipped CPU plugin serves cpu (a test that makes
  /// another plugin serve it turns this off).
  bool expect_shipped_cpu_ = true;

  /// kf_init with `paths` (autoload on, so the CPU plugin next to libkernforge is found) and,
  /// when given, Python-style library roots. Records the open descriptors first.
  kf_status_t init(const std::vector<fs::path>& paths,
                   const std::vector<fs::path>& library_roots = {}) {
    path_strings_.clear();
    root_strings_.clear();
    for (const fs::path& p : paths) path_strings_.push_back(p.string());
    for (const fs::path& p : library_roots) root_strings_.push_back(p.string());
    path_ptrs_.clear();
    for (const std::string& p : path_strings_) path_ptrs_.push_back(p.c_str());
    root_ptrs_.clear();
    for (const std::string& p : root_strings_) root_ptrs_.push_back(p.c_str());
    kf_init_options_t o{};
    o.struct_size = sizeof(o);
    o.plugin_paths = path_ptrs_.empty() ? nullptr : path_ptrs_.data();
    o.plugin_path_count = static_cast<int32_t>(path_ptrs_.size());
    o.autoload = 1;
    o.log_level = KF_LOG_DEFAULT;
    o.library_roots = root_ptrs_.empty() ? nullptr : root_ptrs_.data();
    o.library_root_count = static_cast<int32_t>(root_ptrs_.size());
    fds_before_ = open_fd_count();
    initialised_ = true;
    const kf_status_t s = kf_init(&o);
    if (s != KF_OK) init_message_ = last_error();
    return s;
  }

 public:
  /// init(), for helper functions of a test (which may call it on another thread).
  kf_status_t init_for_test(const std::vector<fs::path>& paths) { return init(paths); }

 protected:
  /// init() and EXPECT KF_OK: a faulty plugin never fails start-up.
  void init_ok(const std::vector<fs::path>& paths,
               const std::vector<fs::path>& library_roots = {}) {
    const kf_status_t s = init(paths, library_roots);
    EXPECT_EQ(s, KF_OK) << kf_status_name(s) << ": " << init_message_;
  }

 private:
  std::unique_ptr<TempDir> tmp_;
  bool initialised_ = false;
  int fds_before_ = -1;
  std::string init_message_;
  std::vector<std::string> path_strings_, root_strings_;
  std::vector<const char*> path_ptrs_, root_ptrs_;
};


}  // namespace loader_test
