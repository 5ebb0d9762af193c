// Basic indexing in one call (C ABI 2.1): kf_tensor_index makes the view that kf_select,
// kf_slice and kf_unsqueeze make item by item, for random keys; kf_tensor_item_at and
// kf_tensor_fill_at read and write the element those views name; bad keys are clean errors.
#include "abi_util.hpp"

namespace kfabi {
namespace {

constexpr auto IA = KF_INVALID_ARGUMENT;
constexpr auto OOR = KF_OUT_OF_RANGE;

/// A float64 tensor of `shape` holding 0, 1, 2, ... in row-major order.
Tensor iota(const Shape& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i);
  Tensor t;
  EXPECT_EQ(kf_tensor_from_data(v.data(), shape.data(), static_cast<int32_t>(shape.size()),
                                KF_FLOAT64, kf_device_cpu(), t.put()), KF_OK)
      << kf_last_error_message();
  return t;
}

kf_index_item_t int_item(int64_t i) {
  kf_index_item_t it{};
  it.kind = KF_INDEX_INT;
  it.index = i;
  return it;
}

kf_index_item_t slice_item(const int64_t* start, const int64_t* stop, int64_t step) {
  kf_index_item_t it{};
  it.kind = KF_INDEX_SLICE;
  it.has_start = start != nullptr;
  it.has_stop = stop != nullptr;
  it.start = start != nullptr ? *start : 0;
  it.stop = stop != nullptr ? *stop : 0;
  it.step = step;
  return it;
}

kf_index_item_t kind_item(int32_t kind) {
  kf_index_item_t it{};
  it.kind = kind;
  return it;
}

struct Geometry {
  Shape shape, strides;
  void* data = nullptr;
  std::vector<double> values;
  bool operator==(const Geometry& o) const {
    return shape == o.shape && strides == o.strides && data == o.data && values == o.values;
  }
};

Geometry geometry(kf_tensor_t t) {
  Geometry g;
  int32_t nd = 0;
  const int64_t *shape = nullptr, *strides = nullptr;
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_ndim(t, &nd), KF_OK);
  EXPECT_EQ(kf_tensor_shape(t, &shape), KF_OK);
  EXPECT_EQ(kf_tensor_strides(t, &strides), KF_OK);
  EXPECT_EQ(kf_tensor_data_ptr(t, &g.data), KF_OK);
  EXPECT_EQ(kf_tensor_numel(t, &n), KF_OK);
  g.shape.assign(shape, shape + nd);
  g.strides.assign(strides, strides + nd);
  g.values.resize(static_cast<size_t>(n));
  EXPECT_EQ(kf_tensor_copy_to_host(t, g.values.data(), g.values.size() * sizeof(double)), KF_OK);
  return g;
}

/// The key as kf_select, kf_slice and kf_unsqueeze calls, item by item.
Tensor by_ops(kf_tensor_t t, const std::vector<kf_index_item_t>& key, int32_t ndim) {
  int32_t used = 0;
  for (const auto& it : key) used += it.kind == KF_INDEX_INT || it.kind == KF_INDEX_SLICE;
  Tensor cur;
  EXPECT_EQ(kf_tensor_retain(t), KF_OK);
  *cur.put() = t;
  int64_t d = 0;
  for (const auto& it : key) {
    Tensor next;
    if (it.kind == KF_INDEX_ELLIPSIS) {
      d += ndim - used;
      continue;
    }
    kf_status_t s = KF_OK;
    if (it.kind == KF_INDEX_INT) {
      s = kf_select(cur.get(), d, it.index, next.put());
    } else if (it.kind == KF_INDEX_NEW_AXIS) {
      s = kf_unsqueeze(cur.get(), d++, next.put());
    } else {
      s = kf_slice(cur.get(), d++, it.has_start ? &it.start : nullptr,
                   it.has_stop ? &it.stop : nullptr, it.step, next.put());
    }
    EXPECT_EQ(s, KF_OK) << kf_last_error_message();
    cur = std::move(next);
  }
  return cur;
}

/// A random basic key for `ndim` dims of size `size` (ints in range, slices of any bounds and
/// nonzero step, new axes, at most one ellipsis).
std::vector<kf_index_item_t> random_key(std::mt19937& rng, int32_t ndim, int64_t size) {
  std::uniform_int_distribution<int> pick(0, 5), bound(-7, 7), step(-3, 3);
  std::vector<kf_index_item_t> key;
  int32_t used = 0;
  bool ellipsis = false;
  const int n = std::uniform_int_distribution<int>(0, ndim + 2)(rng);
  for (int i = 0; i < n; ++i) {
    const int k = pick(rng);
    if (k == 0 && !ellipsis) {
      ellipsis = true;
      key.push_back(kind_item(KF_INDEX_ELLIPSIS));
    } else if (k == 1) {
      key.push_back(kind_item(KF_INDEX_NEW_AXIS));
    } else if (used < ndim && k == 2) {
      ++used;
      key.push_back(int_item(std::uniform_int_distribution<int64_t>(-size, size - 1)(rng)));
    } else if (used < ndim) {
      ++used;
      const int64_t a = bound(rng), b = bound(rng);
      int64_t s = step(rng);
      if (s == 0) s = 1;
      key.push_back(slice_item(pick(rng) < 4 ? &a : nullptr, pick(rng) < 4 ? &b : nullptr, s));
    }
  }
  return key;
}

