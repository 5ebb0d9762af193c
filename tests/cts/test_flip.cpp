// CTS: flip against a reference computed here: every dtype, each dim and several at once,
// negative dims, no dim (a copy), 0-dim, empty and size-1 dims, strided and expanded (stride 0)
// inputs, out= (a transposed output, and the input itself); and the refused arguments (a dim out
// of range, a dim named twice).
#include "cts_util.hpp"

namespace cts {
namespace {

class Flip : public CtsTest {};     // backend x every dtype
class FlipAny : public CtsTest {};  // backend only

/// v (row-major, shape s) reversed along each dim marked in `flipped`.
Values ref_flip(const Values& v, const Shape& s, const std::vector<bool>& flipped) {
  const Shape strides = contiguous_strides(s);
  Values out(v.size());
  for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
    int64_t src = 0, rem = i;
    for (size_t d = 0; d < s.size(); ++d) {
      const int64_t idx = rem / strides[d];
      rem %= strides[d];
      src += (flipped[d] ? s[d] - 1 - idx : idx) * strides[d];
    }
    out[static_cast<size_t>(i)] = v[static_cast<size_t>(src)];
  }
  return out;
}

std::vector<bool> marks(const std::vector<int64_t>& dims, size_t ndim) {
  std::vector<bool> m(ndim, false);
  for (int64_t d : dims) m[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(ndim) : d)] = true;
  return m;
}

TEST_P(Flip, EachDimAndSeveral) {
  const Shape s{3, 4, 5};
  const Values v = counting(60, dt());
  Tensor t = make(v, s);
  const std::vector<std::vector<int64_t>> cases{{0}, {1}, {2}, {-1}, {0, 2}, {2, 0, 1}, {-3, 1},
                                                {}};
  for (const auto& dims : cases) {
    SCOPED_TRACE("dims " + shape_str(dims));
    Tensor r;
    CTS_ASSERT_OK(kf_flip(t.get(), dims.data(), static_cast<int32_t>(dims.size()), r.put()));
    EXPECT_TRUE(matches(r, ref_flip(v, s, marks(dims, 3)), s, dt()));
  }
}

TEST_P(Flip, ZeroDimEmptyAndSizeOne) {
  const int64_t last = -1, first = 0;
  Tensor z = make(in(Values{7}), {}), zr;
  CTS_ASSERT_OK(kf_flip(z.get(), &last, 1, zr.put()));
  EXPECT_TRUE(matches(zr, in(Values{7}), {}, dt()));
  Tensor e = make(Values{}, {0, 3}), er;
  CTS_ASSERT_OK(kf_flip(e.get(), &first, 1, er.put()));
  EXPECT_TRUE(matches(er, Values{}, {0, 3}, dt()));
  const Values v = counting(4, dt());
  Tensor one = make(v, {1, 4}), r;
  CTS_ASSERT_OK(kf_flip(one.get(), &first, 1, r.put()));
  EXPECT_TRUE(matches(r, v, {1, 4}, dt()));
}

TEST_P(Flip, StridedExpandedAndOut) {
  // t = base^T, [4, 3]: t[i][j] = m[j * 4 + i].
  const Values m = counting(12, dt());
  Tensor base = make(m, {3, 4}), t;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));
  const Values tv = gather_strided(m, 0, {4, 3}, {1, 4});
  const int64_t both[2] = {0, 1};
  Tensor r;
  CTS_ASSERT_OK(kf_flip(t.get(), both, 2, r.put()));
  EXPECT_TRUE(matches(r, ref_flip(tv, {4, 3}, {true, true}), {4, 3}, dt()));

  // An expanded row [1, 4] -> [3, 4] (stride 0 along dim 0), flipped along both dims.
  const Values row = counting(4, dt());
  Tensor rt = make(row, {1, 4}), ex, er;
  const int64_t to[2] = {3, 4};
  CTS_ASSERT_OK(kf_expand(rt.get(), to, 2, ex.put()));
  CTS_ASSERT_OK(kf_flip(ex.get(), both, 2, er.put()));
  EXPECT_TRUE(matches(er, ref_flip(expand_to(row, {1, 4}, {3, 4}), {3, 4}, {true, true}),
                      {3, 4}, dt()));

  // out= a transposed view: written in its own layout.
  Tensor storage = make(Values(12, 0.0), {3, 4}), out;
  CTS_ASSERT_OK(kf_transpose(storage.get(), 0, 1, out.put()));  // [4, 3]
  const int64_t dim1 = 1;
  CTS_ASSERT_OK(kf_flip_out(t.get(), &dim1, 1, out.get()));
  EXPECT_TRUE(matches(out, ref_flip(tv, {4, 3}, {false, true}), {4, 3}, dt()));
}

TEST_P(Flip, OutIsSelf) {
  // The output is the input: the core reads self from a copy, so no element is lost.
  const Values v = counting(10, dt());
  Tensor t = make(v, {10});
  const int64_t d = 0;
  CTS_ASSERT_OK(kf_flip_out(t.get(), &d, 1, t.get()));
  EXPECT_TRUE(matches(t, ref_flip(v, {10}, {true}), {10}, dt()));
}

TEST_P(FlipAny, LongRowsOnSeveralThreads) {
  // Past the parallel grain, flipped along the contiguous dim and along the outer one.
  const Shape s{64, 5000};
  const Values v = pseudo_random(320000, -100, 100, 71, true);
  Tensor t = make(v, s, KF_FLOAT32);
  for (int64_t d : {0, 1}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    Tensor r;
    CTS_ASSERT_OK(kf_flip(t.get(), &d, 1, r.put()));
    EXPECT_TRUE(matches(r, ref_flip(v, s, marks({d}, 2)), s, KF_FLOAT32));
  }
}

TEST_P(FlipAny, Refused) {
  Tensor t = make(iota(12), {3, 4}, KF_FLOAT32), r;
  const int64_t out_of_range = 2, twice[2] = {1, -1};
  expect_invalid_argument(kf_flip(t.get(), &out_of_range, 1, r.put()), {"flip", "dim 2", "-2..1"});
  expect_invalid_argument(kf_flip(t.get(), twice, 2, r.put()), {"flip", "dim 1", "more than once"});
}

CTS_INSTANTIATE(Flip, params_all());
CTS_INSTANTIATE(FlipAny, params_any());

}  // namespace
}  // namespace cts
