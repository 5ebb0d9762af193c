// CTS: pow, maximum, minimum: every numeric dtype, broadcasting, integer pow by squaring with
// two's-complement wrapping and PyTorch's negative exponents, floating pow's IEEE special
// cases, NaN propagation of maximum/minimum, promotion, strided inputs, 0-dim, empty, out=
// into a non-contiguous out, in-place pow_, and bool pow refused.
#include <cstdint>

#include "cts_pointwise.hpp"

namespace cts {
namespace {

class PowMinMax : public CtsTest {};  // backend x every numeric dtype
class PowInt : public CtsTest {};     // backend x every integer dtype
class PowFloat : public CtsTest {};   // backend x every floating dtype
class PowMixed : public CtsTest {};   // backend only

double ref_max(double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y); }
double ref_min(double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::min(x, y); }

// Bases and exponents every numeric dtype holds, with results up to 81 (int8 and uint8 too).
const Values kBase{0, 1, 2, 3, 4, 9};
const Values kExp{2, 3, 0, 4, 3, 2};

TEST_P(PowMinMax, PowValues) {
  Tensor a = make(kBase, {2, 3}), b = make(kExp, {2, 3}), r;
  CTS_ASSERT_OK(kf_pow(a.get(), b.get(), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(kBase, {2, 3}, kExp, {2, 3},
                                    [](double x, double y) { return std::pow(x, y); }, nullptr),
                      {2, 3}, dt(), 4));
}

TEST_P(PowMinMax, PowBroadcastAndZeroDim) {
  // [3,1] ** [1,2] -> [3,2]; a 0-dim exponent; a 0-dim base.
  Tensor a = make(Values{1, 2, 3}, {3, 1}), b = make(Values{2, 3}, {1, 2}), r;
  CTS_ASSERT_OK(kf_pow(a.get(), b.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{1, 1, 4, 8, 9, 27}, {3, 2}, dt(), 4));
  Tensor e = make(Values{2}, {}), r2, r3;
  CTS_ASSERT_OK(kf_pow(a.get(), e.get(), r2.put()));
  EXPECT_TRUE(matches(r2, Values{1, 4, 9}, {3, 1}, dt(), 4));
  CTS_ASSERT_OK(kf_pow(e.get(), b.get(), r3.put()));
  EXPECT_TRUE(matches(r3, Values{4, 8}, {1, 2}, dt(), 4));
  Tensor s = make(Values{3}, {}), r4, r5, r6;
  CTS_ASSERT_OK(kf_pow(s.get(), e.get(), r4.put()));
  EXPECT_TRUE(matches(r4, Values{9}, {}, dt(), 4));
  // One exponent for all (0-dim, or expanded): 3 and 0.
  CTS_ASSERT_OK(kf_pow(a.get(), s.get(), r5.put()));
  EXPECT_TRUE(matches(r5, Values{1, 8, 27}, {3, 1}, dt(), 4));
  Tensor zero = make(Values{0}, {1}), ez;
  const Shape es{3, 1};
  CTS_ASSERT_OK(kf_expand(zero.get(), es.data(), 2, ez.put()));
  CTS_ASSERT_OK(kf_pow(a.get(), ez.get(), r6.put()));
  EXPECT_TRUE(matches(r6, Values{1, 1, 1}, {3, 1}, dt()));
}

TEST_P(PowMinMax, Empty) {
  Tensor e = make(Values{}, {0, 2}), b = make(Values{2, 3}, {2}), r, m;
  CTS_ASSERT_OK(kf_pow(e.get(), b.get(), r.put()));
  EXPECT_EQ(r.shape(), (Shape{0, 2}));
  EXPECT_EQ(r.dtype(), dt());
  CTS_ASSERT_OK(kf_maximum(b.get(), e.get(), m.put()));
  EXPECT_EQ(m.shape(), (Shape{0, 2}));
}

TEST_P(PowMinMax, StridedOutAndInplace) {
  Tensor hold, t = transposed_input({1, 2, 3, 0, 4, 2}, 3, 2, dt(), dev(), hold);  // [2,3]
  const Values tv = gather_strided({1, 2, 3, 0, 4, 2}, 0, {2, 3}, {1, 2});     // 1 3 4 2 0 2
  Tensor ex = make(Values{2, 3, 1}, {3}), base;
  Tensor out = transposed_out(2, 3, dt(), dev(), base);
  CTS_ASSERT_OK(kf_pow_out(t.get(), ex.get(), out.get()));
  const Values want = ref_binary(tv, {2, 3}, {2, 3, 1}, {3},
                                 [](double x, double y) { return std::pow(x, y); }, nullptr);
  EXPECT_TRUE(matches(out, want, {2, 3}, dt(), 4));
  EXPECT_TRUE(matches(base, gather_strided(want, 0, {3, 2}, {1, 3}), {3, 2}, dt(), 4));
  // In place on the transposed view: the base changes.
  CTS_ASSERT_OK(kf_pow_(t.get(), ex.get()));
  EXPECT_TRUE(matches(t, want, {2, 3}, dt(), 4));
  EXPECT_TRUE(matches(hold, gather_strided(want, 0, {3, 2}, {1, 3}), {3, 2}, dt(), 4));
  // out aliasing self exactly.
  Tensor a = make(Values{2, 3}, {2});
  CTS_ASSERT_OK(kf_pow_out(a.get(), a.get(), a.get()));
  EXPECT_TRUE(matches(a, Values{4, 27}, {2}, dt(), 4));
}

TEST_P(PowMinMax, MaximumMinimum) {
  const Values a{0, 5, 2, 7, 1, 3}, b{4, 5, 1, 9};  // [2,1,3] against [4,1]
  Tensor ta = make(a, {2, 1, 3}), tb = make(b, {4, 1}), mx, mn;
  CTS_ASSERT_OK(kf_maximum(ta.get(), tb.get(), mx.put()));
  CTS_ASSERT_OK(kf_minimum(tb.get(), ta.get(), mn.put()));
  EXPECT_TRUE(matches(mx, ref_binary(a, {2, 1, 3}, b, {4, 1}, ref_max, nullptr), {2, 4, 3}, dt()));
  EXPECT_TRUE(matches(mn, ref_binary(b, {4, 1}, a, {2, 1, 3}, ref_min, nullptr), {2, 4, 3}, dt()));
  // Strided inputs, a non-contiguous out, 0-dim.
  Tensor hold, t = transposed_input({3, 1, 4, 1, 5, 9}, 3, 2, dt(), dev(), hold);
  const Values tv = gather_strided({3, 1, 4, 1, 5, 9}, 0, {2, 3}, {1, 2});
  Tensor o = make(Values{2, 2, 6, 0, 8, 1}, {2, 3}), base;
  Tensor out = transposed_out(2, 3, dt(), dev(), base);
  CTS_ASSERT_OK(kf_minimum_out(t.get(), o.get(), out.get()));
  EXPECT_TRUE(matches(out, ref_binary(tv, {2, 3}, {2, 2, 6, 0, 8, 1}, {2, 3}, ref_min, nullptr),
                      {2, 3}, dt()));
  Tensor s = make(Values{4}, {}), r;
  CTS_ASSERT_OK(kf_maximum(s.get(), t.get(), r.put()));
  EXPECT_TRUE(matches(r, ref_binary({4}, {}, tv, {2, 3}, ref_max, nullptr), {2, 3}, dt()));
}

TEST_P(PowMinMax, LargeInputs) {
  // Enough elements for several threads; exponent broadcast from a column.
  const size_t n = 256 * 300;
  Values a(n);
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<double>(i % 5);
  Tensor ta = make(a, {256, 300}), te = make(Values{0, 1, 2, 1}, {4, 1, 1}), r, m;
  CTS_ASSERT_OK(kf_pow(ta.get(), te.get(), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(a, {256, 300}, {0, 1, 2, 1}, {4, 1, 1},
                                    [](double x, double y) { return std::pow(x, y); }, nullptr),
                      {4, 256, 300}, dt(), 4));
  Tensor tt;
  CTS_ASSERT_OK(kf_transpose(ta.get(), 0, 1, tt.put()));
  CTS_ASSERT_OK(kf_maximum(tt.get(), make(Values{2}, {}).get(), m.put()));
  EXPECT_TRUE(matches(m, map_values(gather_strided(a, 0, {300, 256}, {1, 300}),
                                    [](double x) { return std::max(x, 2.0); }),
                      {300, 256}, dt()));
}

// ------------------------------------------------------------------ integers

// base^exp in the dtype's two's complement: exact mod 2^64, then truncated to the width.
double wrap_pow(kf_dtype_t d, int64_t base, int64_t exp) {
  if (exp < 0) return base == 1 ? 1 : base == -1 ? ((exp & 1) ? -1 : 1) : 0;
  uint64_t r = 1;
  for (int64_t i = 0; i < exp; ++i) r *= static_cast<uint64_t>(base);
  switch (d) {
    case KF_INT8: return static_cast<int8_t>(static_cast<uint8_t>(r));
    case KF_UINT8: return static_cast<uint8_t>(r);
    case KF_INT16: return static_cast<int16_t>(static_cast<uint16_t>(r));
    case KF_INT32: return static_cast<int32_t>(static_cast<uint32_t>(r));
    default: return static_cast<double>(static_cast<int64_t>(r));
  }
}

TEST_P(PowInt, WrapsOnOverflow) {
  // 3^5 = 243 (int8: -13), 2^7 = 128 (int8: -128), 5^20 and 3^41 overflow every width,
  // 7^0 = 1, 0^0 = 1, 2^64 = 0 mod 2^64.
  const std::vector<int64_t> base{3, 2, 5, 3, 7, 0, 2, 11};
  const std::vector<int64_t> exps{5, 7, 20, 41, 0, 0, 64, 13};
  Values vb, ve, want;
  for (size_t i = 0; i < base.size(); ++i) {
    vb.push_back(static_cast<double>(base[i]));
    ve.push_back(static_cast<double>(exps[i]));
    want.push_back(wrap_pow(dt(), base[i], exps[i]));
  }
  Tensor a = make(vb, {8}), b = make(ve, {8}), r;
  CTS_ASSERT_OK(kf_pow(a.get(), b.get(), r.put()));
  const Values got = to_host_double(r);
  ASSERT_EQ(r.dtype(), dt());
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << base[i] << "^" << exps[i];
  }
  if (dt() == KF_INT8) {
    EXPECT_EQ(got[0], -13.0) << "int8 3^5 wraps to -13";
  }
}

