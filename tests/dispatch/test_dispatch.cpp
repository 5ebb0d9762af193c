// The dispatcher's multi-backend paths, through the C ABI only,
// over the `testdev` plugin (testdev_plugin.cpp): add f32 and copy_/to_dtype are its kernels,
// everything else runs through the CPU fallback. Tests whose name contains NoFallback need
// KERNFORGE_CPU_FALLBACK=0 (a second CTest test sets it) and skip otherwise.
// This file: loading, the plugin's kernels, the CPU fallback; test_moves.cpp: moves, devices,
// memory.
#include "dispatch_util.hpp"

namespace dispatch_test {
namespace {

// ------------------------------------------------------------------- loading

TEST_F(Dispatch, BackendLoadedWithDynamicDeviceType) {
  const LoadState& s = load_state();
  EXPECT_EQ(s.parse_before, KF_INVALID_ARGUMENT) << "testdev parsed before its plugin loaded";
  EXPECT_HAS(s.parse_before_message, "unknown device 'testdev'");
  const int32_t i = backend_index("testdev");
  ASSERT_GE(i, 0);
  kf_backend_info_t info{};
  info.struct_size = sizeof(info);
  ASSERT_EQ(kf_backend_info(i, &info), KF_OK) << last_error();
  EXPECT_STREQ(info.device_type_name, "testdev");
  EXPECT_GE(info.device_type, static_cast<int32_t>(KF_DEVICE_DYNAMIC_BASE));
  EXPECT_EQ(info.device_type, td0.type);
  EXPECT_EQ(info.device_count, 2);
  EXPECT_STREQ(info.version, "0.0.1");
  EXPECT_STREQ(info.reason, "");
  EXPECT_STREQ(info.manifest_path, KF_TESTDEV_MANIFEST);
  EXPECT_HAS(std::string(info.library_path), "libkernforge_testdev");
  kf_device_t d{};
  ASSERT_EQ(kf_device_parse("testdev:1", &d), KF_OK) << last_error();
  EXPECT_EQ(d.type, td0.type);
  EXPECT_EQ(d.index, 1);
  EXPECT_EQ(device_name(td1), "testdev:1");
  EXPECT_EQ(device_name(td0), "testdev:0");
}

TEST_F(Dispatch, LoadingTheSameManifestAgainIsRefused) {
  EXPECT_EQ(kf_load_plugin(KF_TESTDEV_MANIFEST), KF_ALREADY_EXISTS);
  const std::string msg = last_error();
  EXPECT_HAS(msg, KF_TESTDEV_MANIFEST);
  EXPECT_HAS(msg, "already loaded");
  // The refused duplicate does not disturb the loaded backend.
  EXPECT_GE(backend_index("testdev"), 0);
  T a;
  make<float>(a, {1, 2}, {2}, KF_FLOAT32, td0);
  T r;
  ASSERT_EQ(kf_add(a, a, kf_scalar_f64(1), r.out()), KF_OK) << last_error();
  EXPECT_EQ(host<float>(r), (std::vector<float>{2, 4}));
}

TEST_F(Dispatch, LoadingTheLibraryPathIsRefusedAsAlreadyLoaded) {
  EXPECT_EQ(kf_load_plugin(KF_TESTDEV_LIBRARY), KF_ALREADY_EXISTS);
  const std::string msg = last_error();
  EXPECT_HAS(msg, KF_TESTDEV_LIBRARY);
  EXPECT_HAS(msg, "already loaded");
  EXPECT_GE(backend_index("testdev"), 0);
}

// ------------------------------------------------------------ backend kernel

TEST_F(Dispatch, AddFloat32RunsThePluginKernel) {
  T a, b, r;
  make<float>(a, {1, 2, 3, 4, 5, 6}, {2, 3}, KF_FLOAT32, td0);
  make<float>(b, {10, 20, 30}, {3}, KF_FLOAT32, td0);
  const long long calls = kf_testdev_add_calls.load();
  ASSERT_EQ(kf_add(a, b, kf_scalar_f64(2), r.out()), KF_OK) << last_error();
  EXPECT_EQ(kf_testdev_add_calls.load(), calls + 1) << "add did not run the testdev kernel";
  EXPECT_EQ(device_name(device_of(r)), "testdev:0");
  EXPECT_EQ(dtype_of(r), KF_FLOAT32);
  EXPECT_EQ(host<float>(r), (std::vector<float>{21, 42, 63, 24, 45, 66}));

  const kf_kernel_info_t info = kernel_info("add", "testdev");
  EXPECT_EQ(info.kind, KF_KERNEL_BACKEND);
  EXPECT_EQ(info.dtype_mask, 1u << KF_FLOAT32);
  EXPECT_HAS(std::string(info.provenance), "testdev: ");
  EXPECT_HAS(std::string(info.provenance), "tests/dispatch/testdev_kernels.cpp:");
}

TEST_F(Dispatch, AddFloat32OnTheSecondDevice) {
  T a, b, r;
  make<float>(a, {1, 2}, {2}, KF_FLOAT32, td1);
  make<float>(b, {3, 4}, {2}, KF_FLOAT32, td1);
  const long long calls = kf_testdev_add_calls.load();
  ASSERT_EQ(kf_add(a, b, kf_scalar_i64(1), r.out()), KF_OK) << last_error();
  EXPECT_EQ(kf_testdev_add_calls.load(), calls + 1);
  EXPECT_EQ(device_name(device_of(r)), "testdev:1");
  EXPECT_EQ(host<float>(r), (std::vector<float>{4, 6}));
}

// -------------------------------------------------------------- CPU fallback

TEST_F(Dispatch, MulRunsThroughTheCpuFallback) {
  if (fallback_disabled()) GTEST_SKIP() << "KERNFORGE_CPU_FALLBACK=0";
  T a, b, r;
  make<float>(a, {1, 2, 3}, {3}, KF_FLOAT32, td0);
  make<float>(b, {4, 5, 6}, {3}, KF_FLOAT32, td0);
  const long long calls = kf_testdev_add_calls.load();
  ASSERT_EQ(kf_mul(a, b, r.out()), KF_OK) << last_error();
  EXPECT_EQ(kf_testdev_add_calls.load(), calls);
  EXPECT_EQ(device_name(device_of(r)), "testdev:0");
  EXPECT_EQ(dtype_of(r), KF_FLOAT32);
  EXPECT_EQ(host<float>(r), (std::vector<float>{4, 10, 18}));

  const kf_kernel_info_t info = kernel_info("mul", "testdev");
  EXPECT_EQ(info.kind, KF_KERNEL_FALLBACK);
  EXPECT_STREQ(info.provenance, "cpu fallback");
  EXPECT_NE(info.dtype_mask & (1u << KF_FLOAT32), 0u);
  EXPECT_EQ(kernel_info("mul", "cpu").kind, KF_KERNEL_BACKEND);
}

TEST_F(Dispatch, MulFallbackOnTheSecondDeviceAndIntoOutAndInPlace) {
  if (fallback_disabled()) GTEST_SKIP() << "KERNFORGE_CPU_FALLBACK=0";
  T a, b, r, o;
  make<int64_t>(a, {1, -2, 3}, {3}, KF_INT64, td1);
  make<int64_t>(b, {7, 8, 9}, {3}, KF_INT64, td1);
  ASSERT_EQ(kf_mul(a, b, r.out()), KF_OK) << last_error();
  EXPECT_EQ(device_name(device_of(r)), "testdev:1");
  EXPECT_EQ(host<int64_t>(r), (std::vector<int64_t>{7, -16, 27}));

  make<int64_t>(o, {0, 0, 0}, {3}, KF_INT64, td1);
  ASSERT_EQ(kf_mul_out(a, b, o), KF_OK) << last_error();
  EXPECT_EQ(host<int64_t>(o), (std::vector<int64_t>{7, -16, 27}));
  ASSERT_EQ(kf_mul_(a, b), KF_OK) << last_error();
  EXPECT_EQ(device_name(device_of(a)), "testdev:1");
  EXPECT_EQ(host<int64_t>(a), (std::vector<int64_t>{7, -16, 27}));
}

TEST_F(Dispatch, AddFloat64FallsBackForTheMissingDtype) {
  if (fallback_disabled()) GTEST_SKIP() << "KERNFORGE_CPU_FALLBACK=0";
  T a, b, r;
  make<double>(a, {0.5, 1e300, -3}, {3}, KF_FLOAT64, td0);
  make<double>(b, {0.25, 1e300, 1}, {3}, KF_FLOAT64, td0);
  const long long calls = kf_testdev_add_calls.load();
  ASSERT_EQ(kf_add(a, b, kf_scalar_f64(-1), r.out()), KF_OK) << last_error();
  EXPECT_EQ(kf_testdev_add_calls.load(), calls) << "the f32-only kernel ran for float64";
  EXPECT_EQ(device_name(device_of(r)), "testdev:0");
  EXPECT_EQ(dtype_of(r), KF_FLOAT64);
  EXPECT_EQ(host<double>(r), (std::vector<double>{0.25, 0, -4}));
}

TEST_F(Dispatch, FactoryOpsFallBackAndReturnATestdevTensor) {
  if (fallback_disabled()) GTEST_SKIP() << "KERNFORGE_CPU_FALLBACK=0";
  // No tensor argument: the Device argument decides, and the fallback runs it for the CPU.
  const int64_t shape[] = {2, 2};
  T f, r;
  ASSERT_EQ(kf_full(shape, 2, kf_scalar_f64(2.5), KF_FLOAT64, td1, f.out()), KF_OK)
      << last_error();
  EXPECT_EQ(device_name(device_of(f)), "testdev:1");
  EXPECT_EQ(host<double>(f), (std::vector<double>{2.5, 2.5, 2.5, 2.5}));
  ASSERT_EQ(kf_arange(kf_scalar_i64(0), kf_scalar_i64(4), kf_scalar_i64(1), KF_INT64, td0,
                      r.out()), KF_OK) << last_error();
  EXPECT_EQ(device_name(device_of(r)), "testdev:0");
  EXPECT_EQ(host<int64_t>(r), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST_F(Dispatch, ItemAndSynchronizeOnTestdev) {
  T t;
  make<float>(t, {-7.5f}, {1}, KF_FLOAT32, td1);
  kf_scalar_t v{};
  ASSERT_EQ(kf_tensor_item(t, &v), KF_OK) << last_error();
  EXPECT_EQ(v.tag, KF_SCALAR_FLOAT64);
  EXPECT_EQ(v.v.f64, -7.5);
  EXPECT_EQ(kf_synchronize(td1), KF_OK) << last_error();  // no synchronize slot: synchronous
}

TEST_F(Dispatch, FallbackWarnsOncePerOpAndBackend) {
  if (fallback_disabled()) GTEST_SKIP() << "KERNFORGE_CPU_FALLBACK=0";
  T a, r1, r2;
  make<float>(a, {5, 7}, {2}, KF_FLOAT32, td0);
  std::string text;
  {
    StderrCapture capture;
    ASSERT_EQ(kf_sub(a, a, kf_scalar_f64(1), r1.out()), KF_OK) << last_error();
    ASSERT_EQ(kf_sub(a, a, kf_scalar_f64(1), r2.out()), KF_OK) << last_error();
    text = capture.text();
  }
  EXPECT_EQ(count(text, "sub: backend 'testdev' has no kernel"), 1u) << text;
  EXPECT_HAS(text, "KERNFORGE_CPU_FALLBACK=0");
  EXPECT_EQ(host<float>(r2), (std::vector<float>{0, 0}));
}

TEST_F(Dispatch, NoFallbackMulIsUnimplemented) {
  if (!fallback_disabled()) GTEST_SKIP() << "needs KERNFORGE_CPU_FALLBACK=0";
  T a, r;
  make<float>(a, {1, 2}, {2}, KF_FLOAT32, td0);
  EXPECT_EQ(kf_mul(a, a, r.out()), KF_UNIMPLEMENTED);
  const std::string msg = last_error();
  EXPECT_HAS(msg, "mul");
  EXPECT_HAS(msg, "'testdev'");
  EXPECT_HAS(msg, "float32");
  EXPECT_HAS(msg, "backends with a float32 kernel: cpu");
  EXPECT_EQ(r.h, nullptr);
  // With the fallback off, nothing serves mul on testdev.
  EXPECT_EQ(kernel_info("mul", "testdev").kind, KF_KERNEL_NONE);
  EXPECT_EQ(kernel_info("add", "testdev").kind, KF_KERNEL_BACKEND);
}

TEST_F(Dispatch, NoFallbackAddFloat64IsUnimplementedButFloat32Runs) {
  if (!fallback_disabled()) GTEST_SKIP() << "needs KERNFORGE_CPU_FALLBACK=0";
  T a, r, f, r32, back;
  make<double>(a, {1, 2}, {2}, KF_FLOAT64, td0);
  EXPECT_EQ(kf_add(a, a, kf_scalar_f64(1), r.out()), KF_UNIMPLEMENTED);
  const std::string msg = last_error();
  EXPECT_HAS(msg, "add");
  EXPECT_HAS(msg, "float64");
  EXPECT_HAS(msg, "(it has: float32)");
  EXPECT_HAS(msg, "backends with a float64 kernel: cpu");
  // The plugin's own kernels and moves keep working without the fallback.
  ASSERT_EQ(kf_tensor_to(a, td0, KF_FLOAT32, f.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_add(f, f, kf_scalar_f64(1), r32.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_to(r32, cpu, KF_DTYPE_UNDEFINED, back.out()), KF_OK) << last_error();
  EXPECT_EQ(host<float>(back), (std::vector<float>{2, 4}));
}

}  // namespace
}  // namespace dispatch_test
