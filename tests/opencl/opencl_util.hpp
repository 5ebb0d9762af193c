// Helpers of the opencl tests: the opencl device (or why there is none), owning handles, host
// values. C ABI only (kernforge.h).
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace opencl_test {

inline std::string last_error() { return kf_last_error_message(); }

/// The state of the backend called `name`: "" when loaded with a device, else why not.
inline std::string why_not_loaded(const char* name) {
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info;
    std::memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) != KF_OK || std::strcmp(info.name, name) != 0) continue;
    if (info.state != KF_BACKEND_LOADED) return std::string(name) + ": " + info.reason;
    return info.device_count > 0 ? "" : std::string(name) + " has no device";
  }
  return std::string("no backend '") + name + "' (not built here)";
}

#define OPENCL_OR_SKIP(dev)                                                       \
  kf_device_t dev{0, 0};                                                          \
  do {                                                                            \
    const std::string why_ = ::opencl_test::why_not_loaded("opencl");             \
    if (!why_.empty()) GTEST_SKIP() << why_;                                      \
    ASSERT_EQ(kf_device_parse("opencl:0", &dev), KF_OK) << kf_last_error_message(); \
  } while (0)

/// Owns a tensor handle.
struct T {
  kf_tensor_t h = nullptr;
  ~T() { reset(); }
  void reset() {
    if (h != nullptr) kf_tensor_release(h);
    h = nullptr;
  }
  kf_tensor_t* out() {
    reset();
    return &h;
  }
  operator kf_tensor_t() const { return h; }
};

/// Owns a stream.
struct Stream {
  kf_stream_t h = nullptr;
  explicit Stream(kf_device_t d) { EXPECT_EQ(kf_stream_create(d, &h), KF_OK) << last_error(); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { EXPECT_EQ(kf_stream_release(h), KF_OK) << last_error(); }
};

/// Owns an event.
struct Event {
  kf_event_t h = nullptr;
  explicit Event(kf_device_t d) { EXPECT_EQ(kf_event_create(d, &h), KF_OK) << last_error(); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { EXPECT_EQ(kf_event_release(h), KF_OK) << last_error(); }
};

inline void make(T& t, const std::vector<float>& values, std::vector<int64_t> shape,
                 kf_device_t d) {
  ASSERT_EQ(kf_tensor_from_data(values.data(), shape.data(), static_cast<int32_t>(shape.size()),
                                KF_FLOAT32, d, t.out()),
            KF_OK)
      << last_error();
}

inline std::vector<float> host(kf_tensor_t t) {
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_numel(t, &n), KF_OK);
  std::vector<float> out(static_cast<size_t>(n));
  EXPECT_EQ(kf_tensor_copy_to_host(t, out.data(), out.size() * sizeof(float)), KF_OK)
      << last_error();
  return out;
}

inline void* data_of(kf_tensor_t t) {
  void* p = nullptr;
  EXPECT_EQ(kf_tensor_data_ptr(t, &p), KF_OK) << last_error();
  return p;
}

inline void set_current(kf_device_t d, kf_stream_t s) {
  ASSERT_EQ(kf_set_current_stream(d, s), KF_OK) << last_error();
}

}  // namespace opencl_test
