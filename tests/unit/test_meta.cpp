// Meta-function pieces: broadcasting, result_type with 0-dim tensors, dim wrapping, reduced
// dims.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "meta/meta_util.hpp"
#include "unit_util.hpp"

namespace {

using kfunit::mentions;
using kfunit::set_meta;
using kfunit::Shape;
using kfunit::thrown_by;

// ------------------------------------------------------------------------------ broadcasting

Shape broadcast(const Shape& a, const Shape& b) {
  kf::OutputMeta out;
  out.ndim = static_cast<int32_t>(a.size());
  for (size_t i = 0; i < a.size(); ++i) out.shape[i] = a[i];
  kf::TensorImpl t;
  set_meta(t, b);
  kf::meta::broadcast_into("add", out, t);
  return kfunit::shape_of(out.shape, out.ndim);
}

TEST(Broadcast, PyTorchShapes) {
  EXPECT_EQ(broadcast({2, 3}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast({3, 1}, {1, 4}), (Shape{3, 4}));
  EXPECT_EQ(broadcast({5, 1, 4}, {3, 1}), (Shape{5, 3, 4}));
  EXPECT_EQ(broadcast({3, 1}, {5, 1, 4}), (Shape{5, 3, 4}));
  EXPECT_EQ(broadcast({}, {2, 3}), (Shape{2, 3}));   // a 0-dim tensor broadcasts to anything
  EXPECT_EQ(broadcast({2, 3}, {}), (Shape{2, 3}));
  EXPECT_EQ(broadcast({}, {}), (Shape{}));
  EXPECT_EQ(broadcast({1}, {0}), (Shape{0}));        // 1 stretches to 0
  EXPECT_EQ(broadcast({0, 1}, {1, 5}), (Shape{0, 5}));
  EXPECT_EQ(broadcast({1, 1, 1}, {7}), (Shape{1, 1, 7}));
}

TEST(Broadcast, MismatchNamesTheOpShapesSizesAndDim) {
  const kf::Error e = thrown_by([] { broadcast({2, 3}, {4}); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"add", "[2, 3]", "[4]", "3", "4", "dim -1", "broadcast"}));

  const kf::Error e2 = thrown_by([] { broadcast({2, 3, 4}, {5, 1, 4}); });
  EXPECT_EQ(e2.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e2.what(), {"[2, 3, 4]", "[5, 1, 4]", "size 2 vs 5", "dim -3"}));

  // 0 does not stretch: only 1 does.
  const kf::Error e3 = thrown_by([] { broadcast({0}, {3}); });
  EXPECT_EQ(e3.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e3.what(), {"[0]", "[3]"}));
}

// ------------------------------------------------------------------------------- result_type

struct T {
  Shape shape;
  kf_dtype_t dtype;
};

kf_dtype_t result_type(const std::vector<T>& ts) {
  std::vector<kf::TensorImpl> impls(ts.size());
  std::vector<const kf::TensorImpl*> ptrs;
  for (size_t i = 0; i < ts.size(); ++i) {
    set_meta(impls[i], ts[i].shape, {}, ts[i].dtype);
    ptrs.push_back(&impls[i]);
  }
  return kf::meta::result_type("test", ptrs.data(), static_cast<int32_t>(ptrs.size()));
}

TEST(ResultType, SameCategoryZeroDimDoesNotPromote) {
  // torch.result_type(tensor([..], dtype=a), tensor(x, dtype=b)) when a and b share a category.
  EXPECT_EQ(result_type({{{3}, KF_FLOAT32}, {{}, KF_FLOAT64}}), KF_FLOAT32);
  EXPECT_EQ(result_type({{{}, KF_FLOAT64}, {{3}, KF_FLOAT32}}), KF_FLOAT32);  // order-free
  EXPECT_EQ(result_type({{{3}, KF_INT32}, {{}, KF_INT64}}), KF_INT32);
  EXPECT_EQ(result_type({{{3}, KF_UINT8}, {{}, KF_INT8}}), KF_UINT8);
  EXPECT_EQ(result_type({{{3}, KF_INT8}, {{}, KF_UINT8}}), KF_INT8);
  EXPECT_EQ(result_type({{{3}, KF_FLOAT16}, {{}, KF_FLOAT64}}), KF_FLOAT16);
  EXPECT_EQ(result_type({{{2}, KF_BFLOAT16}, {{}, KF_FLOAT16}}), KF_BFLOAT16);
  EXPECT_EQ(result_type({{{3}, KF_INT8}, {{}, KF_BOOL}}), KF_INT8);
  EXPECT_EQ(result_type({{{3}, KF_BOOL}, {{}, KF_BOOL}}), KF_BOOL);
}

