// CTS: amin and argmin (the mirrors of amax and argmax: NaN is the minimum, the first index of
// the minimum wins, an empty reduced dim is refused).
#include "reduce_ref.hpp"

namespace cts {
namespace {

using red::Dims;

class MinReduce : public CtsTest {};       // backend x every dtype
class MinReduceFloat : public CtsTest {};  // backend x every floating dtype
class MinReduceAny : public CtsTest {};    // backend only

double min_of(const Values& g) {
  double m = INFINITY;
  for (double x : g) {
    if (std::isnan(x)) return x;
    m = std::min(m, x);
  }
  return m;
}
double argmin_of(const Values& g) {
  size_t best = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(g[i])) return static_cast<double>(i);
    if (g[i] < g[best]) best = i;
  }
  return static_cast<double>(best);
}

TEST_P(MinReduce, AminDims) {
  const Shape s{2, 3, 4};
  const Values v = red::input(dt(), 24, 11);
  Tensor t = make(v, s);
  for (const auto& [dims, keep] : red::dim_cases()) {
    SCOPED_TRACE(red::dims_str(dims, keep));
    Tensor r;
    CTS_ASSERT_OK(kf_amin(t.get(), dims.empty() ? nullptr : dims.data(),
                          static_cast<int32_t>(dims.size()), keep, r.put()));
    Shape os;
    EXPECT_TRUE(matches(r, red::reduce(v, s, dims, keep, &os, min_of), os, dt()));
  }
}

TEST_P(MinReduce, ArgminDims) {
  // Ties: small value ranges make them frequent; the first minimum wins.
  const Shape s{3, 4, 5};
  const Values v = red::input(dt(), 60, 13);
  Tensor t = make(v, s), all, allk;
  CTS_ASSERT_OK(kf_argmin(t.get(), nullptr, false, all.put()));
  EXPECT_TRUE(matches(all, Values{argmin_of(v)}, {}, KF_INT64));
  CTS_ASSERT_OK(kf_argmin(t.get(), nullptr, true, allk.put()));
  EXPECT_TRUE(matches(allk, Values{argmin_of(v)}, {1, 1, 1}, KF_INT64));
  for (int64_t d : {0, 1, 2, -1, -3}) {
    for (bool keep : {false, true}) {
      SCOPED_TRACE("dim " + std::to_string(d) + (keep ? " keepdim" : ""));
      Tensor r;
      CTS_ASSERT_OK(kf_argmin(t.get(), &d, keep, r.put()));
      Shape os;
      EXPECT_TRUE(matches(r, red::reduce(v, s, {d}, keep, &os, argmin_of), os, KF_INT64));
    }
  }
}

TEST_P(MinReduce, StridedAndOut) {
  const Values v = red::input(dt(), 24, 17);
  Tensor t = make(v, {2, 3, 4}), p, r, out, a, aout;
  const int64_t perm[3] = {2, 0, 1};
  CTS_ASSERT_OK(kf_permute(t.get(), perm, 3, p.put()));
  const Shape ps{4, 2, 3};
  const Values pv = gather_strided(v, 0, ps, {1, 12, 4});
  const Dims dims{0, 2};
  Shape os;
  const Values want = red::reduce(pv, ps, dims, false, &os, min_of);
  CTS_ASSERT_OK(kf_amin(p.get(), dims.data(), 2, false, r.put()));
  EXPECT_TRUE(matches(r, want, os, dt()));
  CTS_ASSERT_OK(kf_empty(os.data(), 1, dt(), dev(), out.put()));
  CTS_ASSERT_OK(kf_amin_out(p.get(), dims.data(), 2, false, out.get()));
  EXPECT_TRUE(matches(out, want, os, dt()));
  const int64_t d = 0;
  Shape as;
  const Values aw = red::reduce(pv, ps, {0}, false, &as, argmin_of);
  CTS_ASSERT_OK(kf_argmin(p.get(), &d, false, a.put()));
  EXPECT_TRUE(matches(a, aw, as, KF_INT64));
  CTS_ASSERT_OK(kf_empty(as.data(), 2, KF_INT64, dev(), aout.put()));
  CTS_ASSERT_OK(kf_argmin_out(p.get(), &d, false, aout.get()));
  EXPECT_TRUE(matches(aout, aw, as, KF_INT64));
}

