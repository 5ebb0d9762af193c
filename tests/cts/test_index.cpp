// CTS: index_select, gather, index_copy_, index_add_, scatter_add_ and masked_select: values
// against a reference computed here, every dtype, int32 and int64 indices, 0-dim and empty indices,
// negative dims, strided self and index, repeated positions (the later entry is written), broadcast
// masks, out= and the refused arguments (an out-of-range index names its value and the valid
// range).
#include "cts_util.hpp"

namespace cts {
namespace {

class Index : public CtsTest {};     // backend x every dtype
class IndexAny : public CtsTest {};  // backend only

/// index_select of a row-major [rows, cols] matrix along dim 0 or 1.
Values ref_select2(const Values& m, int64_t rows, int64_t cols, int dim,
                   const std::vector<int64_t>& idx) {
  Values out;
  if (dim == 0) {
    for (int64_t i : idx) out.insert(out.end(), m.begin() + i * cols, m.begin() + (i + 1) * cols);
  } else {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t i : idx) out.push_back(m[static_cast<size_t>(r * cols + i)]);
  }
  return out;
}

Values as_values(const std::vector<int64_t>& v) { return Values(v.begin(), v.end()); }

TEST_P(Index, IndexSelectBothDims) {
  const Values m = counting(12, dt());
  Tensor self = make(m, {3, 4});
  const std::vector<int64_t> i0{2, 0, 2}, i1{3, 1};
  Tensor idx0 = make(as_values(i0), {3}, KF_INT64), idx1 = make(as_values(i1), {2}, KF_INT32);
  Tensor r0, r1, rn;
  CTS_ASSERT_OK(kf_index_select(self.get(), 0, idx0.get(), r0.put()));
  EXPECT_TRUE(matches(r0, ref_select2(m, 3, 4, 0, i0), {3, 4}, dt()));
  CTS_ASSERT_OK(kf_index_select(self.get(), 1, idx1.get(), r1.put()));
  EXPECT_TRUE(matches(r1, ref_select2(m, 3, 4, 1, i1), {3, 2}, dt()));
  CTS_ASSERT_OK(kf_index_select(self.get(), -1, idx1.get(), rn.put()));
  EXPECT_TRUE(matches(rn, ref_select2(m, 3, 4, 1, i1), {3, 2}, dt()));
}

TEST_P(Index, IndexSelectZeroDimAndEmpty) {
  const Values m = counting(6, dt());
  Tensor self = make(m, {2, 3}), scalar_idx = make(Values{1}, {}, KF_INT64);
  Tensor empty_idx = make(Values{}, {0}, KF_INT64), r, e, s;
  CTS_ASSERT_OK(kf_index_select(self.get(), 1, scalar_idx.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{m[1], m[4]}, {2, 1}, dt()));
  CTS_ASSERT_OK(kf_index_select(self.get(), 0, empty_idx.get(), e.put()));
  EXPECT_EQ(e.shape(), (Shape{0, 3}));
  Tensor zero_dim = make(Values{m[2]}, {}), zero = make(Values{0}, {1}, KF_INT32);
  CTS_ASSERT_OK(kf_index_select(zero_dim.get(), 0, zero.get(), s.put()));
  EXPECT_TRUE(matches(s, Values{m[2]}, {}, dt()));
}

TEST_P(Index, IndexSelectStridedAndOut) {
  const Values m = counting(12, dt());
  Tensor base = make(m, {3, 4}), t;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));  // [4, 3]
  const Values mt = gather_strided(m, 0, {4, 3}, {1, 4});
  Tensor idx_storage = make(Values{3, 9, 0, 9, 2}, {5}, KF_INT64), idx;
  CTS_ASSERT_OK(kf_slice(idx_storage.get(), 0, nullptr, nullptr, 2, idx.put()));  // {3, 0, 2}
  Tensor r;
  CTS_ASSERT_OK(kf_index_select(t.get(), 0, idx.get(), r.put()));
  EXPECT_TRUE(matches(r, ref_select2(mt, 4, 3, 0, {3, 0, 2}), {3, 3}, dt()));
  Tensor r1;  // the same index along dim 1 (size 3): its 3 is out of range there
  EXPECT_EQ(kf_index_select(t.get(), 1, idx.get(), r1.put()), KF_INVALID_ARGUMENT);
  Tensor out_storage = make(Values(9, 0.0), {3, 3}), out;
  CTS_ASSERT_OK(kf_transpose(out_storage.get(), 0, 1, out.put()));
  CTS_ASSERT_OK(kf_index_select_out(t.get(), 0, idx.get(), out.get()));
  EXPECT_TRUE(matches(out, ref_select2(mt, 4, 3, 0, {3, 0, 2}), {3, 3}, dt()));
}