TEST(ResultType, HigherCategoryZeroDimPromotes) {
  EXPECT_EQ(result_type({{{3}, KF_INT32}, {{}, KF_FLOAT64}}), KF_FLOAT64);
  EXPECT_EQ(result_type({{{3}, KF_UINT8}, {{}, KF_FLOAT16}}), KF_FLOAT16);
  EXPECT_EQ(result_type({{{3}, KF_BOOL}, {{}, KF_INT64}}), KF_INT64);
  EXPECT_EQ(result_type({{{3}, KF_BOOL}, {{}, KF_UINT8}}), KF_UINT8);
  // The zero-dim tensors promote among themselves first: f16 with i64 is f16.
  EXPECT_EQ(result_type({{{3}, KF_BOOL}, {{}, KF_FLOAT16}, {{}, KF_INT64}}), KF_FLOAT16);
  EXPECT_EQ(result_type({{{3}, KF_INT32}, {{}, KF_FLOAT32}, {{}, KF_FLOAT64}}), KF_FLOAT64);
}

TEST(ResultType, DimensionedTensorsPromoteAmongThemselves) {
  EXPECT_EQ(result_type({{{3}, KF_INT32}, {{3}, KF_FLOAT16}}), KF_FLOAT16);
  EXPECT_EQ(result_type({{{3}, KF_UINT8}, {{1}, KF_INT8}}), KF_INT16);
  EXPECT_EQ(result_type({{{2, 2}, KF_FLOAT16}, {{2}, KF_BFLOAT16}}), KF_FLOAT32);
  // An empty tensor of shape [0] still has a dim: it outranks 0-dim tensors.
  EXPECT_EQ(result_type({{{0}, KF_FLOAT32}, {{}, KF_FLOAT64}}), KF_FLOAT32);
  EXPECT_EQ(result_type({{{0}, KF_INT32}, {{}, KF_FLOAT64}}), KF_FLOAT64);
}

TEST(ResultType, OnlyZeroDimTensorsPromoteNormally) {
  EXPECT_EQ(result_type({{{}, KF_INT32}, {{}, KF_FLOAT16}}), KF_FLOAT16);
  EXPECT_EQ(result_type({{{}, KF_UINT8}, {{}, KF_INT8}}), KF_INT16);
  EXPECT_EQ(result_type({{{}, KF_FLOAT64}}), KF_FLOAT64);
  // Complex ranks above float: a 0-dim complex beside a float tensor takes the complex dtype of
  // the wider parts (PyTorch).
  EXPECT_EQ(result_type({{{3}, KF_FLOAT32}, {{}, KF_COMPLEX64}}), KF_COMPLEX64);
  EXPECT_EQ(result_type({{{3}, KF_FLOAT64}, {{}, KF_COMPLEX64}}), KF_COMPLEX128);
  EXPECT_EQ(result_type({{{3}, KF_COMPLEX64}, {{}, KF_FLOAT64}}), KF_COMPLEX64);
}

TEST(ResultType, MissingOptionalTensorsAreSkipped) {
  kf::TensorImpl a, b;
  set_meta(a, {3}, {}, KF_INT32);
  set_meta(b, {}, {}, KF_FLOAT64);
  const kf::TensorImpl* ts[] = {nullptr, &a, nullptr, &b};
  EXPECT_EQ(kf::meta::result_type("test", ts, 4), KF_FLOAT64);
  const kf::TensorImpl* none[] = {nullptr, nullptr};
  EXPECT_EQ(kf::meta::result_type("test", none, 2), KF_DTYPE_UNDEFINED);
}

