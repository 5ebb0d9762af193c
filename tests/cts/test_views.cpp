// CTS: view ops (reshape, view, transpose, permute, slice, select, expand, squeeze, unsqueeze,
// flatten): shapes, strides, storage sharing and values.
#include "cts_util.hpp"

namespace cts {
namespace {

class Views : public CtsTest {
 protected:
  /** Element offset of `view`'s first element from `base`'s. */
  int64_t offset(const Tensor& view, const Tensor& base) const {
    return static_cast<int64_t>(view.data() - base.data()) /
           static_cast<int64_t>(kf_dtype_size(dt()));
  }
  /** Checks a view's shape, strides, offset into base, and values. */
  ::testing::AssertionResult is_view(const Tensor& v, const Tensor& base, const Values& storage,
                                     const Shape& shape, const Shape& strides, int64_t off) {
    if (!v) return ::testing::AssertionFailure() << "no tensor";
    if (v.shape() != shape)
      return ::testing::AssertionFailure() << "shape " << shape_str(v.shape()) << ", expected "
                                           << shape_str(shape);
    if (v.strides() != strides)
      return ::testing::AssertionFailure() << "strides " << shape_str(v.strides())
                                           << ", expected " << shape_str(strides);
    if (offset(v, base) != off)
      return ::testing::AssertionFailure() << "data_ptr at element offset " << offset(v, base)
                                           << " of the base, expected " << off;
    return matches(v, gather_strided(storage, off, shape, strides), shape, dt());
  }
};

/** -5..18 as the dtype stores it (magnitudes for uint8; bool: nonzero is true). */
Values store_for(kf_dtype_t d) { return representable(d, iota(24, -5)); }

TEST_P(Views, ReshapeWithMinusOne) {
  const Values kStore = store_for(dt());
  Tensor b = make(kStore, {2, 3, 4}), r1, r2, r3;
  const Shape s1{4, -1}, s2{-1}, s3{2, -1, 2};
  CTS_ASSERT_OK(kf_reshape(b.get(), s1.data(), 2, r1.put()));
  EXPECT_TRUE(is_view(r1, b, kStore, {4, 6}, {6, 1}, 0));
  CTS_ASSERT_OK(kf_reshape(b.get(), s2.data(), 1, r2.put()));
  EXPECT_TRUE(is_view(r2, b, kStore, {24}, {1}, 0));
  CTS_ASSERT_OK(kf_reshape(b.get(), s3.data(), 3, r3.put()));
  EXPECT_TRUE(is_view(r3, b, kStore, {2, 6, 2}, {12, 2, 1}, 0));
}

TEST_P(Views, ViewFailsOnNonViewableLayout) {
  CTS_REQUIRE(dt(), "copy_");  // reshape of a transposed view copies
  Tensor b = make(iota(12), {3, 4}), t, v, r;
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 1, t.put()));  // [4,3], strides [1,4]
  const Shape flat{12};
  const kf_status_t s = kf_view(t.get(), flat.data(), 1, v.put());
  EXPECT_EQ(s, KF_INVALID_ARGUMENT) << status_text(s);
  EXPECT_FALSE(v) << "a failing call must not return a tensor";
  // reshape copies instead.
  CTS_ASSERT_OK(kf_reshape(t.get(), flat.data(), 1, r.put()));
  EXPECT_TRUE(matches(r, gather_strided(iota(12), 0, {4, 3}, {1, 4}), flat, dt()));
  EXPECT_TRUE(r.is_contiguous());
}

TEST_P(Views, ViewSplitsAStridedDim) {
  Tensor b = make(iota(12), {3, 4}), t, v, c;
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 1, t.put()));  // [4,3], strides [1,4]
  const Shape s{2, 2, 3};
  CTS_ASSERT_OK(kf_view(t.get(), s.data(), 3, v.put()));
  EXPECT_TRUE(is_view(v, b, iota(12), s, {2, 1, 4}, 0));
  const Shape s2{3, 4};
  CTS_ASSERT_OK(kf_view(b.get(), s2.data(), 2, c.put()));
  EXPECT_TRUE(is_view(c, b, iota(12), s2, {4, 1}, 0));
}

