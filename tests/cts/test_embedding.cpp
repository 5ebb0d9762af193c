// CTS: embedding (rows of a 2-D weight at int64/int32 indices of any shape): every dtype,
// 0-dim and empty indices, a strided weight, and the refused arguments.
#include "cts_util.hpp"

namespace cts {
namespace {

class Embedding : public CtsTest {};     // backend x every dtype
class EmbeddingAny : public CtsTest {};  // backend only

Values weight_values(kf_dtype_t d) {
  Values v = iota(15, 1);
  if (d == KF_BOOL) for (double& x : v) x = std::fmod(x, 2.0);
  return v;
}

Values rows_of(const Values& w, int64_t cols, const Values& idx) {
  Values out;
  for (double i : idx) {
    const auto at = w.begin() + static_cast<int64_t>(i) * cols;
    out.insert(out.end(), at, at + cols);
  }
  return out;
}

TEST_P(Embedding, RowsAtIndices) {
  const Values w = weight_values(dt());
  Tensor weight = make(w, {5, 3});
  const Values idx{0, 4, 2, 2};
  for (kf_dtype_t id : {KF_INT64, KF_INT32}) {
    Tensor indices = make(idx, {2, 2}, id), r;
    CTS_ASSERT_OK(kf_embedding(weight.get(), indices.get(), r.put()));
    EXPECT_TRUE(matches(r, rows_of(w, 3, idx), {2, 2, 3}, dt())) << dtype_str(id);
  }
}

TEST_P(Embedding, ZeroDimEmptyAndStrided) {
  const Values w = weight_values(dt());
  Tensor weight = make(w, {5, 3}), r0, re, rt;
  Tensor scalar = make(Values{3}, {}, KF_INT64), empty = make(Values{}, {0}, KF_INT64);
  CTS_ASSERT_OK(kf_embedding(weight.get(), scalar.get(), r0.put()));
  EXPECT_TRUE(matches(r0, rows_of(w, 3, {3}), {3}, dt()));
  CTS_ASSERT_OK(kf_embedding(weight.get(), empty.get(), re.put()));
  EXPECT_EQ(re.shape(), (Shape{0, 3}));
  EXPECT_EQ(re.dtype(), dt());
  Tensor base = make(w, {3, 5}), wt;  // a transposed weight: [5, 3]
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, wt.put()));
  Tensor idx = make(Values{1, 0}, {2}, KF_INT32);
  CTS_ASSERT_OK(kf_embedding(wt.get(), idx.get(), rt.put()));
  const Values wtv = gather_strided(w, 0, {5, 3}, {1, 5});
  EXPECT_TRUE(matches(rt, rows_of(wtv, 3, {1, 0}), {2, 3}, dt()));
}

TEST_P(EmbeddingAny, Refused) {
  Tensor weight = make(iota(15), {5, 3}, KF_FLOAT32), r;
  Tensor big = make(Values{1, 5}, {2}, KF_INT64), neg = make(Values{-1}, {1}, KF_INT32);
  expect_invalid_argument(kf_embedding(weight.get(), big.get(), r.put()),
                          {"embedding", "index 5", "0..4"});
  expect_invalid_argument(kf_embedding(weight.get(), neg.get(), r.put()),
                          {"embedding", "index -1"});
  Tensor fl = make(Values{1}, {1}, KF_FLOAT32), one_d = make(iota(5), {5}, KF_FLOAT32);
  Tensor ok = make(Values{1}, {1}, KF_INT64);
  expect_invalid_argument(kf_embedding(weight.get(), fl.get(), r.put()), {"embedding", "float32"});
  expect_invalid_argument(kf_embedding(one_d.get(), ok.get(), r.put()),
                          {"embedding", "2-D", "[5]"});
}

CTS_INSTANTIATE(Embedding, params_all());
CTS_INSTANTIATE(EmbeddingAny, params_any());

}  // namespace
}  // namespace cts