TEST_P(PowInt, NegativeExponent) {
  if (dt() == KF_UINT8) GTEST_SKIP() << "uint8 has no negative exponent";
  // 1^-1 = 1, (-1)^-1 = -1, (-1)^-2 = 1, 2^-1 = 0, 0^-2 = 0 (no error), (-3)^-3 = 0.
  Tensor a = make(Values{1, -1, -1, 2, 0, -3}, {6}), b = make(Values{-1, -1, -2, -1, -2, -3}, {6});
  Tensor r;
  CTS_ASSERT_OK(kf_pow(a.get(), b.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{1, -1, 1, 0, 0, 0}, {6}, dt()));
  // A single (0-dim) negative exponent; a 0-dim 2 squares with wrapping (int8 100^2 = 16).
  Tensor m1 = make(Values{-1}, {}), two = make(Values{2}, {}), r3, r4;
  CTS_ASSERT_OK(kf_pow(a.get(), m1.get(), r3.put()));
  EXPECT_TRUE(matches(r3, Values{1, -1, -1, 0, 0, 0}, {6}, dt()));
  Tensor h = make(Values{100, -3, 0}, {3});
  CTS_ASSERT_OK(kf_pow(h.get(), two.get(), r4.put()));
  EXPECT_TRUE(matches(r4, Values{wrap_pow(dt(), 100, 2), 9, 0}, {3}, dt()));
  // Negative bases with positive exponents.
  Tensor c = make(Values{-2, -3, -1}, {3}), e = make(Values{3, 2, 5}, {3}), r2;
  CTS_ASSERT_OK(kf_pow(c.get(), e.get(), r2.put()));
  EXPECT_TRUE(matches(r2, Values{-8, 9, -1}, {3}, dt()));
}

