// CTS: addmm (beta * self + alpha * (mat1 @ mat2)), every numeric dtype: self broadcast, beta
// and alpha, beta = 0 ignoring self's NaN/inf, strided and transposed operands, empty sizes,
// out=, integer wrapping, and the invalid arguments.
#include <cstdint>
#include <limits>

#include "cts_util.hpp"

namespace cts {
namespace {

class Addmm : public CtsTest {};     // backend x every dtype but bool
class AddmmAny : public CtsTest {};  // dtype-independent checks

/** Values fit for dtype d: small integers for integer dtypes, rounded floats otherwise. */
Values values_for(kf_dtype_t d, size_t n, uint32_t seed) {
  if (is_int(d)) return pseudo_random(n, d == KF_UINT8 ? 0 : -3, 4, seed, true);
  Values v = pseudo_random(n, -1, 1, seed);
  for (double& x : v) x = round_to(d, x);
  return v;
}

/** x wrapped into an integer dtype as two's complement (x is an exact integer). */
double wrap_to(kf_dtype_t d, double x) {
  const int64_t i = static_cast<int64_t>(x);
  switch (d) {
    case KF_INT8: return static_cast<int8_t>(i);
    case KF_UINT8: return static_cast<uint8_t>(i);
    case KF_INT16: return static_cast<int16_t>(i);
    case KF_INT32: return static_cast<int32_t>(i);
    default: return static_cast<double>(i);
  }
}

/** beta * self(broadcast from `ss` to [n, m]) + alpha * a[n,k] @ b[k,m], in double. */
Values ref_addmm(const Values& self, const Shape& ss, const Values& a, const Values& b, int64_t n,
                 int64_t k, int64_t m, double beta, double alpha, kf_dtype_t d) {
  const Values s = expand_to(self, ss, {n, m});
  Values out(static_cast<size_t>(n * m));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc += a[static_cast<size_t>(i * k + p)] * b[static_cast<size_t>(p * m + j)];
      const size_t o = static_cast<size_t>(i * m + j);
      out[o] = (beta == 0 ? 0.0 : beta * s[o]) + alpha * acc;
      if (is_int(d)) out[o] = wrap_to(d, out[o]);
    }
  return out;
}

/** -1, or 1 for uint8 (PyTorch refuses a negative scalar it cannot convert to uint8). */
double minus_one(kf_dtype_t d) { return d == KF_UINT8 ? 1 : -1; }

kf_scalar_t num(kf_dtype_t d, double v) {
  return is_int(d) ? kf_scalar_i64(static_cast<int64_t>(v)) : kf_scalar_f64(v);
}

constexpr double kScale = 16;  // a few rounded products per element

TEST_P(Addmm, DefaultsAddSelfAndProduct) {
  const Values s = values_for(dt(), 12, 1), a = values_for(dt(), 15, 2);
  const Values b = values_for(dt(), 20, 3);
  Tensor ts = make(s, {3, 4}), ta = make(a, {3, 5}), tb = make(b, {5, 4}), r;
  CTS_ASSERT_OK(kf_addmm(ts.get(), ta.get(), tb.get(), one(), one(), r.put()));
  EXPECT_TRUE(matches(r, ref_addmm(s, {3, 4}, a, b, 3, 5, 4, 1, 1, dt()), {3, 4}, dt(), kScale));
}

TEST_P(Addmm, BetaAndAlphaScale) {
  const Values s = values_for(dt(), 6, 4), a = values_for(dt(), 8, 5), b = values_for(dt(), 12, 6);
  Tensor ts = make(s, {2, 3}), ta = make(a, {2, 4}), tb = make(b, {4, 3});
  const double neg = minus_one(dt());
  const double pairs[][2] = {{2, 3}, {neg, 2}, {3, neg}, {1, 0}};
  for (const auto& p : pairs) {
    const double beta = is_int(dt()) ? p[0] : p[0] * 0.5, alpha = is_int(dt()) ? p[1] : p[1] * 0.5;
    SCOPED_TRACE("beta " + std::to_string(beta) + " alpha " + std::to_string(alpha));
    Tensor r;
    CTS_ASSERT_OK(kf_addmm(ts.get(), ta.get(), tb.get(), num(dt(), beta), num(dt(), alpha),
                           r.put()));
    EXPECT_TRUE(matches(r, ref_addmm(s, {2, 3}, a, b, 2, 4, 3, beta, alpha, dt()), {2, 3}, dt(),
                        kScale));
  }
}

TEST_P(Addmm, SelfBroadcasts) {
  const Values a = values_for(dt(), 12, 7), b = values_for(dt(), 20, 8);
  Tensor ta = make(a, {3, 4}), tb = make(b, {4, 5});
  const Shape shapes[] = {{5}, {1, 5}, {3, 1}, {}, {1, 1}, {1}};
  for (const Shape& ss : shapes) {
    SCOPED_TRACE("self " + shape_str(ss));
    const Values s = values_for(dt(), static_cast<size_t>(numel_of(ss)), 9);
    Tensor ts = make(s, ss), r;
    CTS_ASSERT_OK(kf_addmm(ts.get(), ta.get(), tb.get(), num(dt(), 2), one(), r.put()));
    EXPECT_TRUE(matches(r, ref_addmm(s, ss, a, b, 3, 4, 5, 2, 1, dt()), {3, 5}, dt(), kScale));
  }
}

TEST_P(Addmm, TransposedAndSlicedOperands) {
  // mat1 [3,4] as the transpose of a [4,3] tensor; mat2 [4,2] as columns 1..2 of a [4,5];
  // self [3,2] as the transpose of a [2,3].
  const Values a_t = values_for(dt(), 12, 10), b_base = values_for(dt(), 20, 11);
  const Values s_t = values_for(dt(), 6, 12);
  Tensor sa = make(a_t, {4, 3}), sb = make(b_base, {4, 5}), ss = make(s_t, {2, 3});
  Tensor va, vb, vs, r;
  CTS_ASSERT_OK(kf_transpose(sa.get(), 0, 1, va.put()));
  const int64_t c1 = 1, c3 = 3;
  CTS_ASSERT_OK(kf_slice(sb.get(), 1, &c1, &c3, 1, vb.put()));
  CTS_ASSERT_OK(kf_transpose(ss.get(), 0, 1, vs.put()));
  const Values a = gather_strided(a_t, 0, {3, 4}, {1, 3});
  const Values b = gather_strided(b_base, 1, {4, 2}, {5, 1});
  const Values s = gather_strided(s_t, 0, {3, 2}, {1, 3});
  const double neg = minus_one(dt());
  CTS_ASSERT_OK(kf_addmm(vs.get(), va.get(), vb.get(), num(dt(), neg), num(dt(), 2), r.put()));
  EXPECT_TRUE(matches(r, ref_addmm(s, {3, 2}, a, b, 3, 4, 2, neg, 2, dt()), {3, 2}, dt(), kScale));
}

TEST_P(Addmm, ExpandedSelf) {
  // self given as a stride-0 view ([5] expanded to [3,5]).
  const Values a = values_for(dt(), 6, 13), b = values_for(dt(), 10, 14);
  const Values s = values_for(dt(), 5, 15);
  Tensor ta = make(a, {3, 2}), tb = make(b, {2, 5}), ts = make(s, {5}), te, r;
  const Shape full{3, 5};
  CTS_ASSERT_OK(kf_expand(ts.get(), full.data(), 2, te.put()));
  CTS_ASSERT_OK(kf_addmm(te.get(), ta.get(), tb.get(), one(), one(), r.put()));
  EXPECT_TRUE(matches(r, ref_addmm(s, {5}, a, b, 3, 2, 5, 1, 1, dt()), {3, 5}, dt(), kScale));
}

TEST_P(Addmm, BetaZeroIgnoresSelf) {
  const Values a = values_for(dt(), 6, 16), b = values_for(dt(), 6, 17);
  Values s = values_for(dt(), 4, 18);
  if (is_float(dt())) s = {NAN, INFINITY, -INFINITY, NAN};
  Tensor ts = make(s, {2, 2}), ta = make(a, {2, 3}), tb = make(b, {3, 2});
  for (double alpha : {1.0, 2.0}) {
    SCOPED_TRACE("alpha " + std::to_string(alpha));
    Tensor r;
    CTS_ASSERT_OK(kf_addmm(ts.get(), ta.get(), tb.get(), num(dt(), 0), num(dt(), alpha),
                           r.put()));
    EXPECT_TRUE(matches(r, ref_addmm(s, {2, 2}, a, b, 2, 3, 2, 0, alpha, dt()), {2, 2}, dt(),
                        kScale));
  }
}

TEST_P(Addmm, NanAndInfInSelfPropagate) {
  if (!is_float(dt())) GTEST_SKIP() << "integers have no NaN";
  const Values a = values_for(dt(), 4, 19), b = values_for(dt(), 4, 20);
  const Values s = {NAN, INFINITY, -INFINITY, 0.5};
  Tensor ts = make(s, {2, 2}), ta = make(a, {2, 2}), tb = make(b, {2, 2}), r;
  CTS_ASSERT_OK(kf_addmm(ts.get(), ta.get(), tb.get(), one(), one(), r.put()));
  EXPECT_TRUE(matches(r, ref_addmm(s, {2, 2}, a, b, 2, 2, 2, 1, 1, dt()), {2, 2}, dt(), kScale));
}

TEST_P(Addmm, EmptySizes) {
  struct Case { int64_t n, k, m; };
  for (const Case c : {Case{0, 3, 4}, Case{3, 0, 4}, Case{3, 4, 0}, Case{0, 0, 0}}) {
    SCOPED_TRACE("n " + std::to_string(c.n) + " k " + std::to_string(c.k) + " m " +
                 std::to_string(c.m));
    const Values s = values_for(dt(), static_cast<size_t>(c.n * c.m), 21);
    const Values a = values_for(dt(), static_cast<size_t>(c.n * c.k), 22);
    const Values b = values_for(dt(), static_cast<size_t>(c.k * c.m), 23);
    Tensor ts = make(s, {c.n, c.m}), ta = make(a, {c.n, c.k}), tb = make(b, {c.k, c.m}), r;
    CTS_ASSERT_OK(kf_addmm(ts.get(), ta.get(), tb.get(), num(dt(), 3), one(), r.put()));
    // k = 0: the product is zeros, the result 3 * self.
    EXPECT_TRUE(matches(r, ref_addmm(s, {c.n, c.m}, a, b, c.n, c.k, c.m, 3, 1, dt()),
                        {c.n, c.m}, dt(), kScale));
  }
}

TEST_P(Addmm, LargerProduct) {
  const int64_t n = 40, k = 33, m = 27;
  const Values s = values_for(dt(), static_cast<size_t>(m), 24);
  const Values a = values_for(dt(), static_cast<size_t>(n * k), 25);
  const Values b = values_for(dt(), static_cast<size_t>(k * m), 26);
  Tensor ts = make(s, {m}), ta = make(a, {n, k}), tb = make(b, {k, m}), r;
  const double neg = minus_one(dt());
  CTS_ASSERT_OK(kf_addmm(ts.get(), ta.get(), tb.get(), num(dt(), 1), num(dt(), neg), r.put()));
  EXPECT_TRUE(matches(r, ref_addmm(s, {m}, a, b, n, k, m, 1, neg, dt()), {n, m}, dt(), 4 * kScale));
}

TEST_P(Addmm, OutVariant) {
  const Values s = values_for(dt(), 3, 27), a = values_for(dt(), 8, 28);
  const Values b = values_for(dt(), 12, 29);
  Tensor ts = make(s, {3}), ta = make(a, {2, 4}), tb = make(b, {4, 3}), out;
  const Shape os{2, 3};
  CTS_ASSERT_OK(kf_empty(os.data(), 2, dt(), dev(), out.put()));
  CTS_ASSERT_OK(kf_addmm_out(ts.get(), ta.get(), tb.get(), num(dt(), 2), one(), out.get()));
  const Values want = ref_addmm(s, {3}, a, b, 2, 4, 3, 2, 1, dt());
  EXPECT_TRUE(matches(out, want, os, dt(), kScale));
  // A transposed out: a [3,2] tensor viewed as [2,3].
  Tensor base, tv;
  const Shape bs{3, 2};
  CTS_ASSERT_OK(kf_empty(bs.data(), 2, dt(), dev(), base.put()));
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, tv.put()));
  CTS_ASSERT_OK(kf_addmm_out(ts.get(), ta.get(), tb.get(), num(dt(), 2), one(), tv.get()));
  EXPECT_TRUE(matches(tv, want, os, dt(), kScale));
  // Wrong out shape: refused.
  Tensor bad;
  CTS_ASSERT_OK(kf_empty(bs.data(), 2, dt(), dev(), bad.put()));
  EXPECT_EQ(kf_addmm_out(ts.get(), ta.get(), tb.get(), one(), one(), bad.get()),
            KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find("addmm"), std::string::npos);
}