TEST(ResultType, Uint64WithASignedIntegerIsAnErrorThatSaysToCast) {
  EXPECT_EQ(result_type({{{3}, KF_UINT64}, {{3}, KF_UINT8}}), KF_UINT64);
  EXPECT_EQ(result_type({{{3}, KF_UINT32}, {{3}, KF_INT32}}), KF_INT64);
  for (const kf_dtype_t s : {KF_INT8, KF_INT16, KF_INT32, KF_INT64}) {
    try {
      result_type({{{3}, KF_UINT64}, {{2, 3}, s}});
      ADD_FAILURE() << "uint64 with " << kf::dtype_name(s) << " must be refused";
    } catch (const kf::Error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
      EXPECT_NE(msg.find("test: no dtype holds both uint64 and "), std::string::npos) << msg;
      EXPECT_NE(msg.find("cast"), std::string::npos) << msg;
    }
  }
}

// ---------------------------------------------------------------------------------- wrap_dim

TEST(WrapDim, AcceptsMinusNdimToNdimMinusOne) {
  EXPECT_EQ(kf::meta::wrap_dim("sum", 0, 3), 0);
  EXPECT_EQ(kf::meta::wrap_dim("sum", 2, 3), 2);
  EXPECT_EQ(kf::meta::wrap_dim("sum", -1, 3), 2);
  EXPECT_EQ(kf::meta::wrap_dim("sum", -3, 3), 0);
  // A 0-dim tensor accepts -1 and 0 (like a 1-dim one), as PyTorch's wrap_scalar does.
  EXPECT_EQ(kf::meta::wrap_dim("sum", 0, 0), 0);
  EXPECT_EQ(kf::meta::wrap_dim("sum", -1, 0), 0);
}

TEST(WrapDim, OutOfRangeNamesOpDimAndValidRange) {
  const struct {
    int64_t dim;
    int32_t ndim;
    const char* range;
  } cases[] = {{3, 3, "-3..2"},  {-4, 3, "-3..2"}, {1, 0, "-1..0"}, {-2, 0, "-1..0"},
               {1, 1, "-1..0"},  {std::numeric_limits<int64_t>::min(), 2, "-2..1"},
               {std::numeric_limits<int64_t>::max(), 2, "-2..1"}};
  for (const auto& c : cases) {
    const kf::Error e = thrown_by([&] { kf::meta::wrap_dim("amax", c.dim, c.ndim); });
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << c.dim << " of " << c.ndim;
    EXPECT_TRUE(mentions(e.what(), {"amax", "dim " + std::to_string(c.dim), c.range}));
  }
}

TEST(ReducedDims, MarksDimsAndRejectsRepeats) {
  bool reduce[KF_MAX_NDIM];
  const int64_t dims[] = {0, -1};
  const kf::IntListView list{dims, 2};
  kf::meta::reduced_dims("sum", &list, 3, reduce);
  EXPECT_TRUE(reduce[0]);
  EXPECT_FALSE(reduce[1]);
  EXPECT_TRUE(reduce[2]);

  kf::meta::reduced_dims("sum", nullptr, 2, reduce);  // none = every dim
  EXPECT_TRUE(reduce[0] && reduce[1]);
  EXPECT_FALSE(reduce[2]);

  const int64_t twice[] = {1, -1};  // the same dim of a 2-dim tensor
  const kf::IntListView rep{twice, 2};
  const kf::Error e = thrown_by([&] { kf::meta::reduced_dims("sum", &rep, 2, reduce); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {"sum", "more than once"}));
}

TEST(ReduceShape, KeepdimOrDrop) {
  kf::TensorImpl t;
  set_meta(t, {2, 3, 4});
  bool reduce[KF_MAX_NDIM] = {false, true, false};
  kf::OutputMeta out;
  kf::meta::reduce_shape(t, reduce, false, out);
  EXPECT_EQ(kfunit::shape_of(out.shape, out.ndim), (Shape{2, 4}));
  kf::meta::reduce_shape(t, reduce, true, out);
  EXPECT_EQ(kfunit::shape_of(out.shape, out.ndim), (Shape{2, 1, 4}));
}

}  // namespace
