// CTS: logsumexp (stable: no overflow for large values; -inf for an empty or all -inf
// reduction, inf with a +inf, NaN with a NaN; integer and bool inputs give float32).
#include "reduce_ref.hpp"

namespace cts {
namespace {

using red::Dims;

class Logsumexp : public CtsTest {};     // backend x every floating dtype
class LogsumexpAny : public CtsTest {};  // backend only

double lse_of(const Values& g) {
  double m = -INFINITY;
  for (double x : g) {
    if (std::isnan(x)) return x;
    m = std::max(m, x);
  }
  if (std::isinf(m)) return m;  // +inf, or -inf (empty / all -inf)
  double s = 0;
  for (double x : g) s += std::exp(x - m);
  return m + std::log(s);
}

TEST_P(Logsumexp, LongRowsWithMaskedStretches) {
  CTS_REQUIRE(dt(), "logsumexp");
  const Shape sh{6, 3000};
  const Values v = red::masked_long_rows(dt(), 3000, 42);
  Tensor t = make(v, sh), r;
  const int64_t d = 1;
  CTS_ASSERT_OK(kf_logsumexp(t.get(), &d, 1, false, r.put()));
  Values want;
  for (const Values& row : red::lines(v, sh, 1)) want.push_back(lse_of(row));
  EXPECT_TRUE(matches(r, want, {6}, dt(), 8));
}

TEST_P(Logsumexp, Dims) {
  const Shape s{2, 3, 4};
  const Values v = red::input(dt(), 24, 41);
  Tensor t = make(v, s);
  for (const auto& [dims, keep] : red::dim_cases()) {
    SCOPED_TRACE(red::dims_str(dims, keep));
    Tensor r;
    CTS_ASSERT_OK(kf_logsumexp(t.get(), dims.empty() ? nullptr : dims.data(),
                               static_cast<int32_t>(dims.size()), keep, r.put()));
    Shape os;
    EXPECT_TRUE(matches(r, red::reduce(v, s, dims, keep, &os, lse_of), os, dt(), 4));
  }
}

TEST_P(Logsumexp, StableStridedOutAndLarge) {
  // Values near 1000 (exp overflows without the shift), transposed, over both dims.
  const Shape base{200, 300}, ts{300, 200};
  Values v = pseudo_random(60000, 990, 1000, 43);
  for (double& x : v) x = round_to(dt(), x);
  Tensor t = make(v, base), tt;
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 1, tt.put()));
  const Values tv = gather_strided(v, 0, ts, {1, 300});
  for (int64_t d : {0, 1, -2}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    Tensor r, out;
    CTS_ASSERT_OK(kf_logsumexp(tt.get(), &d, 1, false, r.put()));
    Shape os;
    const Values want = red::reduce(tv, ts, {d}, false, &os, lse_of);
    EXPECT_TRUE(matches(r, want, os, dt(), 4));
    CTS_ASSERT_OK(kf_empty(os.data(), 1, dt(), dev(), out.put()));
    CTS_ASSERT_OK(kf_logsumexp_out(tt.get(), &d, 1, false, out.get()));
    EXPECT_TRUE(matches(out, want, os, dt(), 4));
  }
  Tensor all;
  CTS_ASSERT_OK(kf_logsumexp(t.get(), nullptr, 0, false, all.put()));
  EXPECT_TRUE(matches(all, Values{lse_of(v)}, {}, dt(), 4));
}

TEST_P(Logsumexp, ExpandedInput) {
  const Values row = red::input(dt(), 40, 47);
  Tensor r = make(row, {1, 40}), e;
  const Shape es{2000, 40};
  CTS_ASSERT_OK(kf_expand(r.get(), es.data(), 2, e.put()));
  const Values ev = expand_to(row, {1, 40}, es);
  for (const Dims& dims : {Dims{0}, Dims{1}, Dims{}}) {
    SCOPED_TRACE("dims " + shape_str(dims));
    Tensor l;
    CTS_ASSERT_OK(kf_logsumexp(e.get(), dims.empty() ? nullptr : dims.data(),
                               static_cast<int32_t>(dims.size()), false, l.put()));
    Shape os;
    EXPECT_TRUE(matches(l, red::reduce(ev, es, dims, false, &os, lse_of), os, dt(), 4));
  }
}

TEST_P(Logsumexp, SpecialValues) {
  // Rows: all -inf; -inf beside finite; +inf; NaN; +inf and NaN; -inf and +inf.
  const double ninf = -INFINITY, inf = INFINITY;
  const Values v{ninf, ninf, ninf, 1, ninf, 2, 3, inf, 0, 1, NAN, 2, inf, NAN, 0, ninf, inf, 5};
  Tensor t = make(v, {6, 3}), r, c;
  const int64_t one_ = 1, zero = 0;
  CTS_ASSERT_OK(kf_logsumexp(t.get(), &one_, 1, false, r.put()));
  const Values want{ninf, lse_of({1, 2}), inf, NAN, NAN, inf};
  EXPECT_TRUE(matches(r, want, {6}, dt(), 4));
  // The same rows twice, along columns (the column schedule: 12 adjacent outputs).
  Values v2 = v;
  v2.insert(v2.end(), v.begin(), v.end());
  Tensor t2 = make(v2, {12, 3}), tt, tc;
  CTS_ASSERT_OK(kf_transpose(t2.get(), 0, 1, tt.put()));
  CTS_ASSERT_OK(kf_contiguous(tt.get(), tc.put()));
  CTS_ASSERT_OK(kf_logsumexp(tc.get(), &zero, 1, false, c.put()));
  Values want2 = want;
  want2.insert(want2.end(), want.begin(), want.end());
  EXPECT_TRUE(matches(c, want2, {12}, dt(), 4));
  // Empty, size 1, 0-dim.
  Tensor e = make(Values{}, {0, 2}), e0, z = make(Values{1.5}, {}), zr;
  CTS_ASSERT_OK(kf_logsumexp(e.get(), &zero, 1, false, e0.put()));
  EXPECT_TRUE(matches(e0, Values{ninf, ninf}, {2}, dt()));
  CTS_ASSERT_OK(kf_logsumexp(z.get(), &zero, 1, false, zr.put()));
  EXPECT_TRUE(matches(zr, Values{1.5}, {}, dt()));
}

TEST_P(LogsumexpAny, IntegerInputsAndErrors) {
  for (kf_dtype_t d : {KF_INT8, KF_UINT8, KF_INT32, KF_INT64, KF_BOOL}) {
    SCOPED_TRACE(dtype_str(d));
    const Values v{1, 0, 1, 1, 0, 1};
    Tensor t = make(v, {2, 3}, d), r;
    const int64_t one_ = 1;
    CTS_ASSERT_OK(kf_logsumexp(t.get(), &one_, 1, true, r.put()));
    EXPECT_TRUE(matches(r, Values{lse_of({1, 0, 1}), lse_of({1, 0, 1})}, {2, 1}, KF_FLOAT32));
  }
  Tensor t = make(Values{1, 2}, {2}, KF_FLOAT32), r;
  const int64_t bad = -2;
  EXPECT_TRUE(red::refused(kf_logsumexp(t.get(), &bad, 1, false, r.put()), "logsumexp"));
}

CTS_INSTANTIATE(Logsumexp, params_all_float());
CTS_INSTANTIATE(LogsumexpAny, params_any());

}  // namespace
}  // namespace cts