// ------------------------------------------------------------------ floating point

TEST_P(PowFloat, FractionsAndSpecialValues) {
  const double nan = std::nan("");
  const Values a{2, -8, 0, nan, 1, 0, INFINITY, -2, 4, 0.5, -0.0, 2};
  const Values b{0.5, 1.0 / 3, 0, 0, nan, -1, -1, 3, -0.5, 2, -1, INFINITY};
  Tensor ta = make(a, {12}), tb = make(b, {12}), r;
  CTS_ASSERT_OK(kf_pow(ta.get(), tb.get(), r.put()));
  const Values sa = stored(a, dt()), sb = stored(b, dt());
  EXPECT_TRUE(matches(r, ref_binary(sa, {12}, sb, {12},
                                    [](double x, double y) { return std::pow(x, y); }, nullptr),
                      {12}, dt(), 4));
  // Spelled out: (-8)^(1/3) is NaN, 0^0 = NaN^0 = 1^NaN = 1, 0^-1 = inf, (-0)^-1 = -inf.
  const Values got = to_host_double(r);
  ASSERT_EQ(got.size(), 12u);
  EXPECT_TRUE(std::isnan(got[1]));
  EXPECT_EQ(got[2], 1.0);
  EXPECT_EQ(got[3], 1.0);
  EXPECT_EQ(got[4], 1.0);
  EXPECT_EQ(got[5], INFINITY);
  EXPECT_EQ(got[10], -INFINITY);
  EXPECT_EQ(got[11], INFINITY);
}