TEST_P(Addmm, IntegerOverflowWraps) {
  if (!is_int(dt())) GTEST_SKIP() << "integer dtypes only";
  // 100 * 3 + 100 * 3 = 600, plus 2 * 100: beyond int8/uint8, wraps as two's complement.
  const Values a = {100, 100}, b = {3, 3}, s = {100};
  Tensor ts = make(s, {1, 1}), ta = make(a, {1, 2}), tb = make(b, {2, 1}), r;
  CTS_ASSERT_OK(kf_addmm(ts.get(), ta.get(), tb.get(), num(dt(), 2), one(), r.put()));
  EXPECT_TRUE(matches(r, Values{wrap_to(dt(), 800)}, {1, 1}, dt()));
}

void expect_refused(kf_status_t s, const char* what) {
  EXPECT_EQ(s, KF_INVALID_ARGUMENT) << what;
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("addmm"), std::string::npos) << what << ": " << msg;
}

TEST_P(AddmmAny, InvalidShapesAreRefused) {
  Tensor s = make(Values(6, 1.0), {2, 3}, KF_FLOAT32), a = make(Values(8, 1.0), {2, 4}, KF_FLOAT32);
  Tensor b = make(Values(12, 1.0), {4, 3}, KF_FLOAT32), v = make(Values(4, 1.0), {4}, KF_FLOAT32);
  Tensor b_bad = make(Values(15, 1.0), {5, 3}, KF_FLOAT32);
  Tensor s_bad = make(Values(9, 1.0), {3, 3}, KF_FLOAT32);
  Tensor s_big = make(Values(12, 1.0), {2, 2, 3}, KF_FLOAT32);
  Tensor r;
  expect_refused(kf_addmm(s.get(), v.get(), b.get(), one(), one(), r.put()), "1-D mat1");
  expect_refused(kf_addmm(s.get(), a.get(), v.get(), one(), one(), r.put()), "1-D mat2");
  expect_refused(kf_addmm(s.get(), a.get(), b_bad.get(), one(), one(), r.put()), "inner sizes");
  expect_refused(kf_addmm(s_bad.get(), a.get(), b.get(), one(), one(), r.put()), "self [3,3]");
  expect_refused(kf_addmm(s_big.get(), a.get(), b.get(), one(), one(), r.put()), "self 3-D");
  EXPECT_FALSE(r) << "no result on failure";
  EXPECT_EQ(kf_addmm(s.get(), a.get(), b_bad.get(), one(), one(), r.put()), KF_INVALID_ARGUMENT);
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("[2, 4]"), std::string::npos) << "the shapes are named: " << msg;
}

