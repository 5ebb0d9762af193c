// Bad input at the C ABI: op arguments (shapes, dtypes, dims, out tensors, devices).
#include "abi_util.hpp"

namespace kfabi {
namespace {

const kf_scalar_t kOne = kf_scalar_i64(1);
constexpr auto IA = KF_INVALID_ARGUMENT;

TEST(AbiOps, BroadcastMismatchNamesBothShapes) {
  Tensor a = full({2, 3}, 1), b = full({4}, 1), r;
  EXPECT_TRUE(fails_with(kf_add(a.get(), b.get(), kOne, r.put()), IA, {{"add"}, {{2, 3}, {4}}}));
  EXPECT_FALSE(r);
  EXPECT_TRUE(fails_with(kf_mul(b.get(), a.get(), r.put()), IA, {{"mul"}, {{4}, {2, 3}}}));
  Tensor c = full({2, 1}, 1, KF_BOOL), d = full({3, 3}, 1);
  EXPECT_TRUE(fails_with(kf_where(c.get(), d.get(), d.get(), r.put()), IA,
                         {{"where"}, {{2, 1}, {3, 3}}}));
}

TEST(AbiOps, DtypeNotSupportedByOp) {
  Tensor b = full({3}, 1, KF_BOOL), i = full({3}, 1, KF_INT32), r;
  EXPECT_TRUE(fails_with(kf_sub(b.get(), b.get(), kOne, r.put()), IA, {{"sub", "bool"}, {}}));
  EXPECT_TRUE(fails_with(kf_neg(b.get(), r.put()), IA, {{"neg", "bool"}, {}}));
  EXPECT_TRUE(fails_with(kf_mean(i.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()), IA,
                         {{"mean", "int32"}, {}}));
  Tensor f = full({3}, 1);
  EXPECT_TRUE(fails_with(kf_where(f.get(), f.get(), f.get(), r.put()), IA,
                         {{"where", "bool"}, {}}))
      << "the condition must be bool";
  // An integer alpha is fine on floats; a floating alpha on integers is not (PyTorch).
  EXPECT_TRUE(fails_with(kf_add(i.get(), i.get(), kf_scalar_f64(0.5), r.put()), IA,
                         {{"alpha"}, {}}));
}

TEST(AbiOps, Float16ExpOnCpu) {
  // Built from host bits (1.0 = 0x3C00), so that no float16 kernel is needed to make it. The CPU
  // backend registers exp for every floating dtype (kernforge ops exp lists f16), so it runs.
  const uint16_t bits[3] = {0x3C00, 0x3C00, 0x3C00};
  const int64_t shape[1] = {3};
  Tensor h, r, f;
  ASSERT_EQ(kf_tensor_from_data(bits, shape, 1, KF_FLOAT16, kf_device_cpu(), h.put()), KF_OK)
      << kf_last_error_message();
  ASSERT_EQ(kf_exp(h.get(), r.put()), KF_OK) << kf_last_error_message();
  kf_dtype_t dtype = KF_DTYPE_UNDEFINED;
  ASSERT_EQ(kf_tensor_dtype(r.get(), &dtype), KF_OK);
  EXPECT_EQ(dtype, KF_FLOAT16) << "exp keeps a floating dtype";
  float out[3] = {0, 0, 0};
  ASSERT_EQ(kf_to_dtype(r.get(), KF_FLOAT32, f.put()), KF_OK) << kf_last_error_message();
  ASSERT_EQ(kf_tensor_copy_to_host(f.get(), out, sizeof out), KF_OK);
  for (float v : out) EXPECT_EQ(v, 2.71875f) << "exp(1) rounded to float16 (0x4170)";
}

TEST(AbiOps, DimOutOfRange) {
  Tensor a = full({2, 3}, 1), r;
  const int64_t five = 5, m3 = -3, two = 2, dup[2] = {0, 0};
  EXPECT_TRUE(fails_with(kf_sum(a.get(), &five, 1, false, KF_DTYPE_UNDEFINED, r.put()), IA,
                         {{"5", "-2", "1"}, {}}));
  EXPECT_TRUE(fails_with(kf_sum(a.get(), &m3, 1, false, KF_DTYPE_UNDEFINED, r.put()), IA,
                         {{"-3", "-2"}, {}}));
  EXPECT_TRUE(fails_with(kf_sum(a.get(), dup, 2, false, KF_DTYPE_UNDEFINED, r.put()), IA,
                         {{"0"}, {}, {"twice", "multiple", "repeat", "duplicate", "more than once"}}));
  EXPECT_TRUE(fails_with(kf_amax(a.get(), &two, 1, false, r.put()), IA, {{"2", "-2"}, {}}));
  EXPECT_TRUE(fails_with(kf_argmax(a.get(), &two, false, r.put()), IA, {{"2", "-2"}, {}}));
  EXPECT_TRUE(fails_with(kf_transpose(a.get(), 0, 2, r.put()), IA, {{"2", "-2"}, {}}));
  EXPECT_TRUE(fails_with(kf_unsqueeze(a.get(), 4, r.put()), IA, {{"4", "-3"}, {}}));
  EXPECT_TRUE(fails_with(kf_squeeze(a.get(), &five, 1, r.put()), IA, {{"5"}, {}}));
  EXPECT_TRUE(fails_with(kf_flatten(a.get(), 1, 0, r.put()), IA, {{"flatten"}, {}}))
      << "start_dim after end_dim";
  EXPECT_TRUE(fails_with(kf_select(a.get(), 0, 5, r.put()), {IA, KF_OUT_OF_RANGE},
                         {{"5", "2"}, {}}));
  EXPECT_TRUE(fails_with(kf_select(a.get(), 1, -4, r.put()), {IA, KF_OUT_OF_RANGE},
                         {{"-4", "3"}, {}}));
  const int64_t bad_perm[2] = {0, 0}, short_perm[1] = {0};
  EXPECT_TRUE(fails_with(kf_permute(a.get(), bad_perm, 2, r.put()), IA, {{"permute"}, {}}));
  EXPECT_TRUE(fails_with(kf_permute(a.get(), short_perm, 1, r.put()), IA, {{"permute"}, {}}));
}

TEST(AbiOps, OutOfWrongShape) {
  Tensor a = full({2, 3}, 1), out = full({3, 2}, 0);
  EXPECT_TRUE(fails_with(kf_add_out(a.get(), a.get(), kOne, out.get()), IA,
                         {{"out"}, {{2, 3}, {3, 2}}}));
  Tensor big = full({4, 3}, 0);
  EXPECT_TRUE(fails_with(kf_mul_out(a.get(), a.get(), big.get()), IA, {{}, {{2, 3}, {4, 3}}}));
}

TEST(AbiOps, OutOfWrongDtype) {
  Tensor a = full({2, 3}, 1.5), out = full({2, 3}, 0, KF_INT32);
  EXPECT_TRUE(fails_with(kf_add_out(a.get(), a.get(), kOne, out.get()), IA,
                         {{"float32", "int32"}, {}}));
  // A bool out cannot hold an int sum either.
  Tensor i = full({2}, 1, KF_INT64), bout = full({2}, 0, KF_BOOL);
  EXPECT_TRUE(fails_with(kf_add_out(i.get(), i.get(), kOne, bout.get()), IA,
                         {{"int64", "bool"}, {}}));
}

TEST(AbiOps, InplaceThatWouldBroadcastSelf) {
  Tensor self = full({1, 3}, 1), other = full({2, 3}, 1);
  EXPECT_TRUE(fails_with(kf_add_(self.get(), other.get(), kOne), IA, {{}, {{1, 3}, {2, 3}}}));
  float v[3];
  ASSERT_EQ(kf_tensor_copy_to_host(self.get(), v, sizeof v), KF_OK);
  EXPECT_EQ(v[0], 1.0f) << "a failed in-place op must not write";
}

TEST(AbiOps, WriteIntoExpandedTensor) {
  // More than one element of the written-to tensor refers to one memory location (PyTorch
  // refuses this for in-place and out= writes).
  Tensor row = full({3}, 1), ex, other = full({2, 3}, 1);
  const int64_t s[2] = {2, 3};
  ASSERT_EQ(kf_expand(row.get(), s, 2, ex.put()), KF_OK) << kf_last_error_message();
  EXPECT_TRUE(fails_with(kf_add_(ex.get(), other.get(), kOne), IA,
                         {{}, {}, {"overlap", "memory location", "expand", "stride 0",
                                   "zero stride", "same memory", "aliased"}}));
  EXPECT_TRUE(fails_with(kf_add_out(other.get(), other.get(), kOne, ex.get()), IA,
                         {{}, {}, {"overlap", "memory location", "expand", "stride 0",
                                   "zero stride", "same memory", "aliased"}}));
}

TEST(AbiOps, InplaceResultDtypeCannotBeStored) {
  Tensor i = full({3}, 1, KF_INT32), f = full({3}, 0.5);
  EXPECT_TRUE(fails_with(kf_add_(i.get(), f.get(), kOne), IA, {{"float32", "int32"}, {}}));
  EXPECT_TRUE(fails_with(kf_div_(i.get(), i.get()), IA, {{"float32", "int32"}, {}}));
  EXPECT_TRUE(fails_with(kf_exp_(i.get()), IA, {{"float32", "int32"}, {}}));
}

TEST(AbiOps, MatmulShapeMismatch) {
  Tensor a = full({2, 3}, 1), b = full({4, 5}, 1), r;
  EXPECT_TRUE(fails_with(kf_mm(a.get(), b.get(), r.put()), IA, {{"mm"}, {{2, 3}, {4, 5}}}));
  Tensor v = full({4}, 1);
  EXPECT_TRUE(fails_with(kf_matmul(a.get(), v.get(), r.put()), IA, {{}, {{2, 3}, {4}}}));
  Tensor x = full({2, 3, 4}, 1), y = full({3, 4, 5}, 1);
  EXPECT_TRUE(fails_with(kf_bmm(x.get(), y.get(), r.put()), IA, {{"bmm"}, {{2, 3, 4}, {3, 4, 5}}}));
  EXPECT_TRUE(fails_with(kf_mm(x.get(), b.get(), r.put()), IA,
                         {{"mm"}, {}, {"2-D", "2D", "matrix", "2 dims", "dimension", "[2, 3, 4]"}}))
      << "mm needs 2-D tensors";
  Tensor d = full({3, 2}, 1, KF_FLOAT64);
  EXPECT_TRUE(fails_with(kf_mm(a.get(), d.get(), r.put()), IA, {{"float32", "float64"}, {}}));
  Tensor w = full({4, 5}, 1), in = full({2, 3}, 1);
  EXPECT_TRUE(fails_with(kf_linear(in.get(), w.get(), nullptr, r.put()), IA, {{}, {{2, 3}}}));
}

TEST(AbiOps, ViewAndReshapeErrors) {
  Tensor a = full({2, 3}, 1), r;
  const int64_t four[1] = {4}, two_minus_one[2] = {-1, -1}, five[1] = {5}, bad[2] = {-2, 3};
  EXPECT_TRUE(fails_with(kf_view(a.get(), four, 1, r.put()), IA, {{"6"}, {{4}}}));
  EXPECT_TRUE(fails_with(kf_reshape(a.get(), two_minus_one, 2, r.put()), IA, {{"-1"}, {}}));
  EXPECT_TRUE(fails_with(kf_reshape(a.get(), five, 1, r.put()), IA, {{"6"}, {{5}}}));
  EXPECT_TRUE(fails_with(kf_reshape(a.get(), bad, 2, r.put()), IA, {{"-2"}, {}}));
  const int64_t ex[2] = {2, 4};
  Tensor row = full({3}, 1);
  EXPECT_TRUE(fails_with(kf_expand(row.get(), ex, 2, r.put()), IA, {{"expand"}, {{3}, {2, 4}}}));
  const int64_t lower[1] = {2};
  EXPECT_TRUE(fails_with(kf_expand(a.get(), lower, 1, r.put()), IA, {{"expand"}, {}}))
      << "expand to fewer dims";
  const int64_t s0 = 0, s2 = 2;
  EXPECT_TRUE(fails_with(kf_slice(a.get(), 0, &s0, &s2, 0, r.put()), IA, {{"step"}, {}}));
}

TEST(AbiOps, FactoryErrors) {
  Tensor r;
  EXPECT_TRUE(fails_with(kf_arange(kf_scalar_i64(0), kf_scalar_i64(5), kf_scalar_i64(0),
                                   KF_DTYPE_UNDEFINED, kf_device_cpu(), r.put()),
                         IA, {{"step"}, {}}));
  EXPECT_TRUE(fails_with(kf_arange(kf_scalar_i64(0), kf_scalar_i64(5), kf_scalar_i64(-1),
                                   KF_DTYPE_UNDEFINED, kf_device_cpu(), r.put()),
                         IA, {{}, {}, {"arange", "step"}}))
      << "a step of the wrong sign";
}

TEST(AbiOps, ReductionOfEmpty) {
  Tensor e = full({0, 3}, 1), r;
  EXPECT_TRUE(fails_with(kf_amax(e.get(), nullptr, 0, false, r.put()), IA, {{"amax"}, {}}));
  EXPECT_TRUE(fails_with(kf_argmax(e.get(), nullptr, false, r.put()), IA, {{"argmax"}, {}}));
  // Reducing a non-empty dim of an empty tensor is fine: [0,3] over dim 1 gives [0].
  const int64_t one = 1;
  EXPECT_EQ(kf_amax(e.get(), &one, 1, false, r.put()), KF_OK) << kf_last_error_message();
}

TEST(AbiOps, TwoDevices) {
  // A second device type with no backend: a CUDA tensor made over host memory (never read).
  static float blob[3] = {1, 2, 3};
  const int64_t shape[1] = {3};
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) == KF_OK && info.state == KF_BACKEND_LOADED &&
        info.device_type == KF_DEVICE_CUDA)
      GTEST_SKIP() << "a CUDA backend is loaded here; this case needs a device type without one";
  }
  const kf_device_t cuda{KF_DEVICE_CUDA, 0};
  Tensor c;
  const kf_status_t s =
      kf_tensor_from_blob(blob, shape, nullptr, 1, KF_FLOAT32, cuda, nullptr, nullptr, c.put());
  if (s != KF_OK) {
    EXPECT_TRUE(fails_with(s, {KF_UNAVAILABLE, IA}, {{"cuda"}, {}}));
    return;
  }
  // The blob was accepted: an op mixing it with a CPU tensor must name both devices.
  Tensor a = full({3}, 1), r;
  EXPECT_TRUE(fails_with(kf_add(a.get(), c.get(), kOne, r.put()), {KF_UNAVAILABLE, IA},
                         {{"cuda", "cpu"}, {}}));
  EXPECT_TRUE(fails_with(kf_exp(c.get(), r.put()), {KF_UNAVAILABLE, IA, KF_UNIMPLEMENTED},
                         {{"cuda"}, {}}));
}

TEST(AbiOps, DeviceWithoutBackendForFactory) {
  const int64_t shape[1] = {3};
  Tensor r;
  const kf_device_t rocm{KF_DEVICE_ROCM, 0};
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) == KF_OK && info.state == KF_BACKEND_LOADED &&
        info.device_type == KF_DEVICE_ROCM)
      GTEST_SKIP() << "a ROCm backend is loaded";
  }
  EXPECT_TRUE(fails_with(kf_zeros(shape, 1, KF_FLOAT32, rocm, r.put()), {KF_UNAVAILABLE, IA},
                         {{"rocm"}, {}}));
  const kf_device_t cpu7{KF_DEVICE_CPU, 7};
  EXPECT_TRUE(fails_with(kf_zeros(shape, 1, KF_FLOAT32, cpu7, r.put()),
                         {KF_UNAVAILABLE, IA, KF_OUT_OF_RANGE}, {{"7"}, {}}))
      << "a device index the backend does not have";
}

}  // namespace
}  // namespace kfabi
