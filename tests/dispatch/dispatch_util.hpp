// dispatch_util.hpp — shared helpers of the dispatch tests: the testdev hooks, tensor
// ownership, the once-per-process plugin load, the Dispatch fixture and small C ABI helpers.
// Functions are inline (not file-local) so that the plugin is loaded once per process.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

// Test hooks the plugins find with dlsym (testdev_hooks.hpp); defined in test_hooks.cpp.
extern "C" {
extern std::atomic<long long> kf_testdev_live_allocations[2];
extern std::atomic<long long> kf_testdev_add_calls;
extern std::atomic<long long> kf_testasync_live_allocations[2];
extern std::atomic<long long> kf_testasync_add_calls;
extern std::atomic<long long> kf_testasync_linear_calls;
extern std::atomic<long long> kf_testasync_scale_calls;
extern std::atomic<long long> kf_testasync_fallback_calls;
extern std::atomic<long long> kf_testasync_pinned_live;
extern std::atomic<long long> kf_testasync_pinned_total;
extern std::atomic<int> kf_testasync_kernel_delay_ms;
extern std::atomic<bool> kf_testasync_hold;
extern std::atomic<void*> kf_testasync_last_kernel_stream;
}

namespace dispatch_test {

/// EXPECT that `text` contains `part`, printing the whole text when it does not.
#define EXPECT_HAS(text, part)                                                       \
  EXPECT_NE(std::string(text).find(part), std::string::npos)                         \
      << "expected \"" << (part) << "\" in: " << (text)

inline std::string last_error() { return kf_last_error_message(); }

inline bool fallback_disabled() {
  const char* v = std::getenv("KERNFORGE_CPU_FALLBACK");
  return v != nullptr && std::strcmp(v, "0") == 0;
}

/// Owns one tensor reference.
struct T {
  kf_tensor_t h = nullptr;
  T() = default;
  T(const T&) = delete;
  T& operator=(const T&) = delete;
  ~T() { kf_tensor_release(h); }
  kf_tensor_t* out() { return &h; }
  operator kf_tensor_t() const { return h; }  // NOLINT: implicit on purpose
};

/// What happened before and while the test plugin was loaded (once per process).
struct LoadState {
  kf_status_t parse_before = KF_OK;
  std::string parse_before_message;
  kf_status_t load = KF_INTERNAL;
  std::string load_message;
  kf_device_t td0{0, 0};
  kf_device_t td1{0, 1};
};

inline LoadState& load_state() {
  static LoadState s = [] {
    LoadState st;
    kf_device_t d{};
    st.parse_before = kf_device_parse("testdev", &d);
    st.parse_before_message = last_error();
    st.load = kf_load_plugin(KF_TESTDEV_MANIFEST);
    st.load_message = last_error();
    if (kf_device_parse("testdev", &d) == KF_OK) {
      st.td0 = kf_device_t{d.type, 0};
      st.td1 = kf_device_t{d.type, 1};
    }
    return st;
  }();
  return s;
}

class Dispatch : public ::testing::Test {
 protected:
  void SetUp() override {
    const LoadState& s = load_state();
    ASSERT_EQ(s.load, KF_OK) << s.load_message;
    td0 = s.td0;
    td1 = s.td1;
  }
  kf_device_t td0{}, td1{};
  const kf_device_t cpu{KF_DEVICE_CPU, 0};
};

/// cdev (the C plugin) then testasync, once per process; both must load.
struct AsyncState {
  kf_status_t cdev = KF_INTERNAL, testasync = KF_INTERNAL;
  std::string message;
  kf_device_t cdev0{0, 0}, ta0{0, 0}, ta1{0, 1};
};

inline AsyncState& async_state() {
  static AsyncState s = [] {
    AsyncState st;
    st.cdev = kf_load_plugin(KF_CDEV_MANIFEST);
    if (st.cdev != KF_OK) st.message = "cdev: " + last_error();
    st.testasync = kf_load_plugin(KF_TESTASYNC_MANIFEST);
    if (st.testasync != KF_OK) st.message += " testasync: " + last_error();
    kf_device_t d{};
    if (kf_device_parse("cdev", &d) == KF_OK) st.cdev0 = d;
    if (kf_device_parse("testasync", &d) == KF_OK) {
      st.ta0 = kf_device_t{d.type, 0};
      st.ta1 = kf_device_t{d.type, 1};
    }
    return st;
  }();
  return s;
}

/// Tests on cdev and testasync: both loaded, the switches of the queues reset.
class Async : public ::testing::Test {
 protected:
  void SetUp() override {
    const AsyncState& s = async_state();
    ASSERT_EQ(s.cdev, KF_OK) << s.message;
    ASSERT_EQ(s.testasync, KF_OK) << s.message;
    cdev = s.cdev0;
    ta0 = s.ta0;
    ta1 = s.ta1;
    kf_testasync_kernel_delay_ms.store(0);
    kf_testasync_hold.store(false);
  }
  void TearDown() override {
    kf_testasync_kernel_delay_ms.store(0);
    kf_testasync_hold.store(false);
    EXPECT_EQ(kf_set_current_stream(ta0, nullptr), KF_OK) << kf_last_error_message();
    EXPECT_EQ(kf_synchronize(ta0), KF_OK) << kf_last_error_message();
    EXPECT_EQ(kf_synchronize(ta1), KF_OK) << kf_last_error_message();
  }
  kf_device_t cdev{}, ta0{}, ta1{};
  const kf_device_t cpu{KF_DEVICE_CPU, 0};
};

inline std::string device_name(kf_device_t d) {
  char buf[64] = {};
  if (kf_device_name(d, buf, sizeof(buf)) != KF_OK) return "<" + last_error() + ">";
  return buf;
}

inline kf_device_t device_of(kf_tensor_t t) {
  kf_device_t d{-1, -1};
  EXPECT_EQ(kf_tensor_device(t, &d), KF_OK) << last_error();
  return d;
}

inline kf_dtype_t dtype_of(kf_tensor_t t) {
  kf_dtype_t d = KF_DTYPE_UNDEFINED;
  EXPECT_EQ(kf_tensor_dtype(t, &d), KF_OK) << last_error();
  return d;
}

template <class V>
inline void make(T& t, const std::vector<V>& values, std::vector<int64_t> shape, kf_dtype_t dtype,
          kf_device_t device) {
  ASSERT_EQ(kf_tensor_from_data(values.data(), shape.data(), static_cast<int32_t>(shape.size()),
                                dtype, device, t.out()),
            KF_OK) << last_error();
}

template <class V>
inline std::vector<V> host(kf_tensor_t t) {
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_numel(t, &n), KF_OK) << last_error();
  std::vector<V> v(static_cast<size_t>(n));
  EXPECT_EQ(kf_tensor_copy_to_host(t, v.data(), v.size() * sizeof(V)), KF_OK) << last_error();
  return v;
}

