// CTS: views of negative stride, which a slice with a negative step makes (numpy's a[::-1]):
// their layout against a reference of Python's slice rules written here, views of them, what
// ops read from them and what ops write into them. On the cpu backend the elementwise,
// reduction and copy kernels take them as they are and mm gets copies and temporaries from the
// host; on a test backend (cts.OnTestBackends) every kernel gets copies and temporaries.
#include <algorithm>
#include <limits>
#include <optional>

#include "cts_util.hpp"

namespace cts {
namespace {

class NegativeStrides : public CtsTest {};     // backend x every dtype
class NegativeStridesAny : public CtsTest {};  // backend only

using Bound = std::optional<int64_t>;

/// The indices Python's slice(start, end, step) takes from a sequence of `size` (step != 0).
std::vector<int64_t> python_slice(int64_t size, Bound start, Bound end, int64_t step) {
  const bool up = step > 0;
  auto bound = [&](Bound b, int64_t missing) {
    if (!b) return missing;
    int64_t v = *b < 0 ? *b + size : *b;
    const int64_t lo = up ? 0 : -1, hi = up ? size : size - 1;
    return v < lo ? lo : (v > hi ? hi : v);
  };
  const int64_t s = bound(start, up ? 0 : size - 1), e = bound(end, up ? size : -1);
  std::vector<int64_t> out;
  for (int64_t i = s; up ? i < e : i > e; i += step) {
    out.push_back(i);
    if (up ? e - i <= step : e - i >= step) break;  // the next step passes e (or overflows)
  }
  return out;
}

Values pick(const Values& v, const std::vector<int64_t>& idx) {
  Values out;
  for (int64_t i : idx) out.push_back(v[static_cast<size_t>(i)]);
  return out;
}

int64_t element_offset(const Tensor& view, const Tensor& base) {
  return static_cast<int64_t>(view.data() - base.data()) /
         static_cast<int64_t>(kf_dtype_size(view.dtype()));
}

/// kf_slice with optional bounds.
Tensor slice(const Tensor& t, int64_t dim, Bound start, Bound end, int64_t step) {
  Tensor r;
  const int64_t s = start.value_or(0), e = end.value_or(0);
  const kf_status_t st = kf_slice(t.get(), dim, start ? &s : nullptr, end ? &e : nullptr, step,
                                  r.put());
  EXPECT_EQ(st, KF_OK) << kf_last_error_message();
  return r;
}

/// 1, ..., 12 as a [3, 4] matrix reversed along both dims: rows 12 11 10 9 / 8 7 6 5 / ...
Tensor reversed_matrix(const Tensor& base) {
  return slice(slice(base, 0, {}, {}, -1), 1, {}, {}, -1);
}

Values reversed(Values v) {
  std::reverse(v.begin(), v.end());
  return v;
}

TEST_P(NegativeStrides, SliceFollowsPythonsRules) {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const Values v = counting(10, dt());
  Tensor b = make(v, {10});
  const struct {
    Bound start, end;
    int64_t step;
  } cases[] = {{{}, {}, -1},   {7, 2, -2},     {-1, {}, -3},   {100, {}, -1},  {{}, -100, -1},
               {2, 5, -1},     {{}, {}, -20},  {-100, {}, -1}, {5, -100, -2},  {{}, {}, kMin},
               {9, 0, -4},     {-2, -5, -1},   {3, 3, -1},     {0, {}, -1},    {{}, 0, -1}};
  for (const auto& c : cases) {
    SCOPED_TRACE("start " + (c.start ? std::to_string(*c.start) : "None") + ", end " +
                 (c.end ? std::to_string(*c.end) : "None") + ", step " + std::to_string(c.step));
    const std::vector<int64_t> idx = python_slice(10, c.start, c.end, c.step);
    Tensor r = slice(b, 0, c.start, c.end, c.step);
    ASSERT_TRUE(r);
    EXPECT_EQ(r.shape(), (Shape{static_cast<int64_t>(idx.size())}));
    EXPECT_TRUE(matches(r, pick(v, idx), {static_cast<int64_t>(idx.size())}, dt()));
    if (idx.empty()) continue;
    EXPECT_EQ(element_offset(r, b), idx[0]) << "a view starts at its first element";
    if (idx.size() > 1) {
      EXPECT_EQ(r.strides(), (Shape{c.step}));
    }
  }
  Tensor r;
  const int64_t lo = 0, hi = 5;
  expect_invalid_argument(kf_slice(b.get(), 0, &lo, &hi, 0, r.put()), {"slice", "step", "zero"});
}

TEST_P(NegativeStrides, ViewsOfAReversedMatrix) {
  const Values v = counting(12, dt());
  Tensor b = make(v, {3, 4});
  Tensor rr = reversed_matrix(b);
  EXPECT_EQ(rr.strides(), (Shape{-4, -1}));
  EXPECT_EQ(element_offset(rr, b), 11);
  EXPECT_FALSE(rr.is_contiguous());
  EXPECT_TRUE(matches(rr, reversed(v), {3, 4}, dt()));

  Tensor flat, row, t, c;
  const int64_t all = -1;
  CTS_ASSERT_OK(kf_reshape(rr.get(), &all, 1, flat.put()));  // a view: strides merge
  EXPECT_EQ(flat.data(), rr.data());
  EXPECT_EQ(flat.strides(), (Shape{-1}));
  EXPECT_TRUE(matches(flat, reversed(v), {12}, dt()));
  CTS_ASSERT_OK(kf_select(rr.get(), 0, 1, row.put()));
  EXPECT_TRUE(matches(row, gather_strided(v, 7, {4}, {-1}), {4}, dt()));
  CTS_ASSERT_OK(kf_transpose(rr.get(), 0, 1, t.put()));
  EXPECT_EQ(t.strides(), (Shape{-1, -4}));
  EXPECT_TRUE(matches(t, gather_strided(v, 11, {4, 3}, {-1, -4}), {4, 3}, dt()));
  CTS_ASSERT_OK(kf_contiguous(rr.get(), c.put()));
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_TRUE(matches(c, reversed(v), {3, 4}, dt()));
  // Reversed twice is the base again, strides and all.
  Tensor again = reversed_matrix(rr);
  EXPECT_EQ(again.strides(), (Shape{4, 1}));
  EXPECT_EQ(again.data(), b.data());
}

// An empty slice whose start lies past the end of a dim of negative stride (rr[3:1] of the
// reversed matrix: "element 3" would be before element 0 of the storage) is a valid view, made
// alike by kf_slice and by a basic index, alone or with items after it.
TEST_P(NegativeStrides, EmptySlicesPastAReversedDim) {
  Tensor b = make(counting(12, dt()), {3, 4});
  Tensor rr = reversed_matrix(b);
  for (const int64_t step : {1, 2, 7}) {
    SCOPED_TRACE("step " + std::to_string(step));
    Tensor r = slice(rr, 0, 3, 1, step);
    ASSERT_TRUE(r);
    EXPECT_EQ(r.shape(), (Shape{0, 4}));
    Tensor e = slice(r, 1, 9, {}, step);
    ASSERT_TRUE(e);
    EXPECT_EQ(e.shape(), (Shape{0, 0}));
    kf_index_item_t key[2]{};
    for (kf_index_item_t& it : key) {
      it.kind = KF_INDEX_SLICE;
      it.has_start = true;
      it.start = 9;
      it.step = step;
    }
    key[0].has_stop = true;
    key[0].stop = 1;
    Tensor whole;
    CTS_ASSERT_OK(kf_tensor_index(rr.get(), key, 2, whole.put()));
    EXPECT_EQ(whole.shape(), (Shape{0, 0}));
    EXPECT_EQ(whole.data(), e.data());
  }
}

TEST_P(NegativeStrides, OpsReadThem) {
  CTS_REQUIRE(dt(), "add", "sum");
  if (dt() == KF_BOOL) GTEST_SKIP() << "add of bool is or";
  const Values v = counting(12, dt());
  Tensor b = make(v, {3, 4}), rr = reversed_matrix(b);
  Tensor s, col, rows;
  CTS_ASSERT_OK(kf_add(rr.get(), b.get(), one(), s.put()));  // every entry is 13
  EXPECT_TRUE(matches(s, Values(12, 13.0), {3, 4}, dt()));
  Tensor half = slice(b, 1, {}, {}, -2);  // columns 3, 1: [[4, 2], [8, 6], [12, 10]]
  const int64_t last = 1;
  CTS_ASSERT_OK(kf_sum(half.get(), &last, 1, false, KF_FLOAT64, rows.put()));
  EXPECT_TRUE(matches(rows, Values{6, 14, 22}, {3}, KF_FLOAT64));
  const int64_t first = 0;
  CTS_ASSERT_OK(kf_sum(rr.get(), &first, 1, false, KF_FLOAT64, col.put()));
  EXPECT_TRUE(matches(col, Values{24, 21, 18, 15}, {4}, KF_FLOAT64)) << "12+8+4, 11+7+3, ...";
}

TEST_P(NegativeStrides, OpsWriteThroughThem) {
  CTS_REQUIRE(dt(), "copy_", "fill_", "add");
  if (dt() == KF_BOOL) GTEST_SKIP() << "add of bool is or";
  Tensor b = make(Values(12, 0.0), {3, 4}), rr = reversed_matrix(b);
  CTS_ASSERT_OK(kf_copy_(rr.get(), make(counting(12, dt()), {3, 4}).get()));
  EXPECT_TRUE(matches(b, reversed(counting(12, dt())), {3, 4}, dt()));
  // In place: every entry of b gets its row-major position in rr added.
  CTS_ASSERT_OK(kf_add_(rr.get(), make(counting(12, dt()), {3, 4}).get(), one()));
  EXPECT_TRUE(matches(b, reversed(iota(12, 2, 2)), {3, 4}, dt()));
  // out= a reversed column: b[2 - i][0] = i + 1, i = 0..2.
  Tensor c3;
  CTS_ASSERT_OK(kf_select(slice(b, 0, {}, {}, -1).get(), 1, 0, c3.put()));
  EXPECT_EQ(c3.strides(), (Shape{-4}));
  CTS_ASSERT_OK(kf_add_out(make(Values{1, 2, 3}, {3}).get(), make(Values{0}, {}).get(), one(),
                           c3.get()));
  Values want = reversed(iota(12, 2, 2));
  want[8] = 1, want[4] = 2, want[0] = 3;
  EXPECT_TRUE(matches(b, want, {3, 4}, dt()));
  // fill_ of every other entry of the reversed view.
  Tensor every_other = slice(slice(b, 0, {}, {}, -1), 1, {}, {}, -2);  // columns 3, 1
  CTS_ASSERT_OK(kf_fill_(every_other.get(), kf_scalar_i64(0)));
  for (size_t i = 1; i < 12; i += 2) want[i] = 0;
  EXPECT_TRUE(matches(b, want, {3, 4}, dt()));
}

TEST_P(NegativeStrides, ReversingInPlaceReadsBeforeWriting) {
  CTS_REQUIRE(dt(), "copy_");
  const Values v = counting(10, dt());
  Tensor b = make(v, {10});
  Tensor r = slice(b, 0, {}, {}, -1);
  CTS_ASSERT_OK(kf_copy_(r.get(), b.get()));  // r[i] = b[i]: b reversed, read from a copy
  EXPECT_TRUE(matches(b, reversed(v), {10}, dt()));
}

TEST_P(NegativeStridesAny, MatmulReadsAndWritesThroughTheHost) {
  CTS_REQUIRE(KF_FLOAT32, "mm");
  // a = [[1, 2], [3, 4]] read as its rows reversed: [[3, 4], [1, 2]]; times [[1, 0], [1, 1]].
  Tensor a = make(Values{1, 2, 3, 4}, {2, 2}, KF_FLOAT32);
  Tensor m = make(Values{1, 0, 1, 1}, {2, 2}, KF_FLOAT32), r;
  Tensor ra = slice(a, 0, {}, {}, -1);
  CTS_ASSERT_OK(kf_mm(ra.get(), m.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{7, 4, 3, 2}, {2, 2}, KF_FLOAT32));
  // Into an out whose columns run backwards: out's storage holds each row reversed.
  Tensor store = make(Values(4, 0.0), {2, 2}, KF_FLOAT32);
  Tensor out = slice(store, 1, {}, {}, -1);
  CTS_ASSERT_OK(kf_mm_out(ra.get(), m.get(), out.get()));
  EXPECT_TRUE(matches(out, Values{7, 4, 3, 2}, {2, 2}, KF_FLOAT32));
  EXPECT_TRUE(matches(store, Values{4, 7, 2, 3}, {2, 2}, KF_FLOAT32));
}

TEST_P(NegativeStridesAny, LongReversedLinesOnSeveralThreads) {
  CTS_REQUIRE(KF_FLOAT32, "add", "copy_");
  const int64_t n = 1 << 20;
  const Values v = pseudo_random(static_cast<size_t>(n), -100, 100, 5, true);
  Tensor b = make(v, {n}, KF_FLOAT32), s;
  Tensor r = slice(b, 0, {}, {}, -1);
  CTS_ASSERT_OK(kf_add(r.get(), b.get(), one(), s.put()));
  Values want(static_cast<size_t>(n));
  for (size_t i = 0; i < want.size(); ++i) want[i] = v[want.size() - 1 - i] + v[i];
  EXPECT_TRUE(matches(s, want, {n}, KF_FLOAT32));
}

CTS_INSTANTIATE(NegativeStrides, params_all());
CTS_INSTANTIATE(NegativeStridesAny, params_any());

}  // namespace
}  // namespace cts
