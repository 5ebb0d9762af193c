// The checked arithmetic of sizes (core/checked_math.hpp) and the layout validator
// (tensor/layout.hpp, Note [Layout rules]) at and just past the limits of int64, and the view
// arithmetic that uses them (infer_size, view_strides).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>

#include "core/checked_math.hpp"
#include "tensor/layout.hpp"
#include "unit_util.hpp"
#include "views/view_util.hpp"

namespace {

using kfunit::mentions;
using kfunit::Shape;
using kfunit::thrown_by;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t k2p40 = int64_t{1} << 40, k2p61 = int64_t{1} << 61;
constexpr int64_t k2p62 = int64_t{1} << 62;

int32_t nd(const Shape& s) { return static_cast<int32_t>(s.size()); }

// ------------------------------------------------------------------------ checked_math --

TEST(CheckedMath, ProductsSumsAndDifferencesAtTheLimits) {
  int64_t r = 0;
  EXPECT_TRUE(kf::checked_mul(kMax, int64_t{1}, &r));
  EXPECT_EQ(r, kMax);
  EXPECT_FALSE(kf::checked_mul(k2p62, int64_t{2}, &r));
  EXPECT_TRUE(kf::checked_mul(-k2p62, int64_t{2}, &r));
  EXPECT_EQ(r, kMin);
  EXPECT_FALSE(kf::checked_mul(kMin, int64_t{-1}, &r));
  EXPECT_TRUE(kf::checked_add(kMax - 1, int64_t{1}, &r));
  EXPECT_FALSE(kf::checked_add(kMax, int64_t{1}, &r));
  EXPECT_FALSE(kf::checked_sub(kMin, int64_t{1}, &r));
  EXPECT_FALSE(kf::checked_sub(k2p62, -k2p62, &r));
  uintptr_t u = 0;
  EXPECT_FALSE(kf::checked_add(std::numeric_limits<uintptr_t>::max(), uintptr_t{1}, &u));
}

TEST(CheckedMath, Bytes) {
  int64_t r = 0;
  EXPECT_TRUE(kf::checked_bytes(k2p61 - 1, 4, &r));
  EXPECT_EQ(r, (k2p61 - 1) * 4);
  EXPECT_FALSE(kf::checked_bytes(k2p61, 4, &r));      // 2^63
  EXPECT_FALSE(kf::checked_bytes(k2p61 + 8, 8, &r));  // 2^64 + 64: 64 once wrapped
  EXPECT_FALSE(kf::checked_bytes(-1, 1, &r));
  EXPECT_TRUE(kf::checked_bytes(kMax, 1, &r));
}

// ------------------------------------------------------------------------- check_shape --

TEST(CheckShape, NumelAndBytesMustFit) {
  const Shape max_bool = {kMax};
  EXPECT_EQ(kf::check_shape(max_bool.data(), 1, 1, "t"), kMax);
  kf::Error e = thrown_by([&] { kf::check_shape(max_bool.data(), 1, 2, "empty"); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"empty", "[9223372036854775807]", "bytes"}));
  const Shape wraps = {k2p61 + 8};  // 64 bytes once wrapped
  e = thrown_by([&] { kf::check_shape(wraps.data(), 1, 8, "t"); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"[2305843009213693960]", "8 bytes"}));
  const Shape many = {k2p62, 2};
  e = thrown_by([&] { kf::check_shape(many.data(), 2, 1, "t"); });
  EXPECT_TRUE(mentions(e.what(), {"[4611686018427387904, 2]", "too many elements"}));
}

TEST(CheckShape, ASizeZeroHidesNoOverflowingStride) {
  const Shape fine = {0, k2p40};
  EXPECT_EQ(kf::check_shape(fine.data(), 2, 4, "t"), 0);
  const Shape hidden = {0, k2p40, k2p40};
  const kf::Error e = thrown_by([&] { kf::check_shape(hidden.data(), 3, 4, "reshape"); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"reshape", "[0, 1099511627776, 1099511627776]", "no element"}));
  const Shape last = {k2p40, k2p40, 0};
  EXPECT_EQ(thrown_by([&] { kf::check_shape(last.data(), 3, 1, "t"); }).status(),
            KF_INVALID_ARGUMENT);
}

TEST(CheckShape, FailShapeSaysWhichRule) {
  const Shape neg = {2, -1};
  kf::Error e = thrown_by([&] { kf::fail_shape(neg.data(), 2, 4, "new tensor"); });
  EXPECT_TRUE(mentions(e.what(), {"new tensor", "-1", "dim 1", "[2, -1]"}));
  const Shape bytes = {k2p61};
  e = thrown_by([&] { kf::fail_shape(bytes.data(), 1, 4, "new tensor"); });
  EXPECT_TRUE(mentions(e.what(), {"[2305843009213693952]", "bytes"}));
  e = thrown_by([&] { kf::fail_shape(bytes.data(), KF_MAX_NDIM + 1, 4, "new tensor"); });
  EXPECT_TRUE(mentions(e.what(), {"ndim"}));
}

// ----------------------------------------------------------------------- check_strides --