TEST_P(Views, Transpose) {
  const Values kStore = store_for(dt());
  Tensor b = make(kStore, {2, 3, 4}), t, tn;
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 2, t.put()));
  EXPECT_TRUE(is_view(t, b, kStore, {4, 3, 2}, {1, 4, 12}, 0));
  CTS_ASSERT_OK(kf_transpose(b.get(), -1, -3, tn.put()));
  EXPECT_TRUE(is_view(tn, b, kStore, {4, 3, 2}, {1, 4, 12}, 0));
  EXPECT_FALSE(t.is_contiguous());
}

TEST_P(Views, Permute) {
  const Values kStore = store_for(dt());
  Tensor b = make(kStore, {2, 3, 4}), p, pn;
  const int64_t perm[3] = {2, 0, 1}, permn[3] = {-1, 0, -2};
  CTS_ASSERT_OK(kf_permute(b.get(), perm, 3, p.put()));
  EXPECT_TRUE(is_view(p, b, kStore, {4, 2, 3}, {1, 12, 4}, 0));
  CTS_ASSERT_OK(kf_permute(b.get(), permn, 3, pn.put()));
  EXPECT_TRUE(is_view(pn, b, kStore, {4, 2, 3}, {1, 12, 4}, 0));
}

TEST_P(Views, Slice1D) {
  const Values st = iota(10);
  Tensor b = make(st, {10}), a, c, d, e, f;
  const int64_t m3 = -3, two = 2, hundred = 100, m100 = -100, five = 5, three = 3;
  CTS_ASSERT_OK(kf_slice(b.get(), 0, &m3, nullptr, 1, a.put()));
  EXPECT_TRUE(is_view(a, b, st, {3}, {1}, 7));
  CTS_ASSERT_OK(kf_slice(b.get(), 0, &two, &hundred, 3, c.put()));  // end clamped
  EXPECT_TRUE(is_view(c, b, st, {3}, {3}, 2));
  CTS_ASSERT_OK(kf_slice(b.get(), 0, &m100, &two, 1, d.put()));  // start clamped
  EXPECT_TRUE(is_view(d, b, st, {2}, {1}, 0));
  CTS_ASSERT_OK(kf_slice(b.get(), -1, &five, &three, 1, e.put()));  // empty
  EXPECT_EQ(e.shape(), (Shape{0}));
  CTS_ASSERT_OK(kf_slice(b.get(), 0, nullptr, nullptr, 4, f.put()));
  EXPECT_TRUE(is_view(f, b, st, {3}, {4}, 0));
}

TEST_P(Views, Slice2D) {
  const Values st = iota(12);
  Tensor b = make(st, {3, 4}), a, c;
  const int64_t one_ = 1, three = 3, m2 = -2;
  CTS_ASSERT_OK(kf_slice(b.get(), 1, &one_, &three, 1, a.put()));
  EXPECT_TRUE(is_view(a, b, st, {3, 2}, {4, 1}, 1));
  CTS_ASSERT_OK(kf_slice(b.get(), -2, &m2, nullptr, 1, c.put()));  // last two rows
  EXPECT_TRUE(is_view(c, b, st, {2, 4}, {4, 1}, 4));
}

TEST_P(Views, SelectNegativeIndex) {
  const Values st = iota(12);
  Tensor b = make(st, {3, 4}), r, c, s;
  CTS_ASSERT_OK(kf_select(b.get(), 0, -1, r.put()));
  EXPECT_TRUE(is_view(r, b, st, {4}, {1}, 8));
  CTS_ASSERT_OK(kf_select(b.get(), 1, -2, c.put()));
  EXPECT_TRUE(is_view(c, b, st, {3}, {4}, 2));
  CTS_ASSERT_OK(kf_select(c.get(), 0, 2, s.put()));  // a view of a view: 0-dim
  EXPECT_TRUE(is_view(s, b, st, {}, {}, 10));
}

