// Tensor lifetimes through the C ABI: a released handle never decodes again (Note [Handles]),
// so every entry point answers KF_INVALID_ARGUMENT naming itself instead of crashing;
// reference counts and views keep storage alive.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "abi_unit_util.hpp"

namespace {

using kfunit::bytes_tensor;
using kfunit::kCpu;
using kfunit::stats;

bool message_has(const std::string& part) {
  return std::string(kf_last_error_message()).find(part) != std::string::npos;
}

TEST(Pool, ReleasedHandleIsACleanInvalidArgument) {
  KF_REQUIRE_CPU();
  kf_tensor_t t = bytes_tensor(100);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(kf_tensor_release(t), KF_OK);

  int32_t ndim = -1;
  EXPECT_EQ(kf_tensor_ndim(t, &ndim), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("kf_tensor_ndim")) << kf_last_error_message();
  EXPECT_TRUE(message_has("released")) << kf_last_error_message();
  EXPECT_EQ(ndim, -1);

  const int64_t* shape = nullptr;
  EXPECT_EQ(kf_tensor_shape(t, &shape), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("kf_tensor_shape")) << kf_last_error_message();
  void* data = nullptr;
  EXPECT_EQ(kf_tensor_data_ptr(t, &data), KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_tensor_retain(t), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("released")) << kf_last_error_message();

  kf_tensor_t out = nullptr;
  EXPECT_EQ(kf_add(t, t, kf_scalar_i64(1), &out), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("released")) << kf_last_error_message();
  EXPECT_EQ(out, nullptr);
}

TEST(Pool, DoubleReleaseIsRefusedAndFreesNothingTwice) {
  KF_REQUIRE_CPU();
  ASSERT_EQ(kf_empty_cache(kCpu), KF_OK);
  kf_tensor_t t = bytes_tensor(5000);
  ASSERT_EQ(kf_tensor_release(t), KF_OK);
  const kf_memory_stats_t s0 = stats();
  EXPECT_EQ(kf_tensor_release(t), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("kf_tensor_release")) << kf_last_error_message();
  EXPECT_TRUE(message_has("released")) << kf_last_error_message();
  const kf_memory_stats_t s1 = stats();
  EXPECT_EQ(s1.allocated_bytes, s0.allocated_bytes) << "the block was freed twice";
  EXPECT_EQ(s1.reserved_bytes, s0.reserved_bytes);

  // The pool still hands out working tensors afterwards (no corrupted free list: two fresh
  // tensors are distinct objects).
  kf_tensor_t a = bytes_tensor(64), b = bytes_tensor(64);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_NE(kfunit::data_of(a), kfunit::data_of(b));
  EXPECT_EQ(kf_tensor_release(a), KF_OK);
  EXPECT_EQ(kf_tensor_release(b), KF_OK);
}

TEST(Pool, NullAndForeignHandles) {
  int32_t ndim = 0;
  EXPECT_EQ(kf_tensor_ndim(nullptr, &ndim), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("NULL")) << kf_last_error_message();
  EXPECT_EQ(kf_tensor_release(nullptr), KF_OK) << "like free(NULL)";
  EXPECT_EQ(kf_tensor_retain(nullptr), KF_INVALID_ARGUMENT);

  // Memory that never was a kernforge tensor: its address is no handle.
  alignas(64) static unsigned char foreign[1024];
  std::memset(foreign, 0, sizeof foreign);
  auto* fake = reinterpret_cast<kf_tensor_t>(foreign);
  EXPECT_EQ(kf_tensor_ndim(fake, &ndim), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(message_has("not a kernforge tensor")) << kf_last_error_message();
  EXPECT_EQ(kf_tensor_release(fake), KF_INVALID_ARGUMENT);
}

TEST(Pool, ReferenceCountsKeepTheTensorAlive) {
  KF_REQUIRE_CPU();
  kf_tensor_t t = bytes_tensor(256);
  ASSERT_EQ(kf_tensor_retain(t), KF_OK);
  ASSERT_EQ(kf_tensor_retain(t), KF_OK);
  int32_t ndim = 0;
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(kf_tensor_release(t), KF_OK);
    EXPECT_EQ(kf_tensor_ndim(t, &ndim), KF_OK) << "still referenced: " << kf_last_error_message();
    EXPECT_EQ(ndim, 1);
  }
  ASSERT_EQ(kf_tensor_release(t), KF_OK);  // the last reference
  EXPECT_EQ(kf_tensor_ndim(t, &ndim), KF_INVALID_ARGUMENT);
}

TEST(Pool, AViewKeepsTheStorageAfterItsBaseIsReleased) {
  KF_REQUIRE_CPU();
  ASSERT_EQ(kf_empty_cache(kCpu), KF_OK);
  const kf_memory_stats_t s0 = stats();
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  const int64_t shape[] = {6};
  kf_tensor_t base = nullptr, view = nullptr;
  ASSERT_EQ(kf_tensor_from_data(values.data(), shape, 1, KF_FLOAT32, kCpu, &base), KF_OK);
  const int64_t view_shape[] = {2, 3};
  ASSERT_EQ(kf_reshape(base, view_shape, 2, &view), KF_OK) << kf_last_error_message();
  EXPECT_EQ(kfunit::data_of(view), kfunit::data_of(base)) << "reshape of a contiguous tensor is "
                                                             "a view";
  ASSERT_EQ(kf_tensor_release(base), KF_OK);
  EXPECT_EQ(stats().allocated_bytes, s0.allocated_bytes + 64) << "the view holds the storage";

  std::vector<float> back(6, 0.0f);
  ASSERT_EQ(kf_tensor_copy_to_host(view, back.data(), back.size() * sizeof(float)), KF_OK)
      << kf_last_error_message();
  EXPECT_EQ(back, values);
  ASSERT_EQ(kf_tensor_release(view), KF_OK);
  EXPECT_EQ(stats().allocated_bytes, s0.allocated_bytes);
}

TEST(Pool, BorrowedMemoryDeleterRunsOnceAfterTheLastView) {
  KF_REQUIRE_CPU();
  static int calls = 0;
  calls = 0;
  std::vector<float> owned(12, 1.0f);
  const int64_t shape[] = {3, 4};
  kf_tensor_t t = nullptr, v = nullptr;
  ASSERT_EQ(kf_tensor_from_blob(owned.data(), shape, nullptr, 2, KF_FLOAT32, kCpu,
                                [](void*, void* ctx) { ++*static_cast<int*>(ctx); }, &calls, &t),
            KF_OK)
      << kf_last_error_message();
  const int64_t flat[] = {12};
  ASSERT_EQ(kf_reshape(t, flat, 1, &v), KF_OK) << kf_last_error_message();
  ASSERT_EQ(kf_tensor_release(t), KF_OK);
  EXPECT_EQ(calls, 0) << "a view still uses the memory";
  ASSERT_EQ(kf_tensor_release(v), KF_OK);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(kf_tensor_release(v), KF_INVALID_ARGUMENT);
  EXPECT_EQ(calls, 1) << "a double release must not run the deleter again";
}

}  // namespace