TEST(AbiBasicIndex, RandomKeysGiveTheViewsOfTheOpsItemByItem) {
  std::mt19937 rng(20261206);
  for (int32_t ndim = 0; ndim <= 3; ++ndim) {
    const Tensor t = iota(Shape(static_cast<size_t>(ndim), 4));
    for (int round = 0; round < 150; ++round) {
      const std::vector<kf_index_item_t> key = random_key(rng, ndim, 4);
      Tensor one;
      ASSERT_EQ(kf_tensor_index(t.get(), key.data(), static_cast<int32_t>(key.size()),
                                one.put()), KF_OK) << kf_last_error_message();
      const Tensor ops = by_ops(t.get(), key, ndim);
      EXPECT_TRUE(geometry(one.get()) == geometry(ops.get())) << "ndim " << ndim << " round "
                                                             << round;
    }
  }
}

TEST(AbiBasicIndex, AnEmptyKeyIsANewViewOfTheWholeTensor) {
  const Tensor t = iota({2, 3});
  Tensor v;
  ASSERT_EQ(kf_tensor_index(t.get(), nullptr, 0, v.put()), KF_OK) << kf_last_error_message();
  EXPECT_NE(v.get(), t.get());
  EXPECT_TRUE(geometry(v.get()) == geometry(t.get()));
}