/// The raw bytes of t (numel * itemsize), in row-major order.
inline std::vector<unsigned char> host_bytes(kf_tensor_t t) {
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_numel(t, &n), KF_OK) << last_error();
  std::vector<unsigned char> v(static_cast<size_t>(n) * kf_dtype_size(dtype_of(t)));
  EXPECT_EQ(kf_tensor_copy_to_host(t, v.data(), v.size()), KF_OK) << last_error();
  return v;
}

/// The index of the loaded backend `name` in kf_backend_info, or -1.
inline int32_t backend_index(const char* name) {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof(info);
    if (kf_backend_info(i, &info) == KF_OK && std::strcmp(info.name, name) == 0 &&
        info.state == KF_BACKEND_LOADED) {
      return i;
    }
  }
  return -1;
}

inline kf_kernel_info_t kernel_info(const char* op_name, const char* backend) {
  kf_kernel_info_t info{};
  info.struct_size = sizeof(info);
  kf_op_t op = nullptr;
  EXPECT_EQ(kf_op_find(op_name, &op), KF_OK) << last_error();
  const int32_t b = backend_index(backend);
  EXPECT_GE(b, 0) << "backend " << backend << " is not loaded";
  EXPECT_EQ(kf_op_kernel_info(op, b, &info), KF_OK) << last_error();
  return info;
}

/// Captures what the process writes to stderr (fd 2) between construction and text().
class StderrCapture {
 public:
  StderrCapture() {
    std::fflush(stderr);
    saved_ = dup(2);
    file_ = std::tmpfile();
    dup2(fileno(file_), 2);
  }
  ~StderrCapture() { restore(); }
  std::string text() {
    restore();
    std::rewind(file_);
    std::string s;
    char buf[4096];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof(buf), file_)) > 0) s.append(buf, n);
    return s;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }
  int saved_ = -1;
  std::FILE* file_ = nullptr;
};

inline size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

inline kf_memory_stats_t stats(kf_device_t d) {
  kf_memory_stats_t s{};
  s.struct_size = sizeof(s);
  EXPECT_EQ(kf_memory_stats(d, &s), KF_OK) << last_error();
  return s;
}


}  // namespace dispatch_test
