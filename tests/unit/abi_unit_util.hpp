// Helpers of the unit tests that go through the C ABI (kernforge_unit_abi_tests): the CPU
// device, memory statistics, and tensor creation that fails the test with the runtime's
// message.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace kfunit {

constexpr kf_device_t kCpu{KF_DEVICE_CPU, 0};

/// Skips the test when the CPU backend is not loaded (it is built with the core, so this
/// only happens in a broken build tree; the reason is printed).
#define KF_REQUIRE_CPU()                                                                      \
  do {                                                                                        \
    kf_memory_stats_t probe_{};                                                               \
    probe_.struct_size = sizeof probe_;                                                       \
    const kf_status_t s_ = kf_memory_stats(kfunit::kCpu, &probe_);                            \
    ASSERT_EQ(s_, KF_OK) << "the CPU backend must be loaded: " << kf_last_error_message();   \
  } while (0)

inline kf_memory_stats_t stats() {
  kf_memory_stats_t s{};
  s.struct_size = sizeof s;
  const kf_status_t st = kf_memory_stats(kCpu, &s);
  EXPECT_EQ(st, KF_OK) << kf_last_error_message();
  return s;
}

/// A new uninitialised CPU tensor of `bytes` uint8 elements (nullptr on failure, with a test
/// failure naming the runtime's message).
inline kf_tensor_t bytes_tensor(int64_t bytes) {
  kf_tensor_t t = nullptr;
  const int64_t shape[] = {bytes};
  const kf_status_t s = kf_tensor_empty(shape, 1, KF_UINT8, kCpu, &t);
  EXPECT_EQ(s, KF_OK) << kf_last_error_message();
  return t;
}

inline void* data_of(kf_tensor_t t) {
  void* p = nullptr;
  EXPECT_EQ(kf_tensor_data_ptr(t, &p), KF_OK) << kf_last_error_message();
  return p;
}

}  // namespace kfunit