TEST_P(Index, GatherBothDims) {
  const Values m = counting(12, dt());
  Tensor self = make(m, {3, 4});
  // dim 1: out[i][j] = self[i][idx[i][j]]
  const Values i1{0, 3, 1, 1, 2, 0};
  Tensor idx1 = make(i1, {3, 2}, KF_INT64), r1, rn;
  CTS_ASSERT_OK(kf_gather(self.get(), 1, idx1.get(), r1.put()));
  Values w1;
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 2; ++j) w1.push_back(m[static_cast<size_t>(r * 4 + i1[r * 2 + j])]);
  EXPECT_TRUE(matches(r1, w1, {3, 2}, dt()));
  CTS_ASSERT_OK(kf_gather(self.get(), -1, idx1.get(), rn.put()));
  EXPECT_TRUE(matches(rn, w1, {3, 2}, dt()));
  // dim 0 with an index smaller than self in dim 1: out[i][j] = self[idx[i][j]][j]
  const Values i0{2, 0, 1, 1, 1, 0, 2, 2};
  Tensor idx0 = make(i0, {4, 2}, KF_INT64), r0;
  CTS_ASSERT_OK(kf_gather(self.get(), 0, idx0.get(), r0.put()));
  Values w0;
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < 2; ++j) w0.push_back(m[static_cast<size_t>(i0[r * 2 + j] * 4 + j)]);
  EXPECT_TRUE(matches(r0, w0, {4, 2}, dt()));
}

TEST_P(Index, GatherStridedZeroDimEmptyAndOut) {
  const Values m = counting(12, dt());
  Tensor base = make(m, {3, 4}), t;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));  // [4, 3]: t[i][j] = m[j * 4 + i]
  Tensor ib = make(Values{2, 0, 1, 0, 2, 2}, {2, 3}, KF_INT64), it;
  CTS_ASSERT_OK(kf_transpose(ib.get(), 0, 1, it.put()));  // [3, 2]: it[i][j] = ib[j][i]
  Tensor r;
  CTS_ASSERT_OK(kf_gather(t.get(), 1, it.get(), r.put()));
  const Values ibv{2, 0, 1, 0, 2, 2};
  Values w;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) {
      const int64_t k = static_cast<int64_t>(ibv[static_cast<size_t>(j * 3 + i)]);
      w.push_back(m[static_cast<size_t>(k * 4 + i)]);
    }
  EXPECT_TRUE(matches(r, w, {3, 2}, dt()));
  Tensor out_storage = make(Values(6, 0.0), {2, 3}), out;
  CTS_ASSERT_OK(kf_transpose(out_storage.get(), 0, 1, out.put()));
  CTS_ASSERT_OK(kf_gather_out(t.get(), 1, it.get(), out.get()));
  EXPECT_TRUE(matches(out, w, {3, 2}, dt()));
  Tensor s = make(Values{m[5]}, {}), zi = make(Values{0}, {}, KF_INT64), rs;
  CTS_ASSERT_OK(kf_gather(s.get(), 0, zi.get(), rs.put()));
  EXPECT_TRUE(matches(rs, Values{m[5]}, {}, dt()));
  Tensor ei = make(Values{}, {3, 0}, KF_INT64), re;
  CTS_ASSERT_OK(kf_gather(base.get(), 1, ei.get(), re.put()));
  EXPECT_EQ(re.shape(), (Shape{3, 0}));
  EXPECT_EQ(re.dtype(), dt());
}

