// test_runtime_checks.hpp — the checks after start-up: open file descriptors (nothing leaked),
// the CPU plugin still adding right, a loaded fault plugin serving faultdev with its own `neg`
// kernel, and kernel provenance (kf_op_kernel_info).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#if !defined(_WIN32)
#  include <dirent.h>
#endif

#include "kernforge/kernforge.h"
#include "test_report.hpp"

namespace loader_test {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ------------------------------------------------------------------ process state

/// Open file descriptors of this process (-1 where it cannot be counted).
inline int open_fd_count() {
#if defined(__linux__)
  int n = 0;
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return -1;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') ++n;
  }
  closedir(d);
  return n - 1;  // the directory stream's own
#else
  return -1;
#endif
}

inline std::string open_fds() {
  std::ostringstream os;
#if defined(__linux__)
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc/self/fd", ec)) {
    os << "\n  " << e.path().filename().string() << " -> " << fs::read_symlink(e.path(), ec);
  }
#endif
  return os.str();
}

/// Owns one tensor reference.
struct Tensor {
  kf_tensor_t h = nullptr;
  Tensor() = default;
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  ~Tensor() { kf_tensor_release(h); }
  kf_tensor_t* out() { return &h; }
};

inline std::vector<float> to_host(kf_tensor_t t, size_t n) {
  std::vector<float> v(n);
  EXPECT_EQ(kf_tensor_copy_to_host(t, v.data(), n * sizeof(float)), KF_OK) << last_error();
  return v;
}

/// The CPU plugin is loaded and adds two small tensors right.
inline void expect_cpu_add_works() {
  const BackendView cpu = backend("cpu");
  ASSERT_TRUE(cpu.found()) << "no cpu backend:" << describe_backends();
  EXPECT_EQ(cpu.state, KF_BACKEND_LOADED) << cpu;
  const kf_device_t dev{KF_DEVICE_CPU, 0};
  const float a[3] = {1.0f, 2.0f, 3.5f};
  const float b[3] = {10.0f, 20.0f, -30.0f};
  const int64_t shape[1] = {3};
  Tensor ta, tb, sum;
  ASSERT_EQ(kf_tensor_from_data(a, shape, 1, KF_FLOAT32, dev, ta.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_from_data(b, shape, 1, KF_FLOAT32, dev, tb.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_add(ta.h, tb.h, kf_scalar_i64(1), sum.out()), KF_OK) << last_error();
  EXPECT_EQ(to_host(sum.h, 3), (std::vector<float>{11.0f, 22.0f, -26.5f}));
}

/// The kernel info of `op_name` for backend index `index`.
inline kf_kernel_info_t kernel_info(const char* op_name, int32_t index, kf_status_t* status) {
  kf_kernel_info_t info{};
  info.struct_size = sizeof(info);
  kf_op_t op = nullptr;
  EXPECT_EQ(kf_op_find(op_name, &op), KF_OK) << last_error();
  *status = kf_op_kernel_info(op, index, &info);
  return info;
}

/// The loaded fault plugin `name` serves device type "faultdev": neg runs its kernel.
inline void expect_faultdev_neg_works(const std::string& name) {
  kf_device_t dev{};
  ASSERT_EQ(kf_device_parse("faultdev", &dev), KF_OK) << last_error();
  const float x[4] = {1.0f, -2.0f, 3.5f, 0.25f};
  const int64_t shape[2] = {2, 2};
  Tensor t, n;
  ASSERT_EQ(kf_tensor_from_data(x, shape, 2, KF_FLOAT32, dev, t.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_neg(t.h, n.out()), KF_OK) << last_error();
  kf_device_t out_dev{};
  EXPECT_EQ(kf_tensor_device(n.h, &out_dev), KF_OK) << last_error();
  EXPECT_EQ(out_dev.type, dev.type);
  EXPECT_EQ(to_host(n.h, 4), (std::vector<float>{-1.0f, 2.0f, -3.5f, -0.25f}));
  const BackendView b = backend(name);
  ASSERT_TRUE(b.found());
  kf_status_t s = KF_OK;
  const kf_kernel_info_t info = kernel_info("neg", b.index, &s);
  EXPECT_EQ(s, KF_OK) << last_error();
  EXPECT_EQ(info.kind, KF_KERNEL_BACKEND);
  EXPECT_HAS(info.provenance != nullptr ? info.provenance : "", "fault_plugin.cpp");
}


}  // namespace loader_test
