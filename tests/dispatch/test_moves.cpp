// Moves between devices (kf_tensor_to), the two-devices error, device indexes and the caching
// allocator on the testdev backend. Helpers: dispatch_util.hpp.
#include "dispatch_util.hpp"

namespace dispatch_test {
namespace {

// ----------------------------------------------------------------- moves

TEST_F(Dispatch, MoveRoundTripsEveryDtype) {
  const kf_dtype_t dtypes[] = {KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16, KF_INT8,
                               KF_UINT8,   KF_INT16,   KF_INT32,   KF_INT64,    KF_BOOL};
  for (kf_dtype_t dt : dtypes) {
    SCOPED_TRACE(kf_dtype_name(dt));
    const size_t n = 5 * kf_dtype_size(dt);
    std::vector<unsigned char> bytes(n);
    for (size_t i = 0; i < n; ++i) {
      bytes[i] = dt == KF_BOOL ? static_cast<unsigned char>(i % 2)
                               : static_cast<unsigned char>(i * 37 + 11);
    }
    T c, d, back;
    make<unsigned char>(c, bytes, {5}, dt, cpu);
    ASSERT_EQ(kf_tensor_to(c, td0, KF_DTYPE_UNDEFINED, d.out()), KF_OK) << last_error();
    EXPECT_EQ(device_name(device_of(d)), "testdev:0");
    EXPECT_EQ(dtype_of(d), dt);
    ASSERT_EQ(kf_tensor_to(d, cpu, KF_DTYPE_UNDEFINED, back.out()), KF_OK) << last_error();
    EXPECT_EQ(device_name(device_of(back)), "cpu");
    EXPECT_EQ(host_bytes(back), bytes);
    EXPECT_EQ(host_bytes(d), bytes);
  }
}

TEST_F(Dispatch, MoveBetweenTheTwoTestdevDevices) {
  T a, b, same;
  make<int32_t>(a, {1, 2, 3, -4}, {2, 2}, KF_INT32, td0);
  ASSERT_EQ(kf_tensor_to(a, td1, KF_DTYPE_UNDEFINED, b.out()), KF_OK) << last_error();
  EXPECT_EQ(device_name(device_of(b)), "testdev:1");
  EXPECT_EQ(host<int32_t>(b), (std::vector<int32_t>{1, 2, 3, -4}));
  // To its own device: a copy (copy_ on testdev), not the same memory.
  ASSERT_EQ(kf_tensor_to(b, td1, KF_DTYPE_UNDEFINED, same.out()), KF_OK) << last_error();
  void* pb = nullptr;
  void* ps = nullptr;
  ASSERT_EQ(kf_tensor_data_ptr(b, &pb), KF_OK);
  ASSERT_EQ(kf_tensor_data_ptr(same, &ps), KF_OK);
  EXPECT_NE(pb, ps);
  EXPECT_EQ(device_name(device_of(same)), "testdev:1");
  EXPECT_EQ(host<int32_t>(same), (std::vector<int32_t>{1, 2, 3, -4}));
}

TEST_F(Dispatch, MoveWithDtypeConversionAndFromAStridedView) {
  T a, d, h, back, tr, trc;
  make<int32_t>(a, {1, -2, 3, 70000, 5, 6}, {2, 3}, KF_INT32, cpu);
  ASSERT_EQ(kf_tensor_to(a, td0, KF_FLOAT64, d.out()), KF_OK) << last_error();
  EXPECT_EQ(device_name(device_of(d)), "testdev:0");
  EXPECT_EQ(dtype_of(d), KF_FLOAT64);
  EXPECT_EQ(host<double>(d), (std::vector<double>{1, -2, 3, 70000, 5, 6}));
  // float64 -> float16 on testdev (70000 overflows to inf), back to the CPU as float32.
  ASSERT_EQ(kf_tensor_to(d, td0, KF_FLOAT16, h.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_to(h, cpu, KF_FLOAT32, back.out()), KF_OK) << last_error();
  const std::vector<float> f = host<float>(back);
  ASSERT_EQ(f.size(), 6u);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(f[1], -2.0f);
  EXPECT_TRUE(std::isinf(f[3]) && f[3] > 0) << f[3];
  // A transposed (non-contiguous) testdev view moves in logical order.
  ASSERT_EQ(kf_transpose(d, 0, 1, tr.out()), KF_OK) << last_error();
  ASSERT_EQ(kf_tensor_to(tr, cpu, KF_DTYPE_UNDEFINED, trc.out()), KF_OK) << last_error();
  EXPECT_EQ(host<double>(trc), (std::vector<double>{1, 70000, -2, 5, 3, 6}));
}

// --------------------------------------------------------------- devices

TEST_F(Dispatch, MixingCpuAndTestdevTensorsNamesBothDevices) {
  T c, t, r;
  make<float>(c, {1, 2, 3}, {3}, KF_FLOAT32, cpu);
  make<float>(t, {1, 2, 3}, {3}, KF_FLOAT32, td0);
  EXPECT_EQ(kf_add(c, t, kf_scalar_f64(1), r.out()), KF_INVALID_ARGUMENT);
  std::string msg = last_error();
  EXPECT_HAS(msg, "is on cpu");
  EXPECT_HAS(msg, "is on testdev:0");
  EXPECT_HAS(msg, "kf_tensor_to");
  EXPECT_EQ(r.h, nullptr);
  EXPECT_EQ(kf_mul(t, c, r.out()), KF_INVALID_ARGUMENT);  // an op without a testdev kernel
  msg = last_error();
  EXPECT_HAS(msg, "is on cpu");
  EXPECT_HAS(msg, "is on testdev:0");
  // Only 0-dim *CPU* tensors count as scalars: a 0-dim testdev tensor does not.
  T s;
  make<float>(s, {2}, {}, KF_FLOAT32, td0);
  EXPECT_EQ(kf_add(c, s, kf_scalar_f64(1), r.out()), KF_INVALID_ARGUMENT);
  msg = last_error();
  EXPECT_HAS(msg, "is on cpu");
  EXPECT_HAS(msg, "is on testdev:0");
}

TEST_F(Dispatch, MixingTheTwoTestdevDevicesNamesBoth) {
  T a, b, r;
  make<float>(a, {1}, {1}, KF_FLOAT32, td0);
  make<float>(b, {1}, {1}, KF_FLOAT32, td1);
  EXPECT_EQ(kf_add(a, b, kf_scalar_f64(1), r.out()), KF_INVALID_ARGUMENT);
  const std::string msg = last_error();
  EXPECT_HAS(msg, "testdev:0");
  EXPECT_HAS(msg, "testdev:1");
}

TEST_F(Dispatch, ZeroDimCpuTensorWorksWithATestdevTensor) {
  T s, t, r1, r2;
  make<float>(s, {10}, {}, KF_FLOAT32, cpu);
  make<float>(t, {1, 2, 3}, {3}, KF_FLOAT32, td0);
  ASSERT_EQ(kf_add(t, s, kf_scalar_f64(1), r1.out()), KF_OK) << last_error();
  EXPECT_EQ(device_name(device_of(r1)), "testdev:0");
  EXPECT_EQ(host<float>(r1), (std::vector<float>{11, 12, 13}));
  ASSERT_EQ(kf_add(s, t, kf_scalar_f64(1), r2.out()), KF_OK) << last_error();  // scalar first
  EXPECT_EQ(device_name(device_of(r2)), "testdev:0");
  EXPECT_EQ(host<float>(r2), (std::vector<float>{11, 12, 13}));
  if (fallback_disabled()) return;
  T r3;
  ASSERT_EQ(kf_mul(s, t, r3.out()), KF_OK) << last_error();  // through the fallback
  EXPECT_EQ(device_name(device_of(r3)), "testdev:0");
  EXPECT_EQ(host<float>(r3), (std::vector<float>{10, 20, 30}));
}

TEST_F(Dispatch, ADeviceIndexBeyondTheCountIsRefused) {
  T t;
  const int64_t shape[] = {2};
  EXPECT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, kf_device_t{td0.type, 2}, t.out()),
            KF_INVALID_ARGUMENT);
  const std::string msg = last_error();
  EXPECT_HAS(msg, "testdev:2");
  EXPECT_HAS(msg, "2 device(s)");
}

// ---------------------------------------------------------------- memory

TEST_F(Dispatch, MemoryStatsAndEmptyCacheReturnEveryBlock) {
  ASSERT_EQ(kf_empty_cache(td0), KF_OK) << last_error();
  ASSERT_EQ(kf_empty_cache(td1), KF_OK) << last_error();
  ASSERT_EQ(kf_testdev_live_allocations[0].load(), 0) << "a testdev:0 block leaked earlier";
  ASSERT_EQ(kf_testdev_live_allocations[1].load(), 0) << "a testdev:1 block leaked earlier";
  EXPECT_EQ(stats(td0).reserved_bytes, 0u);
  const uint64_t allocs = stats(td0).num_allocs;
  const uint64_t hits = stats(td0).num_cache_hits;
  const int64_t shape[] = {1000};
  {
    T t;
    ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, td0, t.out()), KF_OK) << last_error();
    EXPECT_GE(stats(td0).allocated_bytes, 4000u);
    EXPECT_GE(stats(td0).peak_allocated_bytes, 4000u);
    EXPECT_EQ(stats(td0).num_allocs, allocs + 1);
    EXPECT_EQ(kf_testdev_live_allocations[0].load(), 1);
    EXPECT_EQ(kf_testdev_live_allocations[1].load(), 0);
  }
  EXPECT_EQ(stats(td0).allocated_bytes, 0u);
  EXPECT_GE(stats(td0).reserved_bytes, 4000u);  // cached, not returned
  EXPECT_EQ(kf_testdev_live_allocations[0].load(), 1);
  {
    T t;
    ASSERT_EQ(kf_tensor_empty(shape, 1, KF_FLOAT32, td0, t.out()), KF_OK) << last_error();
    EXPECT_EQ(stats(td0).num_cache_hits, hits + 1);
    EXPECT_EQ(kf_testdev_live_allocations[0].load(), 1);
  }
  // Moves and the fallback leave nothing behind once their tensors are released.
  {
    T a, b, r;
    make<float>(a, {1, 2, 3}, {3}, KF_FLOAT32, td0);
    ASSERT_EQ(kf_tensor_to(a, td1, KF_DTYPE_UNDEFINED, b.out()), KF_OK) << last_error();
    if (!fallback_disabled()) {
      ASSERT_EQ(kf_mul(b, b, r.out()), KF_OK) << last_error();
    }
    EXPECT_GE(stats(td1).allocated_bytes, 12u);
  }
  ASSERT_EQ(kf_empty_cache(td0), KF_OK) << last_error();
  ASSERT_EQ(kf_empty_cache(td1), KF_OK) << last_error();
  for (kf_device_t d : {td0, td1}) {
    SCOPED_TRACE(device_name(d));
    EXPECT_EQ(stats(d).allocated_bytes, 0u);
    EXPECT_EQ(stats(d).reserved_bytes, 0u);
  }
  EXPECT_EQ(kf_testdev_live_allocations[0].load(), 0);
  EXPECT_EQ(kf_testdev_live_allocations[1].load(), 0);
}

}  // namespace
}  // namespace dispatch_test