/// index_copy_ of a row-major [rows, cols] matrix along dim 0 or 1, in order.
Values ref_copy2(Values m, int64_t cols, int dim, const std::vector<int64_t>& idx,
                 const Values& src) {
  const int64_t rows = static_cast<int64_t>(m.size()) / cols;
  const int64_t k = static_cast<int64_t>(idx.size());
  auto at = [](int64_t i) { return static_cast<size_t>(i); };
  for (int64_t j = 0; j < k; ++j) {
    const int64_t p = idx[at(j)];
    if (dim == 0) {
      for (int64_t c = 0; c < cols; ++c) m[at(p * cols + c)] = src[at(j * cols + c)];
    } else {
      for (int64_t r = 0; r < rows; ++r) m[at(r * cols + p)] = src[at(r * k + j)];
    }
  }
  return m;
}

TEST_P(Index, IndexCopyBothDimsAndRepeats) {
  const Values m = counting(12, dt()), zero(12, 0.0);
  const std::vector<int64_t> i0{2, 0, 2}, i1{3, 1};
  const Values s0 = representable(dt(), iota(12, 20)), s1 = representable(dt(), iota(6, 40));
  Tensor a = make(m, {3, 4}), b = make(m, {3, 4}), c = make(m, {3, 4});
  Tensor idx0 = make(as_values(i0), {3}, KF_INT64), idx1 = make(as_values(i1), {2}, KF_INT32);
  Tensor src0 = make(s0, {3, 4}), src1 = make(s1, {3, 2});
  CTS_ASSERT_OK(kf_index_copy_(a.get(), 0, idx0.get(), src0.get()));  // row 2 twice: the later
  EXPECT_TRUE(matches(a, ref_copy2(m, 4, 0, i0, s0), {3, 4}, dt()));
  CTS_ASSERT_OK(kf_index_copy_(b.get(), -1, idx1.get(), src1.get()));
  EXPECT_TRUE(matches(b, ref_copy2(m, 4, 1, i1, s1), {3, 4}, dt()));
  Tensor empty_idx = make(Values{}, {0}, KF_INT64), empty_src = make(Values{}, {0, 4});
  CTS_ASSERT_OK(kf_index_copy_(c.get(), 0, empty_idx.get(), empty_src.get()));
  EXPECT_TRUE(matches(c, m, {3, 4}, dt()));
}

TEST_P(Index, IndexCopyStridedAndZeroDim) {
  const Values m = counting(12, dt());
  Tensor base = make(m, {3, 4}), t;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));  // [4, 3]: t[i][j] = m[j * 4 + i]
  const Values src = representable(dt(), iota(6, 30));
  Tensor s = make(src, {2, 3}), idx = make(Values{3, 1}, {2}, KF_INT64);
  CTS_ASSERT_OK(kf_index_copy_(t.get(), 0, idx.get(), s.get()));  // writes base's columns 3, 1
  Values want = m;
  for (size_t j = 0; j < 2; ++j) {
    for (size_t r = 0; r < 3; ++r) want[r * 4 + (j == 0 ? 3 : 1)] = src[j * 3 + r];
  }
  EXPECT_TRUE(matches(base, want, {3, 4}, dt()));
  Tensor z = make(Values{m[0]}, {}), zs = make(Values{src[1]}, {});
  Tensor zi = make(Values{0}, {1}, KF_INT64);
  CTS_ASSERT_OK(kf_index_copy_(z.get(), 0, zi.get(), zs.get()));
  EXPECT_TRUE(matches(z, Values{src[1]}, {}, dt()));
}