TEST(CheckStrides, ReachOfBothSigns) {
  const Shape shape = {3, 4}, strides = {-4, 1};
  const kf::Reach r = kf::check_strides(shape.data(), strides.data(), 2, 4, "t");
  EXPECT_EQ(r.numel, 12);
  EXPECT_EQ(r.lo, -8);
  EXPECT_EQ(r.hi, 3);
  const Shape empty = {0, 4}, any = {kMax / 8, 1};
  const kf::Reach z = kf::check_strides(empty.data(), any.data(), 2, 8, "t");
  EXPECT_EQ(z.numel, 0);
  EXPECT_EQ(z.hi, 0);
}

TEST(CheckStrides, OffsetsThatOverflowAreRefused) {
  const Shape three = {3};
  for (const int64_t stride : {k2p62, kMin, kMax}) {
    const Shape st = {stride};
    const kf::Error e =
        thrown_by([&] { kf::check_strides(three.data(), st.data(), 1, 1, "kf_tensor_from_blob"); });
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << stride;
    EXPECT_TRUE(mentions(e.what(), {"kf_tensor_from_blob", "[3]", std::to_string(stride)}));
  }
  const Shape two = {2}, bytes = {3 * k2p61};  // fits in elements, not in 4-byte steps
  EXPECT_TRUE(mentions(thrown_by([&] { kf::check_strides(two.data(), bytes.data(), 1, 4, "t"); })
                           .what(),
                       {"[2]", "bytes"}));
  const Shape sq = {2, 2}, sum = {k2p61, k2p61 + k2p62};  // each fits, their sum does not
  EXPECT_TRUE(mentions(thrown_by([&] { kf::check_strides(sq.data(), sum.data(), 2, 1, "t"); })
                           .what(),
                       {"[2, 2]", "apart"}));
  const Shape wide = {k2p62, -k2p62};  // hi = 2^62, lo = -2^62: the span is 2^63 + 1
  EXPECT_TRUE(mentions(thrown_by([&] { kf::check_strides(sq.data(), wide.data(), 2, 1, "t"); })
                           .what(),
                       {"[2, 2]", "span"}));
}

// -------------------------------------------------------------------- check_in_storage --

void in_storage(const Shape& shape, const Shape& strides, int64_t offset, size_t bytes) {
  const kf::Reach r = kf::check_strides(shape.data(), strides.data(), nd(shape), 4, "t");
  kf::check_in_storage(shape.data(), strides.data(), nd(shape), offset, r, 4, bytes, "slice");
}

TEST(CheckInStorage, TheReachMustLieInside) {
  in_storage({3, 4}, {4, 1}, 0, 48);  // exactly the storage
  in_storage({2}, {-1}, 1, 8);        // elements 1 and 0
  kf::Error e = thrown_by([&] { in_storage({3, 4}, {4, 1}, 1, 48); });  // one past the end
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"slice", "[3, 4]", "[4, 1]", "offset 1", "12 elements"}));
  e = thrown_by([&] { in_storage({2}, {-1}, 0, 8); });  // element -1
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  e = thrown_by([&] { in_storage({2}, {1}, kMax, 8); });  // offset + hi overflows
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  e = thrown_by([&] { in_storage({2}, {1}, -1, 8); });
  EXPECT_TRUE(mentions(e.what(), {"offset -1"}));
  in_storage({0}, {1}, 100, 8);  // an empty view reaches nothing
  e = thrown_by([&] { in_storage({0}, {1}, kMax, 8); });  // but its byte offset must fit
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
}

// ---------------------------------------------------------------------- view arithmetic --

TEST(ViewArithmetic, InferSizeRefusesProductsThatOverflow) {
  int64_t out[KF_MAX_NDIM];
  const Shape infer = {k2p40, k2p40, -1};
  kf::Error e = thrown_by([&] { kf::views::infer_size("view", infer.data(), 3, 0, out); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"view", "[1099511627776, 1099511627776, -1]"}));
  const Shape zero_first = {0, k2p40, k2p40};
  e = thrown_by([&] { kf::views::infer_size("reshape", zero_first.data(), 3, 0, out); });
  EXPECT_TRUE(mentions(e.what(), {"reshape", "[0, 1099511627776, 1099511627776]"}));
}

TEST(ViewArithmetic, ViewStridesThatWouldOverflowAreNoView) {
  // A size-1 dim may carry any stride; merging the others must not multiply it out of range.
  kf::TensorImpl t;
  kfunit::set_meta(t, {4, 1}, {1, kMax / 2});
  const Shape as = {2, 2, 1};
  int64_t strides[KF_MAX_NDIM];
  EXPECT_TRUE(kf::views::view_strides(t, as.data(), 3, strides));
  EXPECT_EQ(Shape(strides, strides + 2), (Shape{2, 1}));
  kfunit::set_meta(t, {1, 8}, {1, kMax / 2});  // not a valid layout: view_strides still copes
  const Shape flat = {2, 4};
  EXPECT_FALSE(kf::views::view_strides(t, flat.data(), 2, strides));
}

}  // namespace
