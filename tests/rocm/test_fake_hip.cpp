// The real libkernforge_rocm.so over a stand-in HIP runtime (fake_hip.cpp), which its manifest
// preloads from $ROCM_PATH/lib (set below, before the runtime starts): the plugin's host logic
// without an AMD GPU. Its devices (KF_FAKE_HIP_DEVICES=gfx90a,gfx1100): the gfx90a one is used, the
// gfx1100 one skipped naming the build's targets; memory goes through the core's caching
// allocator to hipMalloc and back, copies (through the pinned staging buffers for a large
// pageable one) round-trip, streams and events work, an allocation beyond the fake's memory
// (KF_FAKE_HIP_MEMORY) is KF_OUT_OF_MEMORY naming hipMalloc, and a kernel, which the fake
// cannot launch, fails with HIP's reason instead of crashing.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"
#include "real_plugin.hpp"

namespace {

// Before any kernforge call: the stand-in's folder and its devices and memory.
const bool kEnvironmentSet = [] {
  setenv("ROCM_PATH", KF_TEST_FAKE_ROCM, 1);
  setenv("KF_FAKE_HIP_DEVICES", "gfx90a,gfx1100", 1);
  setenv("KF_FAKE_HIP_MEMORY", "1073741824", 1);  // 1 GiB
  return true;
}();

std::string last_error() { return kf_last_error_message(); }

kf_device_t rocm0() {
  kf_device_t d{};
  EXPECT_EQ(kf_device_parse("rocm:0", &d), KF_OK) << last_error();
  return d;
}

/// The fake's count of allocations not yet freed (the preload opened it RTLD_LOCAL: asked by its
/// SONAME, already loaded).
int64_t live() {
  void* lib = dlopen("libamdhip64.so.5", RTLD_LAZY | RTLD_NOLOAD);
  auto* fn = lib != nullptr ? reinterpret_cast<int64_t (*)()>(dlsym(lib, "kf_fake_hip_live"))
                            : nullptr;
  if (lib != nullptr) dlclose(lib);
  EXPECT_NE(fn, nullptr) << "the fake HIP runtime was not the one loaded";
  return fn != nullptr ? fn() : -1;
}

/// Owns a tensor handle.
struct T {
  kf_tensor_t h = nullptr;
  ~T() { kf_tensor_release(h); }
};

class FakeHip : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(real_plugin::find_backend("rocm", &info_)) << "libkernforge_rocm.so not found";
    ASSERT_EQ(info_.state, KF_BACKEND_LOADED) << info_.reason;
  }
  kf_backend_info_t info_{};
};

TEST_F(FakeHip, OnlyTheDevicesOfTheBuildsTargetsAreUsed) {
  EXPECT_EQ(info_.device_count, 1);
  const std::string details = info_.details;
  EXPECT_NE(details.find("device 0 Fake AMD GPU 0 (gfx90a, 104 CUs"), std::string::npos)
      << details;
  EXPECT_NE(details.find("skipped device 1 (Fake AMD GPU 1, gfx1100): this build's kernels are "
                         "for "),
            std::string::npos)
      << details;
  EXPECT_NE(details.find("GEMM tiled kernel (no rocBLAS"), std::string::npos) << details;
}

TEST_F(FakeHip, MemoryGoesToHipMallocAndBackThroughTheCache) {
  const int64_t before = live();
  {
    const std::vector<float> v = {1, 2, 3, 4, 5, 6};
    const int64_t shape[] = {2, 3};
    T t;
    ASSERT_EQ(kf_tensor_from_data(v.data(), shape, 2, KF_FLOAT32, rocm0(), &t.h), KF_OK)
        << last_error();
    EXPECT_GT(live(), before);
    std::vector<float> back(6);
    ASSERT_EQ(kf_tensor_copy_to_host(t.h, back.data(), back.size() * sizeof(float)), KF_OK)
        << last_error();
    EXPECT_EQ(back, v);
  }
  kf_memory_stats_t s{};
  s.struct_size = sizeof s;
  ASSERT_EQ(kf_memory_stats(rocm0(), &s), KF_OK) << last_error();
  EXPECT_EQ(s.allocated_bytes, 0u);
  ASSERT_EQ(kf_empty_cache(rocm0()), KF_OK) << last_error();
  EXPECT_EQ(live(), before) << "the cache gave back what it held";
}

TEST_F(FakeHip, ALargePageableCopyRoundTripsThroughPinnedStaging) {
  const int64_t n = (int64_t{9} << 20) / 4 + 3;  // past two 4 MiB chunks, ragged
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<int32_t>(i * 7 - 3);
  T t;
  ASSERT_EQ(kf_tensor_from_data(v.data(), &n, 1, KF_INT32, rocm0(), &t.h), KF_OK)
      << last_error();
  std::vector<int32_t> back(v.size());
  ASSERT_EQ(kf_tensor_copy_to_host(t.h, back.data(), back.size() * sizeof(int32_t)), KF_OK)
      << last_error();
  EXPECT_EQ(back, v);
}

TEST_F(FakeHip, StreamsAndEventsWork) {
  kf_stream_t s = nullptr;
  ASSERT_EQ(kf_stream_create(rocm0(), &s), KF_OK) << last_error();
  kf_event_t a = nullptr, b = nullptr;
  ASSERT_EQ(kf_event_create(rocm0(), &a), KF_OK) << last_error();
  ASSERT_EQ(kf_event_create(rocm0(), &b), KF_OK) << last_error();
  EXPECT_EQ(kf_event_record(a, s), KF_OK) << last_error();
  EXPECT_EQ(kf_event_record(b, s), KF_OK) << last_error();
  EXPECT_EQ(kf_stream_wait_event(nullptr, b), KF_OK) << last_error();
  EXPECT_EQ(kf_event_synchronize(b), KF_OK) << last_error();
  double ms = -1;
  EXPECT_EQ(kf_event_elapsed_ms(a, b, &ms), KF_OK) << last_error();
  EXPECT_GE(ms, 0.0);
  EXPECT_EQ(kf_stream_synchronize(s), KF_OK) << last_error();
  EXPECT_EQ(kf_event_release(a), KF_OK);
  EXPECT_EQ(kf_event_release(b), KF_OK);
  EXPECT_EQ(kf_stream_release(s), KF_OK);
}

TEST_F(FakeHip, AnAllocationBeyondTheDevicesMemoryIsOutOfMemoryNamingHipMalloc) {
  const int64_t n = int64_t{1} << 30;  // 4 GiB of float32, past KF_FAKE_HIP_MEMORY
  T t;
  EXPECT_EQ(kf_tensor_empty(&n, 1, KF_FLOAT32, rocm0(), &t.h), KF_OUT_OF_MEMORY);
  EXPECT_EQ(t.h, nullptr);
  const std::string m = last_error();
  EXPECT_NE(m.find("hipMalloc"), std::string::npos) << m;
  EXPECT_NE(m.find("hipErrorOutOfMemory"), std::string::npos) << m;
}

TEST_F(FakeHip, AKernelThatCannotLaunchFailsWithHipsReason) {
  const std::vector<float> v = {1, 2, 3};
  const int64_t n = 3;
  T x, y;
  ASSERT_EQ(kf_tensor_from_data(v.data(), &n, 1, KF_FLOAT32, rocm0(), &x.h), KF_OK)
      << last_error();
  EXPECT_EQ(kf_neg(x.h, &y.h), KF_UNAVAILABLE);
  EXPECT_EQ(y.h, nullptr);
  const std::string m = last_error();
  EXPECT_NE(m.find("hipErrorNoBinaryForGpu"), std::string::npos) << m;
}

}  // namespace