/// index_add_ of a row-major [rows, cols] matrix along dim 0 or 1, alpha 1, in index order.
Values ref_add2(Values m, int64_t cols, int dim, const std::vector<int64_t>& idx,
                const Values& src) {
  const int64_t rows = static_cast<int64_t>(m.size()) / cols;
  const int64_t k = static_cast<int64_t>(idx.size());
  auto at = [](int64_t i) { return static_cast<size_t>(i); };
  for (int64_t j = 0; j < k; ++j) {
    const int64_t p = idx[at(j)];
    if (dim == 0) {
      for (int64_t c = 0; c < cols; ++c) m[at(p * cols + c)] += src[at(j * cols + c)];
    } else {
      for (int64_t r = 0; r < rows; ++r) m[at(r * cols + p)] += src[at(r * k + j)];
    }
  }
  return m;
}

TEST_P(Index, IndexAddBothDimsRepeatsAndStrided) {
  CTS_REQUIRE(dt(), "index_add_");
  if (dt() == KF_BOOL) GTEST_SKIP() << "index_add_ of bool is refused";
  const Values m = counting(12, dt());
  const std::vector<int64_t> i0{2, 0, 2}, i1{3, 1};
  const Values s0 = representable(dt(), iota(12, 1)), s1 = representable(dt(), iota(6, 2));
  Tensor a = make(m, {3, 4}), b = make(m, {3, 4});
  Tensor idx0 = make(as_values(i0), {3}, KF_INT64), idx1 = make(as_values(i1), {2}, KF_INT32);
  Tensor src0 = make(s0, {3, 4}), src1 = make(s1, {3, 2});
  CTS_ASSERT_OK(kf_index_add_(a.get(), 0, idx0.get(), src0.get(), kf_scalar_i64(1)));
  EXPECT_TRUE(matches(a, ref_add2(m, 4, 0, i0, s0), {3, 4}, dt()));  // row 2 gets both
  CTS_ASSERT_OK(kf_index_add_(b.get(), -1, idx1.get(), src1.get(), kf_scalar_i64(1)));
  EXPECT_TRUE(matches(b, ref_add2(m, 4, 1, i1, s1), {3, 4}, dt()));
  Tensor base = make(m, {3, 4}), t;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));  // [4, 3]: adds into base's columns
  Tensor s = make(representable(dt(), iota(6, 1)), {2, 3}), idx = make(Values{3, 1}, {2}, KF_INT64);
  CTS_ASSERT_OK(kf_index_add_(t.get(), 0, idx.get(), s.get(), kf_scalar_i64(1)));
  EXPECT_TRUE(matches(base, ref_add2(m, 4, 1, {3, 1}, representable(dt(), Values{1, 4, 2, 5, 3, 6})),
                      {3, 4}, dt()));
  Tensor bad = make(Values{4}, {1}, KF_INT64), one = make(representable(dt(), iota(4, 1)), {1, 4});
  expect_invalid_argument(kf_index_add_(a.get(), 0, bad.get(), one.get(), kf_scalar_i64(1)),
                          {"index_add_", "index 4"});
}

/// scatter_add_ of a row-major [rows, cols] matrix along dim 0 or 1 with an index of
/// [irows, icols] (no larger than src, of [srows, scols]), in index order.
Values ref_scatter2(Values m, int64_t cols, int dim, const std::vector<int64_t>& idx,
                    int64_t icols, const Values& src, int64_t scols) {
  auto at = [](int64_t i) { return static_cast<size_t>(i); };
  const int64_t irows = static_cast<int64_t>(idx.size()) / icols;
  for (int64_t i = 0; i < irows; ++i) {
    for (int64_t j = 0; j < icols; ++j) {
      const int64_t p = idx[at(i * icols + j)];
      m[at(dim == 0 ? p * cols + j : i * cols + p)] += src[at(i * scols + j)];
    }
  }
  return m;
}

