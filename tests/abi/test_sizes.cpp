// Sizes that overflow, at the C ABI: every producer of a shape, a stride or an offset (tensor
// creation, factories, broadcasting, matmul, the views, arange, kf_tensor_from_blob) with values
// at and just past the limits of int64. A result that does not fit is KF_INVALID_ARGUMENT with a
// message naming the shape; a result that fits is computed exactly (never a wrapped size).
#include <cstdint>
#include <limits>
#include <vector>

#include "abi_util.hpp"

namespace kfabi {
namespace {

constexpr auto IA = KF_INVALID_ARGUMENT;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t k2p31 = int64_t{1} << 31, k2p32 = int64_t{1} << 32;
constexpr int64_t k2p40 = int64_t{1} << 40, k2p61 = int64_t{1} << 61;
constexpr int64_t k2p62 = int64_t{1} << 62;
const kf_scalar_t kOne = kf_scalar_i64(1);

Shape shape_of(const Tensor& t) {
  int32_t nd = -1;
  const int64_t* s = nullptr;
  if (kf_tensor_ndim(t.get(), &nd) != KF_OK || kf_tensor_shape(t.get(), &s) != KF_OK) return {};
  return Shape(s, s + nd);
}

std::vector<float> values_of(const Tensor& t) {
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_numel(t.get(), &n), KF_OK);
  std::vector<float> v(static_cast<size_t>(n));
  EXPECT_EQ(kf_tensor_copy_to_host(t.get(), v.data(), v.size() * sizeof(float)), KF_OK)
      << kf_last_error_message();
  return v;
}

// A float32 [n] tensor holding 0, 1, ..., n-1.
Tensor iota(int64_t n) {
  Tensor t;
  EXPECT_EQ(kf_arange(kf_scalar_i64(0), kf_scalar_i64(n), kOne, KF_FLOAT32, kf_device_cpu(),
                      t.put()),
            KF_OK)
      << kf_last_error_message();
  return t;
}

// A tensor of `shape` (float32) made by expanding one element: any size, no memory.
kf_status_t expanded(const Shape& shape, Tensor* out) {
  Shape ones(shape.size(), 1);
  Tensor one = full(ones, 1);
  return kf_expand(one.get(), shape.data(), static_cast<int32_t>(shape.size()), out->put());
}

// ---------------------------------------------------------------------- new tensors --

TEST(AbiSizes, EmptyWhoseByteCountWrapsIsRefused) {
  // 2^61 + 8 int64 elements are 2^64 + 64 bytes: 64 once wrapped to 64 bits.
  const Shape wraps_to_64 = {k2p61 + 8};
  Tensor t;
  EXPECT_TRUE(fails_with(kf_tensor_empty(wraps_to_64.data(), 1, KF_INT64, kf_device_cpu(),
                                         t.put()),
                         IA, {{"bytes"}, {wraps_to_64}}));
  EXPECT_FALSE(t);
  const Shape wraps_to_0 = {k2p32, k2p31};  // 2^63 float32 elements: 2^65 bytes
  EXPECT_TRUE(fails_with(kf_tensor_empty(wraps_to_0.data(), 2, KF_FLOAT32, kf_device_cpu(),
                                         t.put()),
                         IA, {{}, {wraps_to_0}}));
  // The same through the factories, whose kernels would fill the wrapped block.
  EXPECT_TRUE(fails_with(kf_zeros(wraps_to_64.data(), 1, KF_INT64, kf_device_cpu(), t.put()),
                         IA, {{"zeros"}, {wraps_to_64}}));
  EXPECT_TRUE(fails_with(kf_full(wraps_to_64.data(), 1, kOne, KF_INT64, kf_device_cpu(),
                                 t.put()),
                         IA, {{"full"}, {wraps_to_64}}));
  EXPECT_TRUE(fails_with(kf_empty(wraps_to_64.data(), 1, KF_INT64, kf_device_cpu(), t.put()),
                         IA, {{}, {wraps_to_64}}));
  std::vector<int64_t> host(1);
  EXPECT_TRUE(fails_with(kf_tensor_from_data(host.data(), wraps_to_64.data(), 1, KF_INT64,
                                             kf_device_cpu(), t.put()),
                         IA, {{}, {wraps_to_64}}));
}

TEST(AbiSizes, ElementCountsAtTheLimit) {
  Tensor t;
  const Shape one_more = {k2p62, 2};  // 2^63 elements: not
  EXPECT_TRUE(fails_with(kf_tensor_empty(one_more.data(), 2, KF_BOOL, kf_device_cpu(), t.put()),
                         IA, {{}, {one_more}}));
  const Shape over = {kMax, 2};
  EXPECT_TRUE(fails_with(kf_tensor_empty(over.data(), 2, KF_BOOL, kf_device_cpu(), t.put()), IA,
                         {{}, {over}}));
  // A size-0 dim makes no elements, but the strides of the other dims must still exist.
  const Shape zero_first = {0, k2p40, k2p40};
  EXPECT_TRUE(fails_with(kf_tensor_empty(zero_first.data(), 3, KF_FLOAT32, kf_device_cpu(),
                                         t.put()),
                         IA, {{}, {zero_first}}));
  const Shape zero_ok = {0, k2p40};
  EXPECT_EQ(kf_tensor_empty(zero_ok.data(), 2, KF_FLOAT32, kf_device_cpu(), t.put()), KF_OK)
      << kf_last_error_message();
}

// ------------------------------------------------------------------ shapes of results --

TEST(AbiSizes, BroadcastResultTooLargeIsRefused) {
  Tensor a, b, r;
  ASSERT_EQ(expanded({k2p40, 1}, &a), KF_OK) << kf_last_error_message();
  ASSERT_EQ(expanded({1, k2p40}, &b), KF_OK) << kf_last_error_message();
  // 2^80 elements: 0 once wrapped, so the add "succeeded" with a [2^40, 2^40] result.
  EXPECT_TRUE(fails_with(kf_add(a.get(), b.get(), kOne, r.put()), IA, {{"add"}, {{k2p40, k2p40}}}));
  EXPECT_FALSE(r);
  EXPECT_TRUE(fails_with(kf_mul(a.get(), b.get(), r.put()), IA, {{"mul"}, {{k2p40, k2p40}}}));
}

TEST(AbiSizes, MatmulResultTooLargeIsRefused) {
  Tensor a, b, r;
  ASSERT_EQ(expanded({k2p32, 1}, &a), KF_OK) << kf_last_error_message();
  ASSERT_EQ(expanded({1, k2p32}, &b), KF_OK) << kf_last_error_message();
  EXPECT_TRUE(fails_with(kf_mm(a.get(), b.get(), r.put()), IA, {{"mm"}, {{k2p32, k2p32}}}));
  EXPECT_FALSE(r);
}

// ---------------------------------------------------------------------------- views --

TEST(AbiSizes, ExpandToTooManyElementsIsRefused) {
  Tensor one = full({1}, 1), r;
  const Shape elements = {k2p62, 4};  // 2^64 elements: 0 once wrapped
  EXPECT_TRUE(fails_with(kf_expand(one.get(), elements.data(), 2, r.put()), IA,
                         {{"expand"}, {elements}}));
  EXPECT_FALSE(r);
  const Shape bytes = {k2p61, 4};  // 2^63 elements fit nothing: 2^65 bytes of float32
  EXPECT_TRUE(fails_with(kf_expand(one.get(), bytes.data(), 2, r.put()), IA,
                         {{"expand"}, {bytes}}));
  const Shape ok = {k2p40, 1024};  // 2^50 elements (2^52 bytes): a valid view of one element
  ASSERT_EQ(kf_expand(one.get(), ok.data(), 2, r.put()), KF_OK) << kf_last_error_message();
  int64_t numel = 0;
  ASSERT_EQ(kf_tensor_numel(r.get(), &numel), KF_OK);
  EXPECT_EQ(numel, k2p40 * 1024);
}

TEST(AbiSizes, SliceWithAHugeStepHasOneElement) {
  Tensor t = iota(5), r;
  // (end - start + step - 1) / step overflowed: size -1, with KF_OK.
  for (const int64_t step : {kMax, kMax - 1, k2p62}) {
    ASSERT_EQ(kf_slice(t.get(), 0, nullptr, nullptr, step, r.put()), KF_OK)
        << kf_last_error_message();
    EXPECT_EQ(shape_of(r), Shape({1})) << "step " << step;
    EXPECT_EQ(values_of(r), std::vector<float>({0.0f}));
  }
  for (const int64_t step : {kMin, kMin + 1, -k2p62}) {  // walking down: the last element
    ASSERT_EQ(kf_slice(t.get(), 0, nullptr, nullptr, step, r.put()), KF_OK)
        << kf_last_error_message();
    EXPECT_EQ(shape_of(r), Shape({1})) << "step " << step;
    EXPECT_EQ(values_of(r), std::vector<float>({4.0f}));
  }
  const int64_t start = 3;
  ASSERT_EQ(kf_slice(t.get(), 0, &start, nullptr, kMax, r.put()), KF_OK);
  EXPECT_EQ(values_of(r), std::vector<float>({3.0f}));
  // On the outer dim of a matrix the new stride (5 * step) overflows too.
  Tensor m, s;
  const Shape two_by_five = {2, 5};
  ASSERT_EQ(kf_reshape(iota(10).get(), two_by_five.data(), 2, m.put()), KF_OK);
  ASSERT_EQ(kf_slice(m.get(), 0, nullptr, nullptr, kMax, s.put()), KF_OK)
      << kf_last_error_message();
  EXPECT_EQ(shape_of(s), Shape({1, 5}));
  EXPECT_EQ(values_of(s), std::vector<float>({0, 1, 2, 3, 4}));
  // Bounds at the extremes clamp as in Python.
  const int64_t lo = kMin, hi = kMax;
  ASSERT_EQ(kf_slice(t.get(), 0, &lo, &hi, 2, r.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(values_of(r), std::vector<float>({0, 2, 4}));
  ASSERT_EQ(kf_slice(t.get(), 0, &hi, &lo, 1, r.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(shape_of(r), Shape({0}));
  ASSERT_EQ(kf_slice(t.get(), 0, &hi, &lo, -2, r.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(values_of(r), std::vector<float>({4, 2, 0}));
  ASSERT_EQ(kf_slice(t.get(), 0, &lo, &hi, -1, r.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(shape_of(r), Shape({0}));
}

TEST(AbiSizes, ReshapeToShapesWhoseStridesOverflowIsRefused) {
  Tensor empty, r;
  const Shape zero = {0};
  ASSERT_EQ(kf_tensor_empty(zero.data(), 1, KF_FLOAT32, kf_device_cpu(), empty.put()), KF_OK);
  const Shape huge = {0, k2p40, k2p40};  // no element, but 2^80 elements per step of dim 0
  EXPECT_TRUE(fails_with(kf_reshape(empty.get(), huge.data(), 3, r.put()), IA,
                         {{"reshape"}, {huge}}));
  EXPECT_FALSE(r);
  EXPECT_TRUE(fails_with(kf_view(empty.get(), huge.data(), 3, r.put()), IA, {{"view"}, {huge}}));
  const Shape infer = {k2p40, k2p40, -1};  // the known sizes' product overflows
  EXPECT_TRUE(fails_with(kf_view(empty.get(), infer.data(), 3, r.put()), IA, {{"view"}, {infer}}));
}

// ---------------------------------------------------------------------------- arange --

TEST(AbiSizes, ArangeLengthsThatDoNotFitAreRefused) {
  Tensor r;
  const kf_device_t cpu = kf_device_cpu();
  // end - start overflows int64 (it wrapped to -1: a tensor of size -1).
  EXPECT_TRUE(fails_with(kf_arange(kf_scalar_i64(kMin), kf_scalar_i64(kMax), kOne, KF_INT64, cpu,
                                   r.put()),
                         IA, {{"arange", std::to_string(kMin), std::to_string(kMax)}, {}}));
  EXPECT_FALSE(r);
  // INT64_MIN / -1 trapped (SIGFPE).
  EXPECT_TRUE(fails_with(kf_arange(kf_scalar_i64(0), kf_scalar_i64(kMin), kf_scalar_i64(-1),
                                   KF_INT64, cpu, r.put()),
                         IA, {{"arange", std::to_string(kMin)}, {}}));
  // 2^62 int64 elements: the length fits, its bytes (2^65) do not.
  EXPECT_TRUE(fails_with(kf_arange(kf_scalar_i64(0), kf_scalar_i64(k2p62), kOne, KF_INT64, cpu,
                                   r.put()),
                         IA, {{"arange"}, {{k2p62}}}));
  // A floating length beyond any int64, named with its inputs.
  EXPECT_TRUE(fails_with(kf_arange(kf_scalar_f64(0), kf_scalar_f64(1e300), kf_scalar_f64(1e-300),
                                   KF_FLOAT32, cpu, r.put()),
                         IA, {{"arange", "1e+300", "1e-300"}, {}}));
  // The largest steps still give exact lengths.
  ASSERT_EQ(kf_arange(kf_scalar_i64(kMin), kf_scalar_i64(kMax), kf_scalar_i64(kMax), KF_INT64,
                      cpu, r.put()),
            KF_OK)
      << kf_last_error_message();
  EXPECT_EQ(shape_of(r), Shape({3}));  // kMin, -1, kMax - 1
  int64_t got[3] = {0, 0, 0};
  ASSERT_EQ(kf_tensor_copy_to_host(r.get(), got, sizeof got), KF_OK);
  EXPECT_EQ(got[0], kMin);
  EXPECT_EQ(got[1], -1);
  EXPECT_EQ(got[2], kMax - 1);
  ASSERT_EQ(kf_arange(kf_scalar_i64(kMax), kf_scalar_i64(kMin), kf_scalar_i64(kMin), KF_INT64,
                      cpu, r.put()),
            KF_OK)
      << kf_last_error_message();
  EXPECT_EQ(shape_of(r), Shape({2}));  // kMax, -1
}

// --------------------------------------------------------------------- from_blob --

TEST(AbiSizes, FromBlobStridesWhoseOffsetsOverflowAreRefused) {
  std::vector<float> buf(16, 1.0f);
  Tensor t;
  const kf_device_t cpu = kf_device_cpu();
  const Shape three = {3};
  // Element 2 is at 2^63 elements: past int64 (it wrapped to INT64_MIN, before the buffer).
  const int64_t past[1] = {k2p62};
  EXPECT_TRUE(fails_with(kf_tensor_from_blob(buf.data(), three.data(), past, 1, KF_INT8, cpu,
                                             nullptr, nullptr, t.put()),
                         IA, {{"kf_tensor_from_blob"}, {three}}));
  EXPECT_FALSE(t);
  // The element offset fits but its byte offset does not (3 * 2^61 elements of 4 bytes wrap to
  // -2^63 bytes: before the buffer).
  const Shape two = {2};
  const int64_t bytes_wrap[1] = {3 * k2p61};
  EXPECT_TRUE(fails_with(kf_tensor_from_blob(buf.data(), two.data(), bytes_wrap, 1, KF_FLOAT32,
                                             cpu, nullptr, nullptr, t.put()),
                         IA, {{"kf_tensor_from_blob"}, {two}}));
  // The sum over dims overflows although each dim alone fits.
  const Shape two_two = {2, 2};
  const int64_t sum_wraps[2] = {k2p61, k2p61 + k2p62};
  EXPECT_TRUE(fails_with(kf_tensor_from_blob(buf.data(), two_two.data(), sum_wraps, 2, KF_INT8,
                                             cpu, nullptr, nullptr, t.put()),
                         IA, {{"kf_tensor_from_blob"}, {two_two}}));
  // A contiguous blob whose byte count wraps (2^61 + 8 int64 elements: 64 bytes).
  const Shape wraps = {k2p61 + 8};
  EXPECT_TRUE(fails_with(kf_tensor_from_blob(buf.data(), wraps.data(), nullptr, 1, KF_INT64, cpu,
                                             nullptr, nullptr, t.put()),
                         IA, {{"kf_tensor_from_blob"}, {wraps}}));
  // Negative strides would reach before `data`.
  const int64_t negative[1] = {-1};
  EXPECT_TRUE(fails_with(kf_tensor_from_blob(buf.data() + 8, three.data(), negative, 1,
                                             KF_FLOAT32, cpu, nullptr, nullptr, t.put()),
                         IA, {{"kf_tensor_from_blob", "negative"}, {three}}));
  // The caller vouches for the elements the strides reach: [0, 6] here (3 rows 3 apart, 1
  // column). Views of it, and copies of those views, read exactly those.
  std::vector<float> seven = {0, 1, 2, 3, 4, 5, 6};
  const Shape shape = {3, 1};
  const int64_t strides[2] = {3, 1};
  Tensor e, c, s;
  ASSERT_EQ(kf_tensor_from_blob(seven.data(), shape.data(), strides, 2, KF_FLOAT32,
                                kf_device_cpu(), nullptr, nullptr, t.put()),
            KF_OK)
      << kf_last_error_message();
  EXPECT_EQ(values_of(t), std::vector<float>({0, 3, 6}));
  const Shape wide = {3, 4};
  ASSERT_EQ(kf_expand(t.get(), wide.data(), 2, e.put()), KF_OK) << kf_last_error_message();
  ASSERT_EQ(kf_contiguous(e.get(), c.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(values_of(c), std::vector<float>({0, 0, 0, 0, 3, 3, 3, 3, 6, 6, 6, 6}));
  ASSERT_EQ(kf_select(t.get(), 0, 2, s.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(values_of(s), std::vector<float>({6}));
}

TEST(AbiSizes, FromBlobMemoryThatWrapsTheAddressSpaceIsRefused) {
  Tensor t;
  const Shape four = {4};
  void* near_top = reinterpret_cast<void*>(std::numeric_limits<uintptr_t>::max() - 7);
  EXPECT_TRUE(fails_with(kf_tensor_from_blob(near_top, four.data(), nullptr, 1, KF_FLOAT32,
                                             kf_device_cpu(), nullptr, nullptr, t.put()),
                         IA, {{"kf_tensor_from_blob", "address"}, {four}}));
  EXPECT_FALSE(t);
}

}  // namespace
}  // namespace kfabi