TEST(AbiBasicIndex, BadKeysAreCleanErrorsInKeyOrder) {
  const Tensor t = iota({2, 3});
  Tensor r;
  const auto index = [&](std::vector<kf_index_item_t> key) {
    return kf_tensor_index(t.get(), key.data(), static_cast<int32_t>(key.size()), r.put());
  };
  const kf_index_item_t dots = kind_item(KF_INDEX_ELLIPSIS), all = slice_item(nullptr, nullptr, 1);
  EXPECT_TRUE(fails_with(index({dots, int_item(0), dots}), OOR, {{"single ellipsis"}, {}}));
  EXPECT_TRUE(fails_with(index({int_item(0), all, all}), OOR,
                         {{"too many indices", "2 dims", "3 given"}, {}}));
  EXPECT_TRUE(fails_with(index({int_item(0), int_item(3)}), OOR,
                         {{"index 3 is out of range for dim 1 of size 3"}, {}}))
      << "the dim of the tensor is named, as kf_tensor_item_at names it";
  EXPECT_TRUE(fails_with(index({int_item(-3)}), OOR, {{"index -3", "size 2"}, {}}));
  EXPECT_TRUE(fails_with(index({slice_item(nullptr, nullptr, 0), int_item(9)}), IA,
                         {{"slice step cannot be zero"}, {}}))
      << "in key order: the slice comes first";
  EXPECT_TRUE(fails_with(index({int_item(9), slice_item(nullptr, nullptr, 0)}), OOR,
                         {{"index 9"}, {}}));
  EXPECT_TRUE(fails_with(index({kind_item(7)}), IA, {{"kind 7", "kf_index_kind_t"}, {}}));
  EXPECT_TRUE(fails_with(index(std::vector<kf_index_item_t>(15, kind_item(KF_INDEX_NEW_AXIS))),
                         IA, {{"more than 16 dims"}, {}}));
  EXPECT_FALSE(r);
  kf_index_item_t one = int_item(0);
  EXPECT_TRUE(fails_with(kf_tensor_index(t.get(), nullptr, 1, r.put()), IA, {{"1 items"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_index(t.get(), &one, -1, r.put()), IA, {{"-1 items"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_index(t.get(), &one, 1, nullptr), IA, {{"out"}, {}}));
}

TEST(AbiBasicIndex, ItemAtReadsEveryElementOfStridedViews) {
  const Tensor t = iota({3, 4});
  Tensor tt, rev;
  ASSERT_EQ(kf_transpose(t.get(), 0, 1, tt.put()), KF_OK);
  ASSERT_EQ(kf_slice(t.get(), 1, nullptr, nullptr, -1, rev.put()), KF_OK);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      kf_scalar_t s{};
      const int64_t ji[2] = {j, i}, neg[2] = {i - 3, j - 4};
      ASSERT_EQ(kf_tensor_item_at(tt.get(), ji, 2, &s), KF_OK) << kf_last_error_message();
      EXPECT_EQ(s.tag, KF_SCALAR_FLOAT64);
      EXPECT_EQ(s.v.f64, static_cast<double>(i * 4 + j));
      ASSERT_EQ(kf_tensor_item_at(t.get(), neg, 2, &s), KF_OK);
      EXPECT_EQ(s.v.f64, static_cast<double>(i * 4 + j)) << "negative indices: from the end";
      const int64_t ij[2] = {i, j};
      ASSERT_EQ(kf_tensor_item_at(rev.get(), ij, 2, &s), KF_OK);
      EXPECT_EQ(s.v.f64, static_cast<double>(i * 4 + 3 - j));
    }
  }
  kf_scalar_t s{};
  ASSERT_EQ(kf_tensor_item_at(iota({}).get(), nullptr, 0, &s), KF_OK) << "a 0-dim tensor";
  EXPECT_EQ(s.v.f64, 0.0);
}

TEST(AbiBasicIndex, ItemAtReadsEachDtypeExactly) {
  const int64_t big = (int64_t{1} << 62) + 1, shape[1] = {2};
  const int64_t ints[2] = {7, big};
  Tensor i64;
  ASSERT_EQ(kf_tensor_from_data(ints, shape, 1, KF_INT64, kf_device_cpu(), i64.put()), KF_OK);
  const int64_t at[1] = {-1};
  kf_scalar_t s{};
  ASSERT_EQ(kf_tensor_item_at(i64.get(), at, 1, &s), KF_OK);
  EXPECT_EQ(s.tag, KF_SCALAR_INT64);
  EXPECT_EQ(s.v.i64, big) << "no trip through a float";
  const Tensor b = full({2}, 1, KF_BOOL), h = full({2}, 0.5, KF_FLOAT16);
  ASSERT_EQ(kf_tensor_item_at(b.get(), at, 1, &s), KF_OK);
  EXPECT_EQ(s.tag, KF_SCALAR_BOOL);
  EXPECT_TRUE(s.v.b);
  ASSERT_EQ(kf_tensor_item_at(h.get(), at, 1, &s), KF_OK);
  EXPECT_EQ(s.v.f64, 0.5);
}

TEST(AbiBasicIndex, ItemAtRefusesAnIndexOfTheWrongLengthOrOutOfRange) {
  const Tensor t = iota({2, 3});
  kf_scalar_t s = kf_scalar_f64(-1);
  const int64_t one[1] = {0}, three[3] = {0, 0, 0}, bad[2] = {1, -4}, worse[2] = {5, 9};
  EXPECT_TRUE(fails_with(kf_tensor_item_at(t.get(), one, 1, &s), OOR,
                         {{"1 indices", "2 dims"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_item_at(t.get(), three, 3, &s), OOR, {{"3 indices"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_item_at(t.get(), bad, 2, &s), OOR,
                         {{"index -4 is out of range for dim 1 of size 3"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_item_at(t.get(), worse, 2, &s), OOR,
                         {{"index 5", "dim 0"}, {}}))
      << "the first bad index is named";
  EXPECT_TRUE(fails_with(kf_tensor_item_at(t.get(), nullptr, 2, &s), IA, {{"NULL"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_item_at(t.get(), bad, 2, nullptr), IA, {{"out"}, {}}));
  EXPECT_EQ(s.v.f64, -1.0) << "a failing call leaves out alone";
}

TEST(AbiBasicIndex, FillAtWritesOneElementThroughAView) {
  const Tensor t = iota({3, 4});
  Tensor tt;
  ASSERT_EQ(kf_transpose(t.get(), 0, 1, tt.put()), KF_OK);
  const int64_t at[2] = {-1, 1};  // tt[3, 1] is t[1, 3]
  ASSERT_EQ(kf_tensor_fill_at(tt.get(), at, 2, kf_scalar_i64(-5)), KF_OK)
      << kf_last_error_message();
  const Geometry g = geometry(t.get());
  for (size_t i = 0; i < g.values.size(); ++i) {
    EXPECT_EQ(g.values[i], i == 7 ? -5.0 : static_cast<double>(i)) << i;
  }
}

TEST(AbiBasicIndex, FillAtConvertsTheScalarAsFillDoes) {
  const Tensor i8 = full({2}, 0, KF_INT8), i32 = full({2}, 0, KF_INT32);
  const int64_t at[1] = {1};
  EXPECT_TRUE(fails_with(kf_tensor_fill_at(i8.get(), at, 1, kf_scalar_i64(300)), IA,
                         {{"300", "int8"}, {}}));
  ASSERT_EQ(kf_tensor_fill_at(i32.get(), at, 1, kf_scalar_f64(-2.75)), KF_OK);
  kf_scalar_t s{};
  ASSERT_EQ(kf_tensor_item_at(i32.get(), at, 1, &s), KF_OK);
  EXPECT_EQ(s.v.i64, -2) << "a float into an integer truncates toward zero";
  const int64_t far[1] = {2};
  EXPECT_TRUE(fails_with(kf_tensor_fill_at(i32.get(), far, 1, kf_scalar_i64(1)), OOR,
                         {{"index 2 is out of range for dim 0 of size 2"}, {}}));
  ASSERT_EQ(kf_tensor_item_at(i8.get(), at, 1, &s), KF_OK);
  EXPECT_EQ(s.v.i64, 0) << "a refused value writes nothing";
}

}  // namespace
}  // namespace kfabi