TEST_P(Index, ScatterAddBothDimsRepeatsAndStrided) {
  CTS_REQUIRE(dt(), "scatter_add_");
  if (dt() == KF_BOOL) GTEST_SKIP() << "scatter_add_ of bool is refused";
  const Values m = counting(12, dt());
  const std::vector<int64_t> i0{2, 0, 2, 2, 1, 1}, i1{3, 3, 0, 1};
  const Values src = representable(dt(), iota(15, 1));  // [3, 5]: larger than either index
  Tensor a = make(m, {3, 4}), b = make(m, {3, 4}), s = make(src, {3, 5});
  Tensor idx0 = make(as_values(i0), {2, 3}, KF_INT64), idx1 = make(as_values(i1), {2, 2}, KF_INT64);
  CTS_ASSERT_OK(kf_scatter_add_(a.get(), 0, idx0.get(), s.get()));
  EXPECT_TRUE(matches(a, ref_scatter2(m, 4, 0, i0, 3, src, 5), {3, 4}, dt()));  // repeats add up
  CTS_ASSERT_OK(kf_scatter_add_(b.get(), -1, idx1.get(), s.get()));
  EXPECT_TRUE(matches(b, ref_scatter2(m, 4, 1, i1, 2, src, 5), {3, 4}, dt()));
  Tensor base = make(m, {3, 4}), t;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));  // [4, 3]: adds into base's columns
  Tensor it = make(Values{1, 0}, {1, 2}, KF_INT64), st = make(representable(dt(), Values{5, 7}), {1, 2});
  CTS_ASSERT_OK(kf_scatter_add_(t.get(), 1, it.get(), st.get()));  // t[0][1] += 5, t[0][0] += 7
  Values want = m;
  want[4] += representable(dt(), Values{5})[0];
  want[0] += representable(dt(), Values{7})[0];
  EXPECT_TRUE(matches(base, want, {3, 4}, dt()));
  Tensor bad = make(Values{0, 4}, {1, 2}, KF_INT64), c = make(m, {3, 4});
  expect_invalid_argument(kf_scatter_add_(c.get(), 1, bad.get(), s.get()),
                          {"scatter_add_", "index 4", "position 1"});
  EXPECT_TRUE(matches(c, m, {3, 4}, dt()));  // every index is checked before a write
}

TEST_P(Index, MaskedSelectDenseStridedAndBroadcast) {
  const Values m = counting(12, dt());
  const Values bits{1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1};
  Tensor self = make(m, {3, 4}), mask = make(bits, {3, 4}, KF_BOOL), r;
  CTS_ASSERT_OK(kf_masked_select(self.get(), mask.get(), r.put()));
  Values want;
  for (size_t i = 0; i < 12; ++i) if (bits[i] != 0) want.push_back(m[i]);
  EXPECT_TRUE(matches(r, want, {static_cast<int64_t>(want.size())}, dt()));
  Tensor t, tm, rt;  // the transposes: row-major order of the [4, 3] views
  CTS_ASSERT_OK(kf_transpose(self.get(), 0, 1, t.put()));
  CTS_ASSERT_OK(kf_transpose(mask.get(), 0, 1, tm.put()));
  CTS_ASSERT_OK(kf_masked_select(t.get(), tm.get(), rt.put()));
  Values want_t;
  for (size_t c = 0; c < 4; ++c)
    for (size_t row = 0; row < 3; ++row)
      if (bits[row * 4 + c] != 0) want_t.push_back(m[row * 4 + c]);
  EXPECT_TRUE(matches(rt, want_t, {static_cast<int64_t>(want_t.size())}, dt()));
  Tensor cols = make(Values{0, 1, 1, 0}, {4}, KF_BOOL), rb;  // broadcast over the rows
  CTS_ASSERT_OK(kf_masked_select(self.get(), cols.get(), rb.put()));
  EXPECT_TRUE(matches(rb, Values{m[1], m[2], m[5], m[6], m[9], m[10]}, {6}, dt()));
  Tensor none = make(Values(12, 0.0), {3, 4}, KF_BOOL), rn, st;
  CTS_ASSERT_OK(kf_masked_select(self.get(), none.get(), rn.put()));
  EXPECT_EQ(rn.shape(), (Shape{0}));
  CTS_ASSERT_OK(kf_masked_select_static(self.get(), mask.get(), 8, st.put()));  // 6 true: 2 zeros
  Values padded = want;
  padded.resize(8, 0.0);
  EXPECT_TRUE(matches(st, padded, {8}, dt()));
  Tensor empty = make(Values{}, {0, 3}), empty_mask = make(Values{}, {0, 3}, KF_BOOL), ez;
  CTS_ASSERT_OK(kf_masked_select_static(empty.get(), empty_mask.get(), 2, ez.put()));
  EXPECT_TRUE(matches(ez, Values{0, 0}, {2}, dt()));  // nothing selected: zeros only
}

