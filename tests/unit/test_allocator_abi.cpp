// The caching allocator through the C ABI: kf_memory_stats counts allocations and cache hits,
// a released block is reused for the next allocation of its size class, kf_empty_cache gives
// cached blocks back (reserved bytes drop) but never a live tensor's block.
//
// Each test starts with kf_empty_cache so that it does not depend on the blocks other tests
// left cached when they share a process.
#include <cstdint>
#include <string>
#include <vector>

#include "abi_unit_util.hpp"

namespace {

using kfunit::bytes_tensor;
using kfunit::data_of;
using kfunit::kCpu;
using kfunit::stats;

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(CachingAllocator, CountsAllocationsAndReusesAReleasedBlock) {
  KF_REQUIRE_CPU();
  ASSERT_EQ(kf_empty_cache(kCpu), KF_OK) << kf_last_error_message();
  const kf_memory_stats_t s0 = stats();

  kf_tensor_t a = bytes_tensor(3 * kMiB + 1);  // size class: 4 MiB
  ASSERT_NE(a, nullptr);
  const kf_memory_stats_t s1 = stats();
  EXPECT_EQ(s1.struct_size, sizeof(kf_memory_stats_t));
  EXPECT_EQ(s1.num_allocs, s0.num_allocs + 1);
  EXPECT_EQ(s1.num_cache_hits, s0.num_cache_hits) << "the cache was just emptied";
  EXPECT_EQ(s1.allocated_bytes, s0.allocated_bytes + 4 * kMiB);
  EXPECT_EQ(s1.reserved_bytes, s0.reserved_bytes + 4 * kMiB);
  EXPECT_GE(s1.peak_allocated_bytes, s1.allocated_bytes);
  void* first = data_of(a);

  ASSERT_EQ(kf_tensor_release(a), KF_OK);
  const kf_memory_stats_t s2 = stats();
  EXPECT_EQ(s2.allocated_bytes, s0.allocated_bytes);
  EXPECT_EQ(s2.reserved_bytes, s1.reserved_bytes) << "a released block stays cached";
  EXPECT_EQ(s2.peak_allocated_bytes, s1.peak_allocated_bytes) << "the peak does not drop";

  kf_tensor_t b = bytes_tensor(3 * kMiB + 100);  // same size class
  ASSERT_NE(b, nullptr);
  const kf_memory_stats_t s3 = stats();
  EXPECT_EQ(s3.num_allocs, s0.num_allocs + 2);
  EXPECT_EQ(s3.num_cache_hits, s0.num_cache_hits + 1);
  EXPECT_EQ(s3.reserved_bytes, s1.reserved_bytes) << "served from the cache, nothing new";
  EXPECT_EQ(s3.allocated_bytes, s1.allocated_bytes);
  EXPECT_EQ(data_of(b), first) << "the cached block is handed out again";

  ASSERT_EQ(kf_tensor_release(b), KF_OK);
  ASSERT_EQ(kf_empty_cache(kCpu), KF_OK);
  const kf_memory_stats_t s4 = stats();
  EXPECT_EQ(s4.reserved_bytes, s0.reserved_bytes);
  EXPECT_EQ(s4.allocated_bytes, s0.allocated_bytes);
}

TEST(CachingAllocator, SizeClasses) {
  KF_REQUIRE_CPU();
  // Powers of two from 64 bytes up to 1 MiB, then multiples of 1 MiB.
  const struct {
    int64_t bytes;
    uint64_t cls;
  } cases[] = {{1, 64},          {64, 64},          {65, 128},
               {1000, 1024},     {4096, 4096},      {int64_t(kMiB) - 1, kMiB},
               {int64_t(kMiB), kMiB}, {int64_t(kMiB) + 1, 2 * kMiB}, {int64_t(5 * kMiB) + 3, 6 * kMiB}};
  for (const auto& c : cases) {
    ASSERT_EQ(kf_empty_cache(kCpu), KF_OK);
    const kf_memory_stats_t before = stats();
    kf_tensor_t t = bytes_tensor(c.bytes);
    ASSERT_NE(t, nullptr);
    const kf_memory_stats_t after = stats();
    EXPECT_EQ(after.allocated_bytes - before.allocated_bytes, c.cls) << c.bytes << " bytes";
    EXPECT_EQ(after.reserved_bytes - before.reserved_bytes, c.cls) << c.bytes << " bytes";
    ASSERT_EQ(kf_tensor_release(t), KF_OK);
  }
}

TEST(CachingAllocator, OtherSizeClassIsNotACacheHit) {
  KF_REQUIRE_CPU();
  ASSERT_EQ(kf_empty_cache(kCpu), KF_OK);
  ASSERT_EQ(kf_tensor_release(bytes_tensor(4096)), KF_OK);  // one 4 KiB block cached
  const kf_memory_stats_t s0 = stats();
  kf_tensor_t t = bytes_tensor(8192);
  const kf_memory_stats_t s1 = stats();
  EXPECT_EQ(s1.num_cache_hits, s0.num_cache_hits);
  EXPECT_EQ(s1.reserved_bytes, s0.reserved_bytes + 8192);
  ASSERT_EQ(kf_tensor_release(t), KF_OK);
  t = bytes_tensor(4000);  // rounds up to 4 KiB: a hit
  const kf_memory_stats_t s2 = stats();
  EXPECT_EQ(s2.num_cache_hits, s1.num_cache_hits + 1);
  EXPECT_EQ(s2.reserved_bytes, s1.reserved_bytes);
  ASSERT_EQ(kf_tensor_release(t), KF_OK);
}

TEST(CachingAllocator, EmptyCacheLowersReservedButKeepsLiveBlocks) {
  KF_REQUIRE_CPU();
  ASSERT_EQ(kf_empty_cache(kCpu), KF_OK);
  const kf_memory_stats_t s0 = stats();
  std::vector<kf_tensor_t> ts;
  for (int i = 0; i < 5; ++i) ts.push_back(bytes_tensor(2 * kMiB));
  kf_tensor_t live = bytes_tensor(2 * kMiB);
  for (kf_tensor_t t : ts) ASSERT_EQ(kf_tensor_release(t), KF_OK);
  const kf_memory_stats_t s1 = stats();
  EXPECT_EQ(s1.reserved_bytes, s0.reserved_bytes + 12 * kMiB);
  EXPECT_EQ(s1.allocated_bytes, s0.allocated_bytes + 2 * kMiB);

  ASSERT_EQ(kf_empty_cache(kCpu), KF_OK) << kf_last_error_message();
  const kf_memory_stats_t s2 = stats();
  EXPECT_EQ(s2.reserved_bytes, s0.reserved_bytes + 2 * kMiB) << "only the live block remains";
  EXPECT_EQ(s2.allocated_bytes, s1.allocated_bytes);
  EXPECT_LT(s2.reserved_bytes, s1.reserved_bytes);

  // The live tensor's memory is still usable after kf_empty_cache.
  std::vector<uint8_t> host(2 * kMiB, 7);
  ASSERT_EQ(kf_tensor_release(live), KF_OK);
  const int64_t shape[] = {int64_t(2 * kMiB)};
  kf_tensor_t t = nullptr;
  ASSERT_EQ(kf_tensor_from_data(host.data(), shape, 1, KF_UINT8, kCpu, &t), KF_OK);
  std::vector<uint8_t> back(2 * kMiB, 0);
  ASSERT_EQ(kf_tensor_copy_to_host(t, back.data(), back.size()), KF_OK);
  EXPECT_EQ(back, host);
  ASSERT_EQ(kf_tensor_release(t), KF_OK);

  ASSERT_EQ(kf_empty_cache(kCpu), KF_OK);
  EXPECT_EQ(stats().reserved_bytes, s0.reserved_bytes);
}

TEST(CachingAllocator, StatsArgumentsAreChecked) {
  KF_REQUIRE_CPU();
  EXPECT_EQ(kf_memory_stats(kCpu, nullptr), KF_INVALID_ARGUMENT);
  kf_memory_stats_t s{};
  s.struct_size = 0;
  EXPECT_EQ(kf_memory_stats(kCpu, &s), KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find("struct_size"), std::string::npos)
      << kf_last_error_message();

  const kf_device_t unknown{77, 0};
  s.struct_size = sizeof s;
  EXPECT_EQ(kf_memory_stats(unknown, &s), KF_UNAVAILABLE);
  EXPECT_NE(std::string(kf_last_error_message()).find("77"), std::string::npos)
      << kf_last_error_message();
  EXPECT_EQ(kf_empty_cache(unknown), KF_UNAVAILABLE);
}

}  // namespace