TEST_P(Views, Expand) {
  const Values st{1, 2, 3};
  Tensor col = make(st, {3, 1}), row = make(st, {3}), a, c, d;
  const Shape s1{3, 4}, s2{-1, 4}, s3{2, 3};
  CTS_ASSERT_OK(kf_expand(col.get(), s1.data(), 2, a.put()));
  EXPECT_TRUE(is_view(a, col, st, {3, 4}, {1, 0}, 0));
  CTS_ASSERT_OK(kf_expand(col.get(), s2.data(), 2, c.put()));
  EXPECT_TRUE(is_view(c, col, st, {3, 4}, {1, 0}, 0));
  CTS_ASSERT_OK(kf_expand(row.get(), s3.data(), 2, d.put()));
  EXPECT_TRUE(is_view(d, row, st, {2, 3}, {0, 1}, 0));
}

TEST_P(Views, Squeeze) {
  const Values st = iota(6);
  Tensor b = make(st, {1, 3, 1, 2}), all, d0, d1, dn, d02;
  CTS_ASSERT_OK(kf_squeeze(b.get(), nullptr, 0, all.put()));
  EXPECT_TRUE(is_view(all, b, st, {3, 2}, {2, 1}, 0));
  const int64_t zero = 0, one_ = 1, m2 = -2, both[2] = {0, 2};
  CTS_ASSERT_OK(kf_squeeze(b.get(), &zero, 1, d0.put()));
  EXPECT_TRUE(is_view(d0, b, st, {3, 1, 2}, {2, 2, 1}, 0));
  CTS_ASSERT_OK(kf_squeeze(b.get(), &one_, 1, d1.put()));  // size 3: unchanged
  EXPECT_TRUE(is_view(d1, b, st, {1, 3, 1, 2}, {6, 2, 2, 1}, 0));
  CTS_ASSERT_OK(kf_squeeze(b.get(), &m2, 1, dn.put()));
  EXPECT_TRUE(is_view(dn, b, st, {1, 3, 2}, {6, 2, 1}, 0));
  CTS_ASSERT_OK(kf_squeeze(b.get(), both, 2, d02.put()));
  EXPECT_TRUE(is_view(d02, b, st, {3, 2}, {2, 1}, 0));
}

TEST_P(Views, Unsqueeze) {
  const Values st = iota(6);
  Tensor b = make(st, {3, 2}), a, c, d, e;
  CTS_ASSERT_OK(kf_unsqueeze(b.get(), -1, a.put()));
  EXPECT_EQ(a.shape(), (Shape{3, 2, 1}));
  EXPECT_TRUE(matches(a, st, {3, 2, 1}, dt()));
  EXPECT_EQ(offset(a, b), 0);
  EXPECT_EQ(a.strides()[0], 2);
  EXPECT_EQ(a.strides()[1], 1);
  CTS_ASSERT_OK(kf_unsqueeze(b.get(), 0, c.put()));
  EXPECT_EQ(c.shape(), (Shape{1, 3, 2}));
  CTS_ASSERT_OK(kf_unsqueeze(b.get(), 1, d.put()));
  EXPECT_TRUE(is_view(d, b, st, {3, 1, 2}, {2, 2, 1}, 0));
  CTS_ASSERT_OK(kf_unsqueeze(b.get(), -3, e.put()));
  EXPECT_EQ(e.shape(), (Shape{1, 3, 2}));
}

TEST_P(Views, Flatten) {
  CTS_REQUIRE(dt(), "copy_");
  const Values kStore = store_for(dt());
  Tensor b = make(kStore, {2, 3, 4}), a, c, t, f;
  CTS_ASSERT_OK(kf_flatten(b.get(), 1, 2, a.put()));
  EXPECT_TRUE(is_view(a, b, kStore, {2, 12}, {12, 1}, 0));
  CTS_ASSERT_OK(kf_flatten(b.get(), 0, -1, c.put()));
  EXPECT_TRUE(is_view(c, b, kStore, {24}, {1}, 0));
  // Flattening a transposed tensor needs a copy.
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 2, t.put()));
  CTS_ASSERT_OK(kf_flatten(t.get(), 0, -1, f.put()));
  EXPECT_TRUE(matches(f, gather_strided(kStore, 0, {4, 3, 2}, {1, 4, 12}), {24}, dt()));
}