TEST_P(PowFloat, SingleExponent) {
  // A 0-dim exponent: 2 (squaring), 0.5 and -1, over NaN, inf and negative bases.
  const double nan = std::nan("");
  const Values a{nan, INFINITY, -INFINITY, -3, 4, 0};
  Tensor t = make(a, {6});
  for (double y : {2.0, 0.5, -1.0}) {
    SCOPED_TRACE("exponent " + std::to_string(y));
    Tensor e = make(Values{y}, {}), r;
    CTS_ASSERT_OK(kf_pow(t.get(), e.get(), r.put()));
    EXPECT_TRUE(matches(r, map_values(a, [y](double x) { return std::pow(x, y); }), {6}, dt(),
                        4));
  }
}

TEST_P(PowFloat, MaximumMinimumPropagateNan) {
  const double nan = std::nan("");
  const Values a{nan, 1, nan, -INFINITY, 3, -0.5};
  const Values b{1, nan, nan, 3, INFINITY, -0.25};
  Tensor ta = make(a, {6}), tb = make(b, {6}), mx, mn;
  CTS_ASSERT_OK(kf_maximum(ta.get(), tb.get(), mx.put()));
  CTS_ASSERT_OK(kf_minimum(ta.get(), tb.get(), mn.put()));
  EXPECT_TRUE(matches(mx, Values{nan, nan, nan, 3, INFINITY, -0.25}, {6}, dt()));
  EXPECT_TRUE(matches(mn, Values{nan, nan, nan, -INFINITY, 3, -0.5}, {6}, dt()));
}

TEST_P(PowFloat, InplaceWithIntegerExponent) {
  // float self **= int64 exponent keeps self's dtype.
  Tensor a = make(Values{1.5, -2, 4}, {3}), e = make(Values{2, 3, -1}, {3}, KF_INT64);
  CTS_ASSERT_OK(kf_pow_(a.get(), e.get()));
  EXPECT_TRUE(matches(a, Values{2.25, -8, 0.25}, {3}, dt()));
}

// ------------------------------------------------------------------ promotion and errors

