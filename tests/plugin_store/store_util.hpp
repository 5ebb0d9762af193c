// Helpers of the file-store tests: the host API table, a folder of the test's own, a store
// opened over it, what the core's logger said.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/logging.hpp"
#include "kernforge/plugin.h"
#include "loader/host_api.hpp"

namespace store_test {

namespace fs = std::filesystem;

inline const kf_host_api_t& host() { return *kf::host_api(); }

/// A fresh, empty folder for the running test: <tmp>/<suite>.<test> (made 0755, ours).
inline fs::path test_folder() {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path p = fs::path(KF_TEST_STORE_TMP) / (std::string(t->test_suite_name()) + "." +
                                                     t->name());
  std::error_code ec;
  fs::remove_all(p, ec);
  fs::create_directories(p);
  ::chmod(p.c_str(), 0755);
  ::chmod(KF_TEST_STORE_TMP, 0755);
  return p;
}

/// Sets KERNFORGE_CACHE_DIR for the next store opened (each test opens its own).
inline void cache_dir(const std::string& dir) { ::setenv("KERNFORGE_CACHE_DIR", dir.c_str(), 1); }

/// The bytes of file `name` of `store`, or the status the host gave.
struct Read {
  kf_status_t status = KF_OK;
  std::string bytes;
};
inline Read read(const char* store, const char* name, size_t cap = 1 << 16) {
  Read r;
  std::vector<char> buf(cap + 1);
  size_t size = 0;
  r.status = host().store_read(store, name, buf.data(), cap, &size);
  if (r.status == KF_OK) r.bytes.assign(buf.data(), size);
  return r;
}

inline kf_status_t write(const char* store, const char* name, const std::string& bytes) {
  return host().store_write(store, name, bytes.data(), bytes.size());
}

/// store_folder's status and text.
inline std::pair<kf_status_t, std::string> folder_of(const char* store) {
  char buf[4096] = {};
  const kf_status_t s = host().store_folder(store, buf, sizeof buf);
  return {s, buf};
}

inline mode_t mode_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
  return st.st_mode;
}

inline uid_t owner_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
  return st.st_uid;
}

/// The names in folder `p`, sorted.
inline std::vector<std::string> entries(const fs::path& p) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(p, ec)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// What the core's logger says while it lives (an extra sink on kf::log()).
class LogCapture {
 public:
  LogCapture() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(text_)) {
    kf::log().sinks().push_back(sink_);
  }
  ~LogCapture() {
    auto& sinks = kf::log().sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;
  std::string text() const { return text_.str(); }
  /// How many times `what` was said.
  size_t count(const std::string& what) const {
    const std::string t = text();
    size_t n = 0;
    for (size_t at = t.find(what); at != std::string::npos; at = t.find(what, at + 1)) ++n;
    return n;
  }

 private:
  std::ostringstream text_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

/// Root can give files away; the tests of other owners need it.
inline bool can_chown() { return ::geteuid() == 0; }
constexpr uid_t kNobody = 65534;

#define EXPECT_HAS(text, what) \
  EXPECT_NE(std::string(text).find(what), std::string::npos) << "missing '" << (what) << "' in: " << (text)

}  // namespace store_test