// Long dense runs: the vector count and compaction, blocks, threads and their joins, a count
// that is not a multiple of any vector width, and masked_select_static cut short or padded.
TEST_P(Index, MaskedSelectLongRuns) {
  const size_t n = 200003;
  const Values m = dt() == KF_BOOL ? counting(n, dt()) : pseudo_random(n, 0, 9, 41, true);
  Tensor self = make(m, {static_cast<int64_t>(n)});
  for (double density : {0.5, 0.03, 1.0}) {
    SCOPED_TRACE("density " + std::to_string(density));
    const Values coin = pseudo_random(n, 0, 1, 43);
    Values bits(n), want;
    for (size_t i = 0; i < n; ++i) {
      bits[i] = coin[i] < density ? 1 : 0;
      if (bits[i] != 0) want.push_back(m[i]);
    }
    const auto count = static_cast<int64_t>(want.size());
    Tensor mask = make(bits, {static_cast<int64_t>(n)}, KF_BOOL), r, shorter, longer;
    CTS_ASSERT_OK(kf_masked_select(self.get(), mask.get(), r.put()));
    EXPECT_TRUE(matches(r, want, {count}, dt()));
    CTS_ASSERT_OK(kf_masked_select_static(self.get(), mask.get(), count - 5, shorter.put()));
    EXPECT_TRUE(matches(shorter, Values(want.begin(), want.end() - 5), {count - 5}, dt()));
    CTS_ASSERT_OK(kf_masked_select_static(self.get(), mask.get(), count + 3, longer.put()));
    Values padded = want;
    padded.resize(want.size() + 3, 0.0);
    EXPECT_TRUE(matches(longer, padded, {count + 3}, dt()));
  }
}

TEST_P(IndexAny, IndexSelectRefused) {
  Tensor self = make(iota(12), {3, 4}, KF_FLOAT32), r;
  Tensor big = make(Values{0, 4}, {2}, KF_INT64), neg = make(Values{-1}, {1}, KF_INT32);
  expect_invalid_argument(kf_index_select(self.get(), 1, big.get(), r.put()),
                          {"index_select", "index 4", "0..3"});
  expect_invalid_argument(kf_index_select(self.get(), 0, neg.get(), r.put()),
                          {"index_select", "index -1", "0..2"});
  Tensor fl = make(Values{0}, {1}, KF_FLOAT32), twod = make(Values{0, 1}, {1, 2}, KF_INT64);
  expect_invalid_argument(kf_index_select(self.get(), 0, fl.get(), r.put()),
                          {"index_select", "float32"});
  expect_invalid_argument(kf_index_select(self.get(), 0, twod.get(), r.put()),
                          {"index_select", "1-D"});
  Tensor ok = make(Values{0}, {1}, KF_INT64);
  expect_invalid_argument(kf_index_select(self.get(), 2, ok.get(), r.put()),
                          {"index_select", "dim 2"});
  Tensor empty_dim = make(Values{}, {0, 2}, KF_FLOAT32);
  expect_invalid_argument(kf_index_select(empty_dim.get(), 0, ok.get(), r.put()),
                          {"index 0", "empty"});
}