TEST_P(AddmmAny, MixedDtypesAreRefused) {
  Tensor s = make(Values(4, 1.0), {2, 2}, KF_FLOAT64), a = make(Values(4, 1.0), {2, 2}, KF_FLOAT32);
  Tensor b = make(Values(4, 1.0), {2, 2}, KF_FLOAT32);
  Tensor b64 = make(Values(4, 1.0), {2, 2}, KF_FLOAT64);
  Tensor r;
  expect_refused(kf_addmm(s.get(), a.get(), b.get(), one(), one(), r.put()), "self float64");
  expect_refused(kf_addmm(s.get(), a.get(), b64.get(), one(), one(), r.put()), "mats differ");
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("float32"), std::string::npos) << msg;
  EXPECT_NE(msg.find("float64"), std::string::npos) << msg;
  Tensor bs = make(Values(4, 1.0), {2, 2}, KF_BOOL);
  expect_refused(kf_addmm(bs.get(), bs.get(), bs.get(), one(), one(), r.put()), "bool");
}

TEST_P(AddmmAny, FloatScalarsWithIntegerInputsAreRefused) {
  Tensor s = make(Values(4, 1.0), {2, 2}, KF_INT32), a = make(Values(4, 1.0), {2, 2}, KF_INT32);
  Tensor r;
  expect_refused(kf_addmm(s.get(), a.get(), a.get(), kf_scalar_f64(0.5), one(), r.put()), "beta");
  EXPECT_NE(std::string(kf_last_error_message()).find("beta"), std::string::npos);
  expect_refused(kf_addmm(s.get(), a.get(), a.get(), one(), kf_scalar_f64(2.0), r.put()), "alpha");
  EXPECT_NE(std::string(kf_last_error_message()).find("alpha"), std::string::npos);
  // Integer scalars are fine.
  CTS_EXPECT_OK(kf_addmm(s.get(), a.get(), a.get(), kf_scalar_i64(2), kf_scalar_i64(3), r.put()));
  EXPECT_TRUE(matches(r, Values(4, 2 + 3 * 2), {2, 2}, KF_INT32));
}

CTS_INSTANTIATE(Addmm, params_all_numeric());
CTS_INSTANTIATE(AddmmAny, params_any());

}  // namespace
}  // namespace cts