TEST_P(Views, ZeroDimViews) {
  Tensor s = make(Values{7}, {}), f, u, r;
  CTS_ASSERT_OK(kf_flatten(s.get(), 0, -1, f.put()));
  EXPECT_TRUE(matches(f, Values{7}, {1}, dt()));
  CTS_ASSERT_OK(kf_unsqueeze(s.get(), 0, u.put()));
  EXPECT_TRUE(matches(u, Values{7}, {1}, dt()));
  const Shape s11{1, 1};
  CTS_ASSERT_OK(kf_reshape(s.get(), s11.data(), 2, r.put()));
  EXPECT_TRUE(matches(r, Values{7}, s11, dt()));
  Tensor back;
  CTS_ASSERT_OK(kf_reshape(r.get(), nullptr, 0, back.put()));
  EXPECT_TRUE(matches(back, Values{7}, {}, dt()));
}

TEST_P(Views, EmptyTensorViews) {
  Tensor e = make(Values{}, {0, 3}), t, r, s;
  CTS_ASSERT_OK(kf_transpose(e.get(), 0, 1, t.put()));
  EXPECT_EQ(t.shape(), (Shape{3, 0}));
  const Shape rs{3, 0, 1};
  CTS_ASSERT_OK(kf_reshape(e.get(), rs.data(), 3, r.put()));
  EXPECT_EQ(r.shape(), rs);
  const int64_t one_ = 1;
  CTS_ASSERT_OK(kf_slice(e.get(), 1, &one_, nullptr, 1, s.put()));
  EXPECT_EQ(s.shape(), (Shape{0, 2}));
}

TEST_P(Views, WritingThroughViewsChangesTheBase) {
  CTS_REQUIRE(dt(), "zeros", "copy_", "add");
  const Shape bs{3, 4};
  Tensor base, row, col, sl;
  CTS_ASSERT_OK(kf_zeros(bs.data(), 2, dt(), dev(), base.put()));
  CTS_ASSERT_OK(kf_select(base.get(), 0, 1, row.put()));
  CTS_ASSERT_OK(kf_copy_(row.get(), make(Values{1, 2, 3, 4}, {4}).get()));
  Values want{0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0};
  EXPECT_TRUE(matches(base, want, bs, dt()));
  // Every other column, through a transposed slice, in place.
  const int64_t zero = 0;
  CTS_ASSERT_OK(kf_slice(base.get(), 1, &zero, nullptr, 2, sl.put()));  // [3,2]
  CTS_ASSERT_OK(kf_transpose(sl.get(), 0, 1, col.put()));                // [2,3]
  CTS_ASSERT_OK(kf_add_(col.get(), make(Values{10}, {}).get(), one()));
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; c += 2) want[static_cast<size_t>(r * 4 + c)] += 10;
  EXPECT_TRUE(matches(base, want, bs, dt()));
  // And through a reshape view.
  Tensor flat;
  const Shape fs{-1};
  CTS_ASSERT_OK(kf_reshape(base.get(), fs.data(), 1, flat.put()));
  EXPECT_EQ(flat.data(), base.data());
  Tensor last;
  CTS_ASSERT_OK(kf_select(flat.get(), 0, -1, last.put()));
  CTS_ASSERT_OK(kf_copy_(last.get(), make(Values{5}, {}).get()));
  want.back() = 5;
  EXPECT_TRUE(matches(base, want, bs, dt()));
}

TEST_P(Views, ViewOutlivesBaseHandle) {
  const Values st = iota(6, 1);
  Tensor b = make(st, {2, 3}), v;
  CTS_ASSERT_OK(kf_select(b.get(), 0, 1, v.put()));
  b.reset();  // the storage must stay alive through the view
  EXPECT_TRUE(matches(v, Values{4, 5, 6}, {3}, dt()));
}

CTS_INSTANTIATE(Views, params_all());

}  // namespace
}  // namespace cts
