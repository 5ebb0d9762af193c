// Bad input at the C ABI: handles, out pointers, shapes, dtypes, host copies.
#include "abi_util.hpp"

namespace kfabi {
namespace {

const kf_scalar_t kOne = kf_scalar_i64(1);

TEST(AbiHandles, NullHandleToAccessors) {
  int32_t nd = 0;
  int64_t n = 0;
  const int64_t* p = nullptr;
  kf_dtype_t d;
  void* ptr = nullptr;
  EXPECT_TRUE(fails_with(kf_tensor_ndim(nullptr, &nd), KF_INVALID_ARGUMENT, {{"null"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_numel(nullptr, &n), KF_INVALID_ARGUMENT, {{"null"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_shape(nullptr, &p), KF_INVALID_ARGUMENT, {{"null"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_dtype(nullptr, &d), KF_INVALID_ARGUMENT, {{"null"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_data_ptr(nullptr, &ptr), KF_INVALID_ARGUMENT, {{"null"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_retain(nullptr), KF_INVALID_ARGUMENT, {{"null"}, {}}));
  float buf[1];
  EXPECT_TRUE(fails_with(kf_tensor_copy_to_host(nullptr, buf, sizeof buf), KF_INVALID_ARGUMENT,
                         {{"null"}, {}}));
  EXPECT_EQ(kf_tensor_release(nullptr), KF_OK) << "releasing NULL is KF_OK, like free(NULL)";
}

TEST(AbiHandles, NullHandleToOps) {
  Tensor a = full({2}, 1);
  Tensor r;
  EXPECT_TRUE(fails_with(kf_add(nullptr, a.get(), kOne, r.put()), KF_INVALID_ARGUMENT,
                         {{"add", "self"}, {}, {"null", "none"}}));
  EXPECT_FALSE(r) << "a failing op must leave *out NULL";
  EXPECT_TRUE(fails_with(kf_add(a.get(), nullptr, kOne, r.put()), KF_INVALID_ARGUMENT,
                         {{"add", "other"}, {}, {"null", "none"}}));
  EXPECT_TRUE(fails_with(kf_exp(nullptr, r.put()), KF_INVALID_ARGUMENT, {{"exp", "self"}, {}}));
  EXPECT_TRUE(fails_with(kf_sum(nullptr, nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()),
                         KF_INVALID_ARGUMENT, {{"sum"}, {}}));
  EXPECT_TRUE(fails_with(kf_transpose(nullptr, 0, 1, r.put()), KF_INVALID_ARGUMENT,
                         {{"transpose"}, {}}));
  EXPECT_TRUE(fails_with(kf_add_(nullptr, a.get(), kOne), KF_INVALID_ARGUMENT, {{"add"}, {}}));
  EXPECT_TRUE(fails_with(kf_add_out(a.get(), a.get(), kOne, nullptr), KF_INVALID_ARGUMENT,
                         {{"add", "out"}, {}}));
}

TEST(AbiHandles, ReleasedHandle) {
  // test_stale_handles.cpp has the case where a new tensor takes the released one's slot.
  Tensor a = full({2, 3}, 1), r;
  const int64_t shape[2] = {2, 3};
  kf_tensor_t t = nullptr;
  ASSERT_EQ(kf_tensor_empty(shape, 2, KF_FLOAT32, kf_device_cpu(), &t), KF_OK);
  ASSERT_EQ(kf_tensor_release(t), KF_OK);
  const Words released{{}, {}, {"released", "freed", "dangling", "stale", "invalid"}};
  int32_t nd = 0;
  EXPECT_TRUE(fails_with(kf_tensor_ndim(t, &nd), KF_INVALID_ARGUMENT, released));
  EXPECT_TRUE(fails_with(kf_add(t, a.get(), kOne, r.put()), KF_INVALID_ARGUMENT, released));
  EXPECT_TRUE(fails_with(kf_tensor_retain(t), KF_INVALID_ARGUMENT, released));
  EXPECT_TRUE(fails_with(kf_tensor_release(t), KF_INVALID_ARGUMENT, released))
      << "a second release of the same handle";
}

TEST(AbiHandles, ViewKeepsStorageAfterBaseRelease) {
  // Releasing the base while a view lives is fine; the view's handle stays valid.
  Tensor base = full({4}, 3), v;
  ASSERT_EQ(kf_select(base.get(), 0, 2, v.put()), KF_OK) << kf_last_error_message();
  base.reset();
  kf_scalar_t s;
  ASSERT_EQ(kf_tensor_item(v.get(), &s), KF_OK) << kf_last_error_message();
  EXPECT_EQ(s.v.f64, 3.0);
}

TEST(AbiHandles, NullOutPointers) {
  const int64_t shape[1] = {3};
  Tensor a = full({3}, 1);
  EXPECT_TRUE(fails_with(kf_tensor_empty(shape, 1, KF_FLOAT32, kf_device_cpu(), nullptr),
                         KF_INVALID_ARGUMENT, {{"out"}, {}}));
  EXPECT_TRUE(fails_with(kf_add(a.get(), a.get(), kOne, nullptr), KF_INVALID_ARGUMENT,
                         {{"add", "out"}, {}}));
  EXPECT_TRUE(fails_with(kf_zeros(shape, 1, KF_FLOAT32, kf_device_cpu(), nullptr),
                         KF_INVALID_ARGUMENT, {{"zeros", "out"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_ndim(a.get(), nullptr), KF_INVALID_ARGUMENT, {{"out"}, {}}));
  Tensor one = full({1}, 1);
  EXPECT_TRUE(fails_with(kf_tensor_item(one.get(), nullptr), KF_INVALID_ARGUMENT, {{"out"}, {}}));
}

TEST(AbiShapes, NullShapeWithPositiveNdim) {
  Tensor r;
  EXPECT_TRUE(fails_with(kf_tensor_empty(nullptr, 2, KF_FLOAT32, kf_device_cpu(), r.put()),
                         KF_INVALID_ARGUMENT, {{"shape"}, {}}));
  EXPECT_TRUE(fails_with(kf_zeros(nullptr, 2, KF_FLOAT32, kf_device_cpu(), r.put()),
                         KF_INVALID_ARGUMENT, {{"size"}, {}}));
  const float data[4] = {1, 2, 3, 4};
  EXPECT_TRUE(fails_with(kf_tensor_from_data(data, nullptr, 1, KF_FLOAT32, kf_device_cpu(),
                                             r.put()),
                         KF_INVALID_ARGUMENT, {{"shape"}, {}}));
  const int64_t shape[2] = {2, 2};
  EXPECT_TRUE(fails_with(kf_tensor_from_data(nullptr, shape, 2, KF_FLOAT32, kf_device_cpu(),
                                             r.put()),
                         KF_INVALID_ARGUMENT, {{"data"}, {}}));
  // NULL with ndim 0 is a 0-dim tensor, not an error.
  EXPECT_EQ(kf_tensor_empty(nullptr, 0, KF_FLOAT32, kf_device_cpu(), r.put()), KF_OK)
      << kf_last_error_message();
}

TEST(AbiShapes, NegativeSizes) {
  const int64_t shape[2] = {2, -3};
  Tensor r;
  EXPECT_TRUE(fails_with(kf_tensor_empty(shape, 2, KF_FLOAT32, kf_device_cpu(), r.put()),
                         KF_INVALID_ARGUMENT, {{"-3"}, {}}));
  const int64_t neg[1] = {-1};
  EXPECT_TRUE(fails_with(kf_zeros(neg, 1, KF_FLOAT32, kf_device_cpu(), r.put()),
                         KF_INVALID_ARGUMENT, {{"zeros", "-1"}, {}}));
  EXPECT_TRUE(fails_with(kf_full(neg, 1, kOne, KF_DTYPE_UNDEFINED, kf_device_cpu(), r.put()),
                         KF_INVALID_ARGUMENT, {{"full", "-1"}, {}}));
}

TEST(AbiShapes, TooManyDims) {
  std::vector<int64_t> shape(KF_MAX_NDIM + 1, 1);
  Tensor r;
  EXPECT_TRUE(fails_with(kf_tensor_empty(shape.data(), KF_MAX_NDIM + 1, KF_FLOAT32,
                                         kf_device_cpu(), r.put()),
                         KF_INVALID_ARGUMENT, {{"17", "16"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_empty(shape.data(), -1, KF_FLOAT32, kf_device_cpu(), r.put()),
                         KF_INVALID_ARGUMENT, {{"-1"}, {}}));
  // 16 dims is the limit and must work.
  EXPECT_EQ(kf_tensor_empty(shape.data(), KF_MAX_NDIM, KF_FLOAT32, kf_device_cpu(), r.put()),
            KF_OK)
      << kf_last_error_message();
  // A view op that would exceed the limit: unsqueeze of a 16-dim tensor.
  Tensor u;
  EXPECT_TRUE(fails_with(kf_unsqueeze(r.get(), 0, u.put()), KF_INVALID_ARGUMENT, {{"16"}, {}}));
}

TEST(AbiShapes, BadDtypeValue) {
  const int64_t shape[1] = {2};
  Tensor r;
  EXPECT_TRUE(fails_with(kf_tensor_empty(shape, 1, static_cast<kf_dtype_t>(42), kf_device_cpu(),
                                         r.put()),
                         KF_INVALID_ARGUMENT, {{"42", "dtype"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_empty(shape, 1, KF_DTYPE_UNDEFINED, kf_device_cpu(), r.put()),
                         KF_INVALID_ARGUMENT, {{"dtype"}, {}}));
  Tensor a = full({2}, 1);
  EXPECT_TRUE(fails_with(kf_to_dtype(a.get(), static_cast<kf_dtype_t>(77), r.put()),
                         KF_INVALID_ARGUMENT, {{"77"}, {}}));
}

TEST(AbiHost, CopyToHostWrongByteCount) {
  Tensor a = full({2, 3}, 1);  // 24 bytes
  float buf[8];
  EXPECT_TRUE(fails_with(kf_tensor_copy_to_host(a.get(), buf, 20), KF_INVALID_ARGUMENT,
                         {{"20", "24"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_copy_to_host(a.get(), buf, 32), KF_INVALID_ARGUMENT,
                         {{"32", "24"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_copy_to_host(a.get(), nullptr, 24), KF_INVALID_ARGUMENT,
                         {{"dst"}, {}, {"null"}}));
  EXPECT_EQ(kf_tensor_copy_to_host(a.get(), buf, 24), KF_OK) << kf_last_error_message();
  EXPECT_EQ(buf[5], 1.0f);
}

TEST(AbiHost, ItemOfMultiElementTensor) {
  Tensor a = full({2, 3}, 1), e = full({0}, 1);
  kf_scalar_t s;
  EXPECT_TRUE(fails_with(kf_tensor_item(a.get(), &s), KF_INVALID_ARGUMENT, {{"6"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_item(e.get(), &s), KF_INVALID_ARGUMENT, {{"0"}, {}}));
  Tensor one = full({1, 1}, 2.5);
  ASSERT_EQ(kf_tensor_item(one.get(), &s), KF_OK) << kf_last_error_message();
  EXPECT_EQ(s.tag, KF_SCALAR_FLOAT64);
  EXPECT_EQ(s.v.f64, 2.5);
}

TEST(AbiHost, FromBlobBadArguments) {
  float data[6] = {0};
  const int64_t shape[2] = {2, 3}, neg_strides[2] = {-3, 1};
  Tensor r;
  EXPECT_TRUE(fails_with(kf_tensor_from_blob(nullptr, shape, nullptr, 2, KF_FLOAT32,
                                             kf_device_cpu(), nullptr, nullptr, r.put()),
                         KF_INVALID_ARGUMENT, {{"data"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_from_blob(data, shape, neg_strides, 2, KF_FLOAT32,
                                             kf_device_cpu(), nullptr, nullptr, r.put()),
                         KF_INVALID_ARGUMENT, {{"-3"}, {}}));
}

// The deleter of a borrowed blob runs exactly once, when the last view goes.
int g_deleted = 0;
void count_delete(void*, void* ctx) { ++*static_cast<int*>(ctx); }

TEST(AbiHost, FromBlobDeleterRunsOnce) {
  static float data[6] = {1, 2, 3, 4, 5, 6};
  const int64_t shape[2] = {2, 3};
  g_deleted = 0;
  Tensor t, v;
  ASSERT_EQ(kf_tensor_from_blob(data, shape, nullptr, 2, KF_FLOAT32, kf_device_cpu(),
                                count_delete, &g_deleted, t.put()),
            KF_OK)
      << kf_last_error_message();
  ASSERT_EQ(kf_transpose(t.get(), 0, 1, v.put()), KF_OK) << kf_last_error_message();
  t.reset();
  EXPECT_EQ(g_deleted, 0) << "the view still uses the memory";
  v.reset();
  EXPECT_EQ(g_deleted, 1);
}

}  // namespace
}  // namespace kfabi
