// View arithmetic computed in the core: view_strides (PyTorch's computeStride), infer_size,
// is_contiguous, contiguous_strides, checked_numel.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "unit_util.hpp"
#include "views/view_util.hpp"

namespace {

using kfunit::mentions;
using kfunit::set_meta;
using kfunit::Shape;
using kfunit::thrown_by;

/// The strides viewing (shape, strides) as `as`, or nullopt when it cannot be a view.
std::optional<Shape> view(const Shape& shape, const Shape& strides, const Shape& as) {
  kf::TensorImpl t;
  set_meta(t, shape, strides);
  int64_t out[KF_MAX_NDIM];
  for (int64_t& s : out) s = -777;
  const int32_t n = static_cast<int32_t>(as.size());
  if (!kf::views::view_strides(t, as.data(), n, out)) return std::nullopt;
  return kfunit::shape_of(out, n);
}

// ------------------------------------------------------------------------------ view_strides

TEST(ViewStrides, ContiguousTensorTakesAnyShape) {
  EXPECT_EQ(view({2, 3, 4}, {}, {24}), (Shape{1}));
  EXPECT_EQ(view({2, 3, 4}, {}, {6, 4}), (Shape{4, 1}));
  EXPECT_EQ(view({2, 3, 4}, {}, {4, 3, 2}), (Shape{6, 2, 1}));
  EXPECT_EQ(view({24}, {}, {2, 12}), (Shape{12, 1}));
}

TEST(ViewStrides, TransposedTensorCannotBeFlattened) {
  // x = arange(6).view(2, 3).t(): shape [3, 2], strides [1, 3]. x.view(6) and x.view(2, 3) are
  // errors in PyTorch (reshape copies); x.view(3, 2) keeps the strides.
  EXPECT_EQ(view({3, 2}, {1, 3}, {6}), std::nullopt);
  EXPECT_EQ(view({3, 2}, {1, 3}, {2, 3}), std::nullopt);
  EXPECT_EQ(view({3, 2}, {1, 3}, {3, 2}), (Shape{1, 3}));
  // Splitting a dim of a transposed tensor is fine: [3, 2] -> [3, 2, 1] / [3, 1, 2].
  const auto split = view({3, 2}, {1, 3}, {3, 1, 2});
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ((*split)[0], 1);
  EXPECT_EQ((*split)[2], 3);
  // A permuted 3-dim tensor: [4, 2, 3] contiguous permuted to [2, 3, 4] (strides [3, 1, 6]):
  // dims 0 and 1 merge, dim 2 does not.
  EXPECT_EQ(view({2, 3, 4}, {3, 1, 6}, {6, 4}), (Shape{1, 6}));
  EXPECT_EQ(view({2, 3, 4}, {3, 1, 6}, {2, 12}), std::nullopt);
  EXPECT_EQ(view({2, 3, 4}, {3, 1, 6}, {24}), std::nullopt);
}

TEST(ViewStrides, SlicedTensorMergesItsContiguousDims) {
  // base = arange(120).view(6, 4, 5); x = base[::2]: shape [3, 4, 5], strides [40, 5, 1].
  // Dims 1 and 2 are contiguous with each other, dim 0 is not.
  EXPECT_EQ(view({3, 4, 5}, {40, 5, 1}, {3, 20}), (Shape{40, 1}));
  EXPECT_EQ(view({3, 4, 5}, {40, 5, 1}, {3, 2, 10}), (Shape{40, 10, 1}));
  EXPECT_EQ(view({3, 4, 5}, {40, 5, 1}, {3, 10, 2}), (Shape{40, 2, 1}));
  EXPECT_EQ(view({3, 4, 5}, {40, 5, 1}, {60}), std::nullopt);
  EXPECT_EQ(view({3, 4, 5}, {40, 5, 1}, {6, 10}), std::nullopt);
  // base = arange(24).view(4, 6); x = base[:, :3]: shape [4, 3], strides [6, 1].
  EXPECT_EQ(view({4, 3}, {6, 1}, {2, 2, 3}), (Shape{12, 6, 1}));
  EXPECT_EQ(view({4, 3}, {6, 1}, {12}), std::nullopt);
}

TEST(ViewStrides, SizeOneDimsIgnoreTheirStrides) {
  // A size-1 dim with any stride does not break contiguity.
  EXPECT_EQ(view({2, 1, 3}, {3, 99, 1}, {6}), (Shape{1}));
  EXPECT_EQ(view({2, 1, 3}, {3, 99, 1}, {3, 2}), (Shape{2, 1}));
  EXPECT_EQ(view({1, 4}, {1000, 1}, {2, 2}), (Shape{2, 1}));
  // Adding size-1 dims anywhere.
  const auto r = view({2, 3}, {}, {1, 2, 1, 3, 1});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ((*r)[1], 3);
  EXPECT_EQ((*r)[3], 1);
  // Removing them.
  EXPECT_EQ(view({1, 2, 1, 3}, {7, 3, 5, 1}, {2, 3}), (Shape{3, 1}));
}

TEST(ViewStrides, ExpandedTensorKeepsZeroStride) {
  // x = ones(1, 4).expand(3, 4): strides [0, 1].
  EXPECT_EQ(view({3, 4}, {0, 1}, {12}), std::nullopt);
  EXPECT_EQ(view({3, 4}, {0, 1}, {3, 2, 2}), (Shape{0, 2, 1}));
}

TEST(ViewStrides, EmptyAndZeroDimTensorsGetContiguousStrides) {
  EXPECT_EQ(view({0, 3}, {1, 7}, {3, 0}), (Shape{1, 1}));
  EXPECT_EQ(view({0, 3}, {1, 7}, {0}), (Shape{1}));
  EXPECT_EQ(view({}, {}, {1, 1}), (Shape{1, 1}));
  EXPECT_EQ(view({1}, {5}, {}), (Shape{}));
}

// -------------------------------------------------------------------------------- infer_size

Shape infer(const Shape& shape, int64_t numel) {
  int64_t out[KF_MAX_NDIM];
  kf::views::infer_size("reshape", shape.data(), static_cast<int32_t>(shape.size()), numel, out);
  return kfunit::shape_of(out, static_cast<int32_t>(shape.size()));
}

TEST(InferSize, ResolvesOneMinusOne) {
  EXPECT_EQ(infer({-1, 4}, 12), (Shape{3, 4}));
  EXPECT_EQ(infer({2, -1, 3}, 12), (Shape{2, 2, 3}));
  EXPECT_EQ(infer({-1}, 0), (Shape{0}));
  EXPECT_EQ(infer({-1, 5}, 0), (Shape{0, 5}));
  EXPECT_EQ(infer({3, 4}, 12), (Shape{3, 4}));
  EXPECT_EQ(infer({}, 1), (Shape{}));
  EXPECT_EQ(infer({1, -1, 1}, 7), (Shape{1, 7, 1}));
}

TEST(InferSize, ErrorsNameTheOpTheShapeAndTheProblem) {
  kf::Error e = thrown_by([] { infer({2, -1, -1}, 12); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"reshape", "only one dim can be -1", "[2, -1, -1]"}));