TEST_P(MinReduce, LargeAcrossThreads) {
  const int64_t n = 1 << 20;
  Values v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = dt() == KF_BOOL ? 1 : static_cast<double>(i % 7 + 1);
  v[70001] = 0;
  v[900001] = 0;
  Tensor t = make(v, {n}), m, a, mm, c0, c1, a0;
  CTS_ASSERT_OK(kf_amin(t.get(), nullptr, 0, false, m.put()));
  EXPECT_TRUE(matches(m, Values{0}, {}, dt()));
  CTS_ASSERT_OK(kf_argmin(t.get(), nullptr, false, a.put()));
  EXPECT_TRUE(matches(a, Values{70001}, {}, KF_INT64));
  const Shape ms{1024, 1024};
  CTS_ASSERT_OK(kf_reshape(t.get(), ms.data(), 2, mm.put()));
  const int64_t zero = 0, one_ = 1;
  CTS_ASSERT_OK(kf_amin(mm.get(), &zero, 1, false, c0.put()));
  EXPECT_TRUE(matches(c0, red::reduce(v, ms, {0}, false, nullptr, min_of), {1024}, dt()));
  CTS_ASSERT_OK(kf_amin(mm.get(), &one_, 1, false, c1.put()));
  EXPECT_TRUE(matches(c1, red::reduce(v, ms, {1}, false, nullptr, min_of), {1024}, dt()));
  CTS_ASSERT_OK(kf_argmin(mm.get(), &zero, false, a0.put()));
  EXPECT_TRUE(matches(a0, red::reduce(v, ms, {0}, false, nullptr, argmin_of), {1024}, KF_INT64));
}

TEST_P(MinReduceFloat, NanIsTheMinimum) {
  Values v = pseudo_random(1 << 16, -8, 8, 19);
  for (double& x : v) x = round_to(dt(), x);
  v[1000] = -INFINITY;
  v[40000] = NAN;
  v[50001] = NAN;
  Tensor t = make(v, {1 << 16}), m, a, m2, rows, rowsa;
  CTS_ASSERT_OK(kf_amin(t.get(), nullptr, 0, false, m.put()));
  EXPECT_TRUE(matches(m, Values{NAN}, {}, dt()));
  CTS_ASSERT_OK(kf_argmin(t.get(), nullptr, false, a.put()));
  EXPECT_TRUE(matches(a, Values{40000}, {}, KF_INT64));
  const Shape ms{256, 256};
  CTS_ASSERT_OK(kf_reshape(t.get(), ms.data(), 2, m2.put()));
  const int64_t one_ = 1;
  CTS_ASSERT_OK(kf_amin(m2.get(), &one_, 1, false, rows.put()));
  EXPECT_TRUE(matches(rows, red::reduce(v, ms, {1}, false, nullptr, min_of), {256}, dt()));
  CTS_ASSERT_OK(kf_argmin(m2.get(), &one_, false, rowsa.put()));
  EXPECT_TRUE(matches(rowsa, red::reduce(v, ms, {1}, false, nullptr, argmin_of), {256}, KF_INT64));
}

TEST_P(MinReduceAny, EmptyZeroDimAndErrors) {
  Tensor e = make(Values{}, {0, 3}, KF_FLOAT32), m0, m1, a0, a1, all;
  const int64_t zero = 0, one_ = 1, bad = 5;
  EXPECT_TRUE(red::refused(kf_amin(e.get(), &zero, 1, false, m0.put()), "amin"));
  EXPECT_TRUE(red::refused(kf_argmin(e.get(), &one_, false, a0.put()), "argmin"));
  EXPECT_TRUE(red::refused(kf_argmin(e.get(), nullptr, false, all.put()), "argmin"));
  CTS_ASSERT_OK(kf_amin(e.get(), &one_, 1, false, m1.put()));
  EXPECT_TRUE(matches(m1, Values{}, {0}, KF_FLOAT32));
  Tensor t = make(Values{1, 2}, {2}, KF_FLOAT32), b1, b2;
  EXPECT_TRUE(red::refused(kf_amin(t.get(), &bad, 1, false, b1.put()), "amin"));
  EXPECT_TRUE(red::refused(kf_argmin(t.get(), &bad, false, b2.put()), "argmin"));
  Tensor z = make(Values{-2.5}, {}, KF_FLOAT64), zm, za;
  CTS_ASSERT_OK(kf_amin(z.get(), nullptr, 0, false, zm.put()));
  EXPECT_TRUE(matches(zm, Values{-2.5}, {}, KF_FLOAT64));
  CTS_ASSERT_OK(kf_argmin(z.get(), &zero, false, za.put()));
  EXPECT_TRUE(matches(za, Values{0}, {}, KF_INT64));
}

TEST_P(MinReduceAny, IntExtremes) {
  Tensor i = make(Values{-128, 127, -128, 0}, {4}, KF_INT8), m, a;
  CTS_ASSERT_OK(kf_amin(i.get(), nullptr, 0, false, m.put()));
  EXPECT_TRUE(matches(m, Values{-128}, {}, KF_INT8));
  CTS_ASSERT_OK(kf_argmin(i.get(), nullptr, false, a.put()));
  EXPECT_TRUE(matches(a, Values{0}, {}, KF_INT64));
  Tensor u = make(Values{255, 255}, {2}, KF_UINT8), um;
  CTS_ASSERT_OK(kf_amin(u.get(), nullptr, 0, false, um.put()));
  EXPECT_TRUE(matches(um, Values{255}, {}, KF_UINT8));
}

CTS_INSTANTIATE(MinReduce, params_all());
CTS_INSTANTIATE(MinReduceFloat, params_all_float());
CTS_INSTANTIATE(MinReduceAny, params_any());

}  // namespace
}  // namespace cts