TEST_P(PowMixed, Promotion) {
  Tensor i = make(Values{4, 9, 2}, {3}, KF_INT32), f = make(Values{0.5, 0.5, -1}, {3}, KF_FLOAT32);
  Tensor r, r2, r3, r4;
  CTS_ASSERT_OK(kf_pow(i.get(), f.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{2, 3, 0.5}, {3}, KF_FLOAT32));
  // A 0-dim float64 exponent of a higher category gives float64.
  Tensor z = make(Values{0.5}, {}, KF_FLOAT64);
  CTS_ASSERT_OK(kf_pow(i.get(), z.get(), r2.put()));
  EXPECT_TRUE(matches(r2, Values{2, 3, std::sqrt(2.0)}, {3}, KF_FLOAT64));
  // bool base with an int64 exponent: int64 result (only an all-bool pow is refused).
  Tensor b = make(Values{1, 0, 1}, {3}, KF_BOOL), e = make(Values{3, 2, 0}, {3}, KF_INT64);
  CTS_ASSERT_OK(kf_pow(b.get(), e.get(), r3.put()));
  EXPECT_TRUE(matches(r3, Values{1, 0, 1}, {3}, KF_INT64));
  // maximum over int32 and float32 is float32; over bools it is or.
  CTS_ASSERT_OK(kf_maximum(i.get(), f.get(), r4.put()));
  EXPECT_TRUE(matches(r4, Values{4, 9, 2}, {3}, KF_FLOAT32));
  Tensor p = make(Values{1, 0, 0}, {3}, KF_BOOL), q = make(Values{0, 0, 1}, {3}, KF_BOOL), mx, mn;
  CTS_ASSERT_OK(kf_maximum(p.get(), q.get(), mx.put()));
  CTS_ASSERT_OK(kf_minimum(p.get(), q.get(), mn.put()));
  EXPECT_TRUE(matches(mx, Values{1, 0, 1}, {3}, KF_BOOL));
  EXPECT_TRUE(matches(mn, Values{0, 0, 0}, {3}, KF_BOOL));
}

TEST_P(PowMixed, IntegerPowIntoFloatOutStaysIntegerPow) {
  // The result type is int32, computed as integer pow (2^-1 = 0), then written as float64.
  Tensor a = make(Values{2, 3}, {2}, KF_INT32), e = make(Values{-1, 2}, {2}, KF_INT32);
  Tensor out = empty_tensor({2}, KF_FLOAT64, dev());
  CTS_ASSERT_OK(kf_pow_out(a.get(), e.get(), out.get()));
  EXPECT_TRUE(matches(out, Values{0, 9}, {2}, KF_FLOAT64));
}

TEST_P(PowMixed, InvalidArguments) {
  Tensor b = make(Values{1, 0}, {2}, KF_BOOL), r;
  EXPECT_TRUE(is_invalid(kf_pow(b.get(), b.get(), r.put()), "pow"));
  EXPECT_TRUE(is_invalid(kf_pow_(b.get(), b.get()), "pow"));
  // int self in place with a float exponent: float32 can't be cast to int64.
  Tensor i = make(Values{1, 2}, {2}, KF_INT64), f = make(Values{0.5, 0.5}, {2}, KF_FLOAT32);
  EXPECT_TRUE(is_invalid(kf_pow_(i.get(), f.get()), "pow"));
  // Shapes that do not broadcast; an out of the wrong shape.
  Tensor x = make(Values{1, 2, 3}, {3}, KF_FLOAT32), y = make(Values{1, 2}, {2}, KF_FLOAT32);
  EXPECT_TRUE(is_invalid(kf_pow(x.get(), y.get(), r.put()), "pow"));
  EXPECT_TRUE(is_invalid(kf_maximum(x.get(), y.get(), r.put()), "maximum"));
  EXPECT_TRUE(is_invalid(kf_minimum_out(x.get(), x.get(), y.get()), "minimum"));
}

CTS_INSTANTIATE(PowMinMax, params_all_numeric());
CTS_INSTANTIATE(PowInt, params_all_int());
CTS_INSTANTIATE(PowFloat, params_all_float());
CTS_INSTANTIATE(PowMixed, params_any());

}  // namespace
}  // namespace cts