  e = thrown_by([] { infer({5, -1}, 12); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"reshape", "[5, -1]", "12 elements"}));

  e = thrown_by([] { infer({3, 5}, 12); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"[3, 5]", "12"}));

  e = thrown_by([] { infer({2, -2}, 4); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"invalid size -2", "dim 1"}));

  // [0, -1] of 0 elements is ambiguous (PyTorch refuses it too).
  e = thrown_by([] { infer({0, -1}, 0); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"[0, -1]", "0 elements"}));
}

// ----------------------------------------------------------------------------- is_contiguous

bool contiguous(const Shape& shape, const Shape& strides) {
  kf::TensorImpl t;
  set_meta(t, shape, strides);
  return kf::is_contiguous(t);
}

TEST(IsContiguous, RowMajorOnly) {
  EXPECT_TRUE(contiguous({2, 3}, {3, 1}));
  EXPECT_TRUE(contiguous({2, 3, 4}, {12, 4, 1}));
  EXPECT_FALSE(contiguous({3, 2}, {1, 3}));      // transposed
  EXPECT_FALSE(contiguous({4, 3}, {6, 1}));      // sliced along the last dim
  EXPECT_FALSE(contiguous({3, 4}, {0, 1}));      // expanded
  EXPECT_FALSE(contiguous({3}, {2}));            // stepped
  EXPECT_TRUE(contiguous({}, {}));               // 0-dim
}

TEST(IsContiguous, SizeOneDimsAnyStride) {
  EXPECT_TRUE(contiguous({1}, {5}));
  EXPECT_TRUE(contiguous({2, 1, 3}, {3, 77, 1}));
  EXPECT_TRUE(contiguous({4, 1}, {1, 1}));
  EXPECT_TRUE(contiguous({1, 1, 1}, {0, 0, 0}));
  EXPECT_FALSE(contiguous({2, 1, 3}, {1, 77, 2}));
}

TEST(IsContiguous, EmptyTensorsAreContiguousWhateverTheirStrides) {
  // PyTorch: a tensor with no elements is contiguous (compute_contiguous returns true for
  // numel == 0 before looking at any stride), wherever the 0 sits.
  EXPECT_TRUE(contiguous({3, 0}, {5, 1}));
  EXPECT_TRUE(contiguous({0}, {9}));
  EXPECT_TRUE(contiguous({2, 0}, {1, 2}));
  EXPECT_TRUE(contiguous({0, 3}, {999, 5}))
      << "x = empty(0, 6)[:, ::2] has shape [0, 3], strides [6, 2] and no elements";
  EXPECT_TRUE(contiguous({0, 3}, {6, 2}));
}

// ---------------------------------------------------------------- contiguous strides, numel

TEST(ContiguousStrides, SizeZeroAndOneDimsCountAsOne) {
  int64_t s[4];
  const int64_t a[] = {2, 3, 4};
  kf::contiguous_strides(a, 3, s);
  EXPECT_EQ(Shape(s, s + 3), (Shape{12, 4, 1}));
  const int64_t b[] = {2, 0, 4};  // PyTorch: strides (4, 4, 1) for empty(2, 0, 4)
  kf::contiguous_strides(b, 3, s);
  EXPECT_EQ(Shape(s, s + 3), (Shape{4, 4, 1}));
}

TEST(CheckedNumel, ValidatesShapes) {
  const int64_t ok[] = {2, 0, 5};
  EXPECT_EQ(kf::checked_numel(ok, 3, "t"), 0);
  const int64_t neg[] = {2, -3};
  kf::Error e = thrown_by([&] { kf::checked_numel(neg, 2, "kf_tensor_empty"); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"kf_tensor_empty", "-3", "dim 1", "[2, -3]"}));
  const int64_t huge[] = {std::numeric_limits<int64_t>::max() / 2, 3};
  e = thrown_by([&] { kf::checked_numel(huge, 2, "t"); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"too many elements"}));
  e = thrown_by([&] { kf::checked_numel(ok, KF_MAX_NDIM + 1, "t"); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"ndim " + std::to_string(KF_MAX_NDIM + 1)}));
  e = thrown_by([&] { kf::checked_numel(nullptr, 2, "t"); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"NULL"}));
}

}  // namespace