TEST_P(IndexAny, GatherRefused) {
  Tensor self = make(iota(12), {3, 4}, KF_FLOAT32), r;
  Tensor big = make(Values{0, 1, 2, 7}, {2, 2}, KF_INT64);
  expect_invalid_argument(kf_gather(self.get(), 1, big.get(), r.put()),
                          {"gather", "index 7", "0..3"});
  Tensor neg = make(Values{0, -2}, {1, 2}, KF_INT64);
  expect_invalid_argument(kf_gather(self.get(), 0, neg.get(), r.put()),
                          {"gather", "index -2", "0..2"});
  Tensor i32 = make(Values{0, 1}, {1, 2}, KF_INT32);
  expect_invalid_argument(kf_gather(self.get(), 0, i32.get(), r.put()),
                          {"gather", "int64", "int32"});
  Tensor one_d = make(Values{0, 1}, {2}, KF_INT64);
  expect_invalid_argument(kf_gather(self.get(), 0, one_d.get(), r.put()), {"gather", "dims"});
  Tensor wide = make(Values(10, 0.0), {2, 5}, KF_INT64);
  expect_invalid_argument(kf_gather(self.get(), 0, wide.get(), r.put()),
                          {"gather", "size 5", "dim 1"});
  Tensor ok = make(Values{0}, {1, 1}, KF_INT64);
  expect_invalid_argument(kf_gather(self.get(), -3, ok.get(), r.put()), {"gather", "dim -3"});
}

TEST_P(IndexAny, IndexCopyAndMaskedSelectRefused) {
  Tensor self = make(iota(12), {3, 4}, KF_FLOAT32), r;
  Tensor src = make(iota(8), {2, 4}, KF_FLOAT32), big = make(Values{0, 3}, {2}, KF_INT64);
  expect_invalid_argument(kf_index_copy_(self.get(), 0, big.get(), src.get()),
                          {"index_copy_", "index 3", "0..2"});
  Tensor ok = make(Values{0, 1}, {2}, KF_INT64), wrong = make(iota(6), {2, 3}, KF_FLOAT32);
  expect_invalid_argument(kf_index_copy_(self.get(), 0, ok.get(), wrong.get()),
                          {"index_copy_", "source has shape [2, 3]"});
  Tensor f64 = make(iota(8), {2, 4}, KF_FLOAT64);
  expect_invalid_argument(kf_index_copy_(self.get(), 0, ok.get(), f64.get()),
                          {"index_copy_", "float64", "float32"});
  Tensor fl = make(Values{0, 1}, {2}, KF_FLOAT32);
  expect_invalid_argument(kf_index_copy_(self.get(), 0, fl.get(), src.get()),
                          {"index_copy_", "int64 or int32"});
  Tensor fmask = make(Values(12, 1.0), {3, 4}, KF_FLOAT32);
  Tensor bmask = make(Values(3, 1.0), {3}, KF_BOOL);
  expect_invalid_argument(kf_masked_select(self.get(), fmask.get(), r.put()),
                          {"masked_select", "bool", "float32"});
  expect_invalid_argument(kf_masked_select(self.get(), bmask.get(), r.put()), {"masked_select"});
  expect_invalid_argument(kf_masked_select_static(self.get(), bmask.get(), 1, r.put()),
                          {"masked_select_static", "shape"});
}

CTS_INSTANTIATE(Index, params_all());
CTS_INSTANTIATE(IndexAny, params_any());

}  // namespace
}  // namespace cts
