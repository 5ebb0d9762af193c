// CTS: pointwise binary ops (add, sub, mul, div, eq, lt, gt, where): broadcasting, type
// promotion, strided inputs, _out and in-place variants.
#include "cts_util.hpp"

namespace cts {
namespace {

// Inputs are the values as the case's dtype stores them (in(): magnitudes for uint8), so each
// reference sees what the backend sees; integer results wrap (round_to), as in PyTorch.
class Binary : public CtsTest {};      // backend x every dtype but bool
class BinaryWrap : public CtsTest {};  // backend x every integer dtype: overflow
class BinaryFloat : public CtsTest {};  // backend x {f32, f64, f16, bf16}: NaN, inf, overflow
class Promotion : public CtsTest {};   // backend only: mixed dtypes

const Values kA0{1, -2, 3, 4, 5, -6};
const Values kB0{2, 3, -1, 0, 7, 1};

kf_dtype_t div_dtype(kf_dtype_t d) { return is_float(d) ? d : KF_FLOAT32; }
const auto kLess = [](double x, double y) { return x < y ? 1.0 : 0.0; };
const auto kGreater = [](double x, double y) { return x > y ? 1.0 : 0.0; };
const auto kEqual = [](double x, double y) { return x == y ? 1.0 : 0.0; };

/** where(c, s, o) of same-shape values. */
Values ref_where(const Values& c, const Values& s, const Values& o) {
  Values out(c.size());
  for (size_t i = 0; i < c.size(); ++i) out[i] = c[i] != 0 ? s[i] : o[i];
  return out;
}

TEST_P(Binary, AddAlpha) {
  CTS_REQUIRE(dt(), "add");
  const Values kA = in(kA0), kB = in(kB0);
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3}), r, r1;
  const bool fl = is_float(dt());
  const double alpha = fl ? 0.5 : 2.0;
  CTS_ASSERT_OK(kf_add(a.get(), b.get(), fl ? kf_scalar_f64(0.5) : kf_scalar_i64(2), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(kA, {2, 3}, kB, {2, 3},
                                    [&](double x, double y) { return x + alpha * y; }, nullptr),
                      {2, 3}, dt()));
  CTS_ASSERT_OK(kf_add(a.get(), b.get(), one(), r1.put()));
  EXPECT_TRUE(matches(r1, ref_binary(kA, {2, 3}, kB, {2, 3},
                                     [](double x, double y) { return x + y; }, nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, SubAlpha) {
  CTS_REQUIRE(dt(), "sub");
  const Values kA = in(kA0), kB = in(kB0);
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3}), r;
  CTS_ASSERT_OK(kf_sub(a.get(), b.get(), kf_scalar_i64(3), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(kA, {2, 3}, kB, {2, 3},
                                    [](double x, double y) { return x - 3 * y; }, nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, Mul) {
  CTS_REQUIRE(dt(), "mul");
  const Values kA = in(kA0), kB = in(kB0);
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3}), r;
  CTS_ASSERT_OK(kf_mul(a.get(), b.get(), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(kA, {2, 3}, kB, {2, 3},
                                    [](double x, double y) { return x * y; }, nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, DivTrueDivision) {
  CTS_REQUIRE(div_dtype(dt()), "div");
  const Values a = in({-7, 6, 5, 0, 9, -3}), b = in({2, 4, -2, 3, 1, 5});
  Tensor ta = make(a, {2, 3}), tb = make(b, {2, 3}), r;
  CTS_ASSERT_OK(kf_div(ta.get(), tb.get(), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(a, {2, 3}, b, {2, 3},
                                    [](double x, double y) { return x / y; }, nullptr),
                      {2, 3}, div_dtype(dt())));
}

TEST_P(Binary, Compare) {
  CTS_REQUIRE(dt(), "eq", "lt", "gt");
  const Values a = in({1, 2, 3, -4, 5, 6}), b = in({1, 3, 2, -4, 0, 7});
  Tensor ta = make(a, {2, 3}), tb = make(b, {2, 3}), e, l, g;
  CTS_ASSERT_OK(kf_eq(ta.get(), tb.get(), e.put()));
  CTS_ASSERT_OK(kf_lt(ta.get(), tb.get(), l.put()));
  CTS_ASSERT_OK(kf_gt(ta.get(), tb.get(), g.put()));
  EXPECT_TRUE(matches(e, Values{1, 0, 0, 1, 0, 0}, {2, 3}, KF_BOOL));
  EXPECT_TRUE(matches(l, Values{0, 1, 0, 0, 0, 1}, {2, 3}, KF_BOOL));
  EXPECT_TRUE(matches(g, Values{0, 0, 1, 0, 1, 0}, {2, 3}, KF_BOOL));
  // Values that only compare right in the dtype's own range (no wrap to another sign or size).
  const Values hi = in({100, -100, 120, 0.5, 127, -128}), lo = in({99, -99, 121, 0.25, 126, -127});
  Tensor th = make(hi, {6}), tl = make(lo, {6}), l2, g2, e2;
  CTS_ASSERT_OK(kf_lt(th.get(), tl.get(), l2.put()));
  CTS_ASSERT_OK(kf_gt(th.get(), tl.get(), g2.put()));
  CTS_ASSERT_OK(kf_eq(th.get(), tl.get(), e2.put()));
  EXPECT_TRUE(matches(l2, ref_binary(hi, {6}, lo, {6}, kLess, nullptr), {6}, KF_BOOL));
  EXPECT_TRUE(matches(g2, ref_binary(hi, {6}, lo, {6}, kGreater, nullptr), {6}, KF_BOOL));
  EXPECT_TRUE(matches(e2, ref_binary(hi, {6}, lo, {6}, kEqual, nullptr), {6}, KF_BOOL));
}

TEST_P(Binary, WhereBroadcast) {
  CTS_REQUIRE(dt(), "where");
  const Values kA = in(kA0);
  Tensor c = make(Values{1, 0, 1, 0, 0, 1}, {2, 3}, KF_BOOL);
  Tensor s = make(kA, {2, 3}), o = make(Values{10, 20, 30}, {3}), r;
  CTS_ASSERT_OK(kf_where(c.get(), s.get(), o.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{kA[0], 20, kA[2], 10, 20, kA[5]}, {2, 3}, dt()));
  // condition [3,1] against self [1,2]: output [3,2].
  const double m1 = in({-1})[0];
  Tensor c2 = make(Values{0, 1, 1}, {3, 1}, KF_BOOL), s2 = make(Values{7, 8}, {1, 2}),
         o2 = make(Values{m1}, {}), r2;
  CTS_ASSERT_OK(kf_where(c2.get(), s2.get(), o2.get(), r2.put()));
  EXPECT_TRUE(matches(r2, Values{m1, m1, 7, 8, 7, 8}, {3, 2}, dt()));
}

TEST_P(Binary, Broadcast3x1With1x4) {
  CTS_REQUIRE(dt(), "add", "mul", "sub", "gt");
  const Values a{1, 2, 3}, b{10, 20, 30, 40};
  Tensor ta = make(a, {3, 1}), tb = make(b, {1, 4}), add, mul, sub, gt;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), one(), add.put()));
  CTS_ASSERT_OK(kf_mul(ta.get(), tb.get(), mul.put()));
  CTS_ASSERT_OK(kf_sub(tb.get(), ta.get(), one(), sub.put()));
  CTS_ASSERT_OK(kf_gt(ta.get(), make(Values{0, 1, 2, 3}, {1, 4}).get(), gt.put()));
  Shape os;
  EXPECT_TRUE(matches(add, ref_binary(a, {3, 1}, b, {1, 4}, std::plus<double>(), &os), os, dt()));
  EXPECT_EQ(os, (Shape{3, 4}));
  EXPECT_TRUE(matches(mul, ref_binary(a, {3, 1}, b, {1, 4}, std::multiplies<double>(), nullptr),
                      {3, 4}, dt()));
  EXPECT_TRUE(matches(sub, ref_binary(b, {1, 4}, a, {3, 1}, std::minus<double>(), nullptr),
                      {3, 4}, dt()));
  EXPECT_TRUE(matches(gt, ref_binary(a, {3, 1}, {0, 1, 2, 3}, {1, 4},
                                     [](double x, double y) { return x > y ? 1.0 : 0.0; },
                                     nullptr),
                      {3, 4}, KF_BOOL));
}

TEST_P(Binary, ZeroDimWith2x3) {
  CTS_REQUIRE(dt(), "add", "mul");
  CTS_REQUIRE(div_dtype(dt()), "div");
  const Values kA = in(kA0);
  Tensor s = make(Values{2}, {}), t = make(kA, {2, 3}), r1, r2, r3;
  CTS_ASSERT_OK(kf_add(s.get(), t.get(), one(), r1.put()));
  CTS_ASSERT_OK(kf_mul(t.get(), s.get(), r2.put()));
  CTS_ASSERT_OK(kf_div(t.get(), s.get(), r3.put()));
  EXPECT_TRUE(matches(r1, ref_binary({2}, {}, kA, {2, 3}, std::plus<double>(), nullptr), {2, 3},
                      dt()));
  EXPECT_TRUE(matches(r2, ref_binary(kA, {2, 3}, {2}, {}, std::multiplies<double>(), nullptr),
                      {2, 3}, dt()));
  EXPECT_TRUE(matches(r3, ref_binary(kA, {2, 3}, {2}, {}, std::divides<double>(), nullptr),
                      {2, 3}, div_dtype(dt())));
}

TEST_P(Binary, Broadcast3D) {
  CTS_REQUIRE(dt(), "add");
  const Values a = in(iota(6, -2)), b{1, 2, 3, 4};
  Tensor ta = make(a, {2, 1, 3}), tb = make(b, {4, 1}), r;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), kf_scalar_i64(2), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(a, {2, 1, 3}, b, {4, 1},
                                    [](double x, double y) { return x + 2 * y; }, nullptr),
                      {2, 4, 3}, dt()));
}

TEST_P(Binary, ZeroDimBoth) {
  CTS_REQUIRE(dt(), "add");
  const double b5 = in({-5})[0];
  Tensor a = make(Values{3}, {}), b = make(Values{b5}, {}), r;
  CTS_ASSERT_OK(kf_add(a.get(), b.get(), one(), r.put()));
  EXPECT_TRUE(matches(r, Values{3 + b5}, {}, dt()));
  EXPECT_EQ(r.ndim(), 0);
}

TEST_P(Binary, EmptyTensors) {
  CTS_REQUIRE(dt(), "add", "mul");
  Tensor a = make(Values{}, {0, 3}), b = make(Values{1, 2, 3}, {3}), r, m;
  CTS_ASSERT_OK(kf_add(a.get(), b.get(), one(), r.put()));
  EXPECT_EQ(r.shape(), (Shape{0, 3}));
  EXPECT_EQ(r.numel(), 0);
  EXPECT_EQ(r.dtype(), dt());
  Tensor c = make(Values{}, {0}), s = make(Values{4}, {});
  CTS_ASSERT_OK(kf_mul(c.get(), s.get(), m.put()));
  EXPECT_EQ(m.shape(), (Shape{0}));
}

TEST_P(Binary, StridedInputs) {
  // t: transpose of a [3,2] base -> [2,3], strides [1,2]. s: [2,6] sliced with step 2 -> [2,3].
  CTS_REQUIRE(dt(), "add", "mul", "lt");
  const Values base1 = iota(6, 1), base2 = in(iota(12, -5));
  Tensor b1 = make(base1, {3, 2}), b2 = make(base2, {2, 6}), t, s;
  CTS_ASSERT_OK(kf_transpose(b1.get(), 0, 1, t.put()));
  const int64_t start = 0, end = 6;
  CTS_ASSERT_OK(kf_slice(b2.get(), 1, &start, &end, 2, s.put()));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_FALSE(s.is_contiguous());
  const Values tv = gather_strided(base1, 0, {2, 3}, {1, 2});
  const Values sv = gather_strided(base2, 0, {2, 3}, {6, 2});
  Tensor r, m, c;
  CTS_ASSERT_OK(kf_add(t.get(), s.get(), one(), r.put()));
  CTS_ASSERT_OK(kf_mul(s.get(), t.get(), m.put()));
  CTS_ASSERT_OK(kf_lt(t.get(), s.get(), c.put()));
  EXPECT_TRUE(matches(r, ref_binary(tv, {2, 3}, sv, {2, 3}, std::plus<double>(), nullptr), {2, 3},
                      dt()));
  EXPECT_TRUE(matches(m, ref_binary(sv, {2, 3}, tv, {2, 3}, std::multiplies<double>(), nullptr),
                      {2, 3}, dt()));
  EXPECT_TRUE(matches(c, ref_binary(tv, {2, 3}, sv, {2, 3},
                                    kLess, nullptr),
                      {2, 3}, KF_BOOL));
  // An expanded (stride 0) input.
  Tensor row = make(Values{1, 2, 3}, {3}), ex, r2;
  const Shape es{2, 3};
  CTS_ASSERT_OK(kf_expand(row.get(), es.data(), 2, ex.put()));
  CTS_ASSERT_OK(kf_add(ex.get(), t.get(), one(), r2.put()));
  EXPECT_TRUE(matches(r2, ref_binary({1, 2, 3}, {3}, tv, {2, 3}, std::plus<double>(), nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, OutVariants) {
  CTS_REQUIRE(dt(), "add", "mul", "sub", "gt");
  CTS_REQUIRE(div_dtype(dt()), "div");
  const Values kA = in(kA0), kB = in(kB0);
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3}), out, bout;
  const Shape s{2, 3};
  CTS_ASSERT_OK(kf_empty(s.data(), 2, dt(), dev(), out.put()));
  const char* before = out.data();
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), kf_scalar_i64(2), out.get()));
  EXPECT_TRUE(matches(out, ref_binary(kA, s, kB, s, [](double x, double y) { return x + 2 * y; },
                                      nullptr), s, dt()));
  EXPECT_EQ(out.data(), before) << "add_out must write into the given storage";
  CTS_ASSERT_OK(kf_mul_out(a.get(), b.get(), out.get()));
  EXPECT_TRUE(matches(out, ref_binary(kA, s, kB, s, std::multiplies<double>(), nullptr), s, dt()));
  CTS_ASSERT_OK(kf_sub_out(a.get(), b.get(), one(), out.get()));
  EXPECT_TRUE(matches(out, ref_binary(kA, s, kB, s, std::minus<double>(), nullptr), s, dt()));
  CTS_ASSERT_OK(kf_empty(s.data(), 2, KF_BOOL, dev(), bout.put()));
  CTS_ASSERT_OK(kf_gt_out(a.get(), b.get(), bout.get()));
  EXPECT_TRUE(matches(bout, ref_binary(kA, s, kB, s, kGreater, nullptr), s, KF_BOOL));
  Tensor dout;
  const Values dv = in({2, 4, 1, 8, -5, 3});
  CTS_ASSERT_OK(kf_empty(s.data(), 2, div_dtype(dt()), dev(), dout.put()));
  CTS_ASSERT_OK(kf_div_out(a.get(), make(dv, s).get(), dout.get()));
  EXPECT_TRUE(matches(dout, ref_binary(kA, s, dv, s, std::divides<double>(), nullptr), s,
                      div_dtype(dt())));
}

TEST_P(Binary, OutNonContiguous) {
  CTS_REQUIRE(dt(), "zeros", "add", "where");
  const Values kA = in(kA0), kB = in(kB0);
  // out is the transpose of a [3,2] base; writing it must land in the base transposed.
  const Shape bs{3, 2};
  Tensor base, outT;
  CTS_ASSERT_OK(kf_zeros(bs.data(), 2, dt(), dev(), base.put()));
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, outT.put()));
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3});
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), one(), outT.get()));
  const Values sum = ref_binary(kA, {2, 3}, kB, {2, 3}, std::plus<double>(), nullptr);
  EXPECT_TRUE(matches(outT, sum, {2, 3}, dt()));
  EXPECT_EQ(outT.strides(), (Shape{1, 2})) << "out must keep its layout";
  EXPECT_TRUE(matches(base, gather_strided(sum, 0, {3, 2}, {1, 3}), bs, dt()));
  // where_out into a non-contiguous out.
  Tensor c = make(Values{1, 0, 0, 1, 1, 0}, {2, 3}, KF_BOOL);
  CTS_ASSERT_OK(kf_where_out(c.get(), a.get(), b.get(), outT.get()));
  EXPECT_TRUE(matches(outT, ref_where({1, 0, 0, 1, 1, 0}, kA, kB), {2, 3}, dt()));
}

TEST_P(Binary, OutAliasesAnInput) {
  // out is self: the same as the in-place op.
  CTS_REQUIRE(dt(), "add", "mul");
  const Values kA = in(kA0), kB = in(kB0);
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3});
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), one(), a.get()));
  EXPECT_TRUE(matches(a, ref_binary(kA, {2, 3}, kB, {2, 3}, std::plus<double>(), nullptr),
                      {2, 3}, dt()));
  CTS_ASSERT_OK(kf_mul_out(b.get(), b.get(), b.get()));
  EXPECT_TRUE(matches(b, ref_binary(kB, {2, 3}, kB, {2, 3}, std::multiplies<double>(), nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, InplaceOnTransposedView) {
  CTS_REQUIRE(dt(), "add");
  const Values kB = in(kB0);
  const Values bv = iota(6, 1);
  Tensor base = make(bv, {3, 2}), t;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));
  const Values tv = gather_strided(bv, 0, {2, 3}, {1, 2});
  Tensor other = make(kB, {2, 3});
  const char* before = t.data();
  CTS_ASSERT_OK(kf_add_(t.get(), other.get(), kf_scalar_i64(2)));
  const Values want = ref_binary(tv, {2, 3}, kB, {2, 3},
                                 [](double x, double y) { return x + 2 * y; }, nullptr);
  EXPECT_TRUE(matches(t, want, {2, 3}, dt()));
  EXPECT_EQ(t.data(), before);
  EXPECT_EQ(t.strides(), (Shape{1, 2}));
  EXPECT_TRUE(matches(base, gather_strided(want, 0, {3, 2}, {1, 3}), {3, 2}, dt()))
      << "writing through the transposed view must change the base";
}

TEST_P(Binary, InplaceVariants) {
  CTS_REQUIRE(dt(), "mul", "sub");
  const Values kA = in(kA0);
  Tensor a = make(kA, {2, 3}), row = make(Values{1, 2, 3}, {3});
  CTS_ASSERT_OK(kf_mul_(a.get(), row.get()));  // other broadcasts to self
  Values want = ref_binary(kA, {2, 3}, {1, 2, 3}, {3}, std::multiplies<double>(), nullptr);
  EXPECT_TRUE(matches(a, want, {2, 3}, dt()));
  CTS_ASSERT_OK(kf_sub_(a.get(), make(Values{1}, {}).get(), kf_scalar_i64(2)));
  for (double& x : want) x = round_to(dt(), x - 2);
  EXPECT_TRUE(matches(a, want, {2, 3}, dt()));
  if (is_float(dt())) {
    CTS_ASSERT_OK(kf_div_(a.get(), make(Values{4}, {}).get()));
    for (double& x : want) x /= 4;
    EXPECT_TRUE(matches(a, want, {2, 3}, dt()));
  }
}

// ------------------------------------------------------------------ floats: NaN, inf, overflow

TEST_P(BinaryFloat, NanInfinityAndOverflow) {
  // big + big overflows every floating dtype to inf (float16 at 65504); NaN propagates and
  // compares false; inf - inf and 0 / 0 are NaN.
  CTS_REQUIRE(dt(), "add", "sub", "mul", "div", "eq", "lt", "gt");
  const double big = dt() == KF_FLOAT16 ? 60000 : dt() == KF_FLOAT64 ? 1e308 : 3e38;
  const double nan = std::nan(""), inf = INFINITY;
  const Values a = in({big, nan, inf, -inf, 1, 0}), b = in({big, 1, 1, inf, nan, 0});
  Tensor ta = make(a, {6}), tb = make(b, {6}), add, sub, mul, div, eq, lt, gt;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), one(), add.put()));
  CTS_ASSERT_OK(kf_sub(ta.get(), tb.get(), one(), sub.put()));
  CTS_ASSERT_OK(kf_mul(ta.get(), tb.get(), mul.put()));
  CTS_ASSERT_OK(kf_div(ta.get(), tb.get(), div.put()));
  CTS_ASSERT_OK(kf_eq(ta.get(), tb.get(), eq.put()));
  CTS_ASSERT_OK(kf_lt(ta.get(), tb.get(), lt.put()));
  CTS_ASSERT_OK(kf_gt(ta.get(), tb.get(), gt.put()));
  EXPECT_TRUE(matches(add, Values{inf, nan, inf, nan, nan, 0}, {6}, dt()));
  EXPECT_TRUE(matches(sub, Values{0, nan, inf, -inf, nan, 0}, {6}, dt()));
  EXPECT_TRUE(matches(mul, Values{inf, nan, inf, -inf, nan, 0}, {6}, dt()));
  EXPECT_TRUE(matches(div, Values{1, nan, inf, nan, nan, nan}, {6}, dt()));
  EXPECT_TRUE(matches(eq, Values{1, 0, 0, 0, 0, 1}, {6}, KF_BOOL));
  EXPECT_TRUE(matches(lt, Values{0, 0, 0, 1, 0, 0}, {6}, KF_BOOL));
  EXPECT_TRUE(matches(gt, Values{0, 0, 1, 0, 0, 0}, {6}, KF_BOOL));
}

// ------------------------------------------------------------------ integer overflow

struct IntRange { double lo, hi; };
IntRange range_of(kf_dtype_t d) {
  switch (d) {
    case KF_INT8: return {-128, 127};
    case KF_UINT8: return {0, 255};
    case KF_INT16: return {-32768, 32767};
    case KF_INT32: return {-2147483648.0, 2147483647.0};
    default: return {-9223372036854775808.0, 9223372036854775807.0};
  }
}

TEST_P(BinaryWrap, AddSubMulWrapAround) {
  // PyTorch: integer add/sub/mul wrap (two's complement): int8 127 + 1 = -128, uint8 0 - 1 = 255.
  if (dt() == KF_INT64) GTEST_SKIP() << "int64 extremes are not exact in the double reference";
  CTS_REQUIRE(dt(), "add", "sub", "mul");
  const IntRange r = range_of(dt());
  const Values a{r.hi, r.lo, r.hi, r.lo, 0, r.hi}, b{1, 1, r.hi, -1, 1, 2};
  Tensor ta = make(a, {6}), tb = make(b, {6}), add, sub, mul, sub0;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), one(), add.put()));
  CTS_ASSERT_OK(kf_sub(ta.get(), tb.get(), one(), sub.put()));
  CTS_ASSERT_OK(kf_mul(ta.get(), tb.get(), mul.put()));
  Values want_add(6), want_sub(6), want_mul(6);
  for (size_t i = 0; i < 6; ++i) {
    const double bi = round_to(dt(), b[i]);  // uint8 stores -1 as 255
    want_add[i] = wrap_int(dt(), a[i] + bi);
    want_sub[i] = wrap_int(dt(), a[i] - bi);
    // The product's low 32 bits, exactly (a double would round a 62-bit product).
    const uint64_t p = static_cast<uint64_t>(static_cast<int64_t>(a[i])) *
                       static_cast<uint64_t>(static_cast<int64_t>(bi));
    want_mul[i] = wrap_int(dt(), static_cast<double>(p & 0xffffffffu));
  }
  EXPECT_TRUE(matches(add, want_add, {6}, dt()));
  EXPECT_TRUE(matches(sub, want_sub, {6}, dt()));
  EXPECT_TRUE(matches(mul, want_mul, {6}, dt()));
  // The textbook cases, spelled out.
  const Values got_add = to_host_double(add), got_sub = to_host_double(sub);
  ASSERT_EQ(got_add.size(), 6u);
  EXPECT_EQ(got_add[0], r.lo) << "max + 1 wraps to min";
  EXPECT_EQ(got_sub[1], r.hi) << "min - 1 wraps to max";
  if (dt() == KF_UINT8) {
    EXPECT_EQ(got_sub[4], 255) << "uint8 0 - 1 is 255";
  }
}

TEST_P(BinaryWrap, LiteralCases) {
  CTS_REQUIRE(dt(), "add", "sub", "mul");
  struct Case { kf_dtype_t d; double a, b, add, sub, mul; };
  const Case cases[] = {
      {KF_INT8, 127, 1, -128, 126, 127},      {KF_INT8, -128, 1, -127, 127, -128},
      {KF_INT8, 100, 3, 103, 97, 44},         {KF_INT8, 64, 2, 66, 62, -128},
      {KF_UINT8, 0, 1, 1, 255, 0},            {KF_UINT8, 255, 1, 0, 254, 255},
      {KF_UINT8, 16, 16, 32, 0, 0},           {KF_UINT8, 200, 2, 202, 198, 144},
      {KF_INT16, 32767, 1, -32768, 32766, 32767}, {KF_INT16, 300, 300, 600, 0, 24464},
      {KF_INT32, 2147483647, 1, -2147483648.0, 2147483646, 2147483647},
      {KF_INT32, 65536, 65536, 131072, 0, 0},
  };
  int n = 0;
  for (const Case& c : cases) {
    if (c.d != dt()) continue;
    ++n;
    SCOPED_TRACE(std::to_string(c.a) + " and " + std::to_string(c.b));
    Tensor a = make(Values{c.a}, {}), b = make(Values{c.b}, {}), s, d, m;
    CTS_ASSERT_OK(kf_add(a.get(), b.get(), one(), s.put()));
    CTS_ASSERT_OK(kf_sub(a.get(), b.get(), one(), d.put()));
    CTS_ASSERT_OK(kf_mul(a.get(), b.get(), m.put()));
    EXPECT_TRUE(matches(s, Values{c.add}, {}, dt()));
    EXPECT_TRUE(matches(d, Values{c.sub}, {}, dt()));
    EXPECT_TRUE(matches(m, Values{c.mul}, {}, dt()));
  }
  if (n == 0) GTEST_SKIP() << "no literal case for " << dtype_str(dt());
}

TEST_P(BinaryWrap, AlphaWrapsToo) {
  // add(a, b, alpha): a + alpha * b computed in the dtype, so it wraps like the dtype.
  CTS_REQUIRE(dt(), "add", "sub");
  const Values a = in({100, 5, 0}), b = in({50, 60, 1});
  Tensor ta = make(a, {3}), tb = make(b, {3}), r, s;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), kf_scalar_i64(3), r.put()));
  CTS_ASSERT_OK(kf_sub(ta.get(), tb.get(), kf_scalar_i64(3), s.put()));
  Values wa(3), ws(3);
  for (size_t i = 0; i < 3; ++i) {
    wa[i] = wrap_int(dt(), a[i] + 3 * b[i]);
    ws[i] = wrap_int(dt(), a[i] - 3 * b[i]);
  }
  EXPECT_TRUE(matches(r, wa, {3}, dt()));
  EXPECT_TRUE(matches(s, ws, {3}, dt()));
}

TEST_P(BinaryWrap, IntegerDivisionIsTrueDivisionInFloat32) {
  CTS_REQUIRE(KF_FLOAT32, "div");
  const double hi = dt() == KF_INT64 ? 1099511627776.0 : range_of(dt()).hi;
  const Values a = in({7, -7, hi, 1, 0, -3}), b = in({2, 2, 1, 3, 0, 0});
  Tensor ta = make(a, {6}), tb = make(b, {6}), q;
  CTS_ASSERT_OK(kf_div(ta.get(), tb.get(), q.put()));
  EXPECT_TRUE(matches(q, ref_binary(a, {6}, b, {6}, std::divides<double>(), nullptr), {6},
                      KF_FLOAT32));
}

// ------------------------------------------------------------------ type promotion

void expect_binary(kf_device_t dev, const char* what, kf_status_t st, const Tensor& r,
                   const Values& want, const Shape& shape, kf_dtype_t dtype) {
  ASSERT_EQ(st, KF_OK) << what << ": " << status_text(st);
  EXPECT_TRUE(matches(r, want, shape, dtype)) << what;
  EXPECT_EQ(r.device().type, dev.type) << what;
}

TEST_P(Promotion, NarrowIntegerPromotion) {
  // PyTorch's table: int8 + uint8 is int16, uint8 + int16 is int16, int8 + int16 is int16,
  // uint8 + bool is uint8; an int with a float16/bfloat16 is that float; f16 + bf16 is f32.
  struct Case { kf_dtype_t a, b, want; };
  const Case cases[] = {
      {KF_INT8, KF_UINT8, KF_INT16},     {KF_UINT8, KF_INT16, KF_INT16},
      {KF_INT8, KF_INT16, KF_INT16},     {KF_UINT8, KF_BOOL, KF_UINT8},
      {KF_INT8, KF_FLOAT16, KF_FLOAT16}, {KF_INT16, KF_BFLOAT16, KF_BFLOAT16},
      {KF_FLOAT16, KF_BFLOAT16, KF_FLOAT32}, {KF_UINT8, KF_INT64, KF_INT64},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(dtype_str(c.a) + " + " + dtype_str(c.b));
    const Values va = representable(c.a, {1, 100, 0}), vb = representable(c.b, {1, 100, 1});
    Tensor a = make(va, {3}, c.a), b = make(vb, {3}, c.b), r;
    expect_binary(dev(), "add", kf_add(a.get(), b.get(), one(), r.put()), r,
                  ref_binary(va, {3}, vb, {3}, std::plus<double>(), nullptr), {3}, c.want);
  }
}

TEST_P(Promotion, Int8PlusUint8DoesNotWrap) {
  // The sum is computed in int16: 127 + 255 = 382 (each input alone would wrap).
  Tensor a = make(Values{127, -128}, {2}, KF_INT8), b = make(Values{255, 255}, {2}, KF_UINT8);
  Tensor r;
  expect_binary(dev(), "i8+u8", kf_add(a.get(), b.get(), one(), r.put()), r, Values{382, 127},
                {2}, KF_INT16);
}

TEST_P(Promotion, ZeroDimNarrowIntKeepsTheTensorsDtype) {
  // A 0-dim int64 does not widen an int8 tensor: the result is int8 and wraps.
  Tensor t = make(Values{100, -100}, {2}, KF_INT8), s = make(Values{100}, {}, KF_INT64), r;
  expect_binary(dev(), "i8[2] + 0-dim i64", kf_add(t.get(), s.get(), one(), r.put()), r,
                Values{-56, 0}, {2}, KF_INT8);
}

TEST_P(Promotion, BoolCompareWhereAndDiv) {
  // bool operands: comparisons give bool, where of bools is bool, div is true division in
  // float32 (1 / 0 is inf, 0 / 0 NaN), as in PyTorch.
  Tensor a = make(Values{1, 1, 0, 0}, {4}, KF_BOOL), b = make(Values{1, 0, 1, 0}, {4}, KF_BOOL);
  Tensor e, l, g, w, d;
  expect_binary(dev(), "eq", kf_eq(a.get(), b.get(), e.put()), e, Values{1, 0, 0, 1}, {4},
                KF_BOOL);
  expect_binary(dev(), "lt", kf_lt(a.get(), b.get(), l.put()), l, Values{0, 0, 1, 0}, {4},
                KF_BOOL);
  expect_binary(dev(), "gt", kf_gt(a.get(), b.get(), g.put()), g, Values{0, 1, 0, 0}, {4},
                KF_BOOL);
  expect_binary(dev(), "where", kf_where(a.get(), a.get(), b.get(), w.put()), w,
                Values{1, 1, 1, 0}, {4}, KF_BOOL);
  expect_binary(dev(), "div", kf_div(a.get(), b.get(), d.put()), d,
                Values{1, INFINITY, 0, NAN}, {4}, KF_FLOAT32);
}

TEST_P(Promotion, Int32PlusFloat32IsFloat32) {
  Tensor a = make(Values{1, 2, 3}, {3}, KF_INT32), b = make(Values{0.5, 1.5, -2}, {3}, KF_FLOAT32);
  Tensor r;
  expect_binary(dev(), "i32+f32", kf_add(a.get(), b.get(), one(), r.put()), r,
                Values{1.5, 3.5, 1}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, Int32PlusInt64IsInt64) {
  Tensor a = make(Values{1, 2, 3}, {3}, KF_INT32), b = make(Values{10, 20, 30}, {3}, KF_INT64);
  Tensor r;
  expect_binary(dev(), "i32+i64", kf_add(a.get(), b.get(), one(), r.put()), r,
                Values{11, 22, 33}, {3}, KF_INT64);
}

TEST_P(Promotion, BoolPlusBoolIsBool) {
  Tensor a = make(Values{1, 1, 0, 0}, {4}, KF_BOOL), b = make(Values{1, 0, 1, 0}, {4}, KF_BOOL);
  Tensor r, m;
  expect_binary(dev(), "bool+bool", kf_add(a.get(), b.get(), one(), r.put()), r,
                Values{1, 1, 1, 0}, {4}, KF_BOOL);
  expect_binary(dev(), "bool*bool", kf_mul(a.get(), b.get(), m.put()), m, Values{1, 0, 0, 0},
                {4}, KF_BOOL);
}

TEST_P(Promotion, ZeroDimFloat64PlusFloat32TensorIsFloat32) {
  Tensor s = make(Values{0.1}, {}, KF_FLOAT64), t = make(Values{1, 2, 3}, {3}, KF_FLOAT32);
  Tensor r;
  expect_binary(dev(), "0-dim f64 + f32[3]", kf_add(s.get(), t.get(), one(), r.put()), r,
                Values{1.1, 2.1, 3.1}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, ZeroDimFloat32PlusInt32TensorIsFloat32) {
  Tensor s = make(Values{2.5}, {}, KF_FLOAT32), t = make(Values{1, 2, 3}, {3}, KF_INT32);
  Tensor r;
  expect_binary(dev(), "0-dim f32 + i32[3]", kf_add(s.get(), t.get(), one(), r.put()), r,
                Values{3.5, 4.5, 5.5}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, ZeroDimSameCategoryDoesNotWiden) {
  Tensor s = make(Values{5}, {}, KF_INT64), t = make(Values{1, 2, 3}, {3}, KF_INT32), r, r2;
  expect_binary(dev(), "i32[3] + 0-dim i64", kf_add(t.get(), s.get(), one(), r.put()), r,
                Values{6, 7, 8}, {3}, KF_INT32);
  Tensor f = make(Values{0.5, 1, 2}, {3}, KF_FLOAT32), i = make(Values{3}, {}, KF_INT64);
  expect_binary(dev(), "f32[3] * 0-dim i64", kf_mul(f.get(), i.get(), r2.put()), r2,
                Values{1.5, 3, 6}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, IntDivIntIsFloat32) {
  Tensor a = make(Values{7, -7, 1}, {3}, KF_INT64), b = make(Values{2, 2, 3}, {3}, KF_INT64);
  Tensor r;
  expect_binary(dev(), "i64/i64", kf_div(a.get(), b.get(), r.put()), r,
                Values{3.5, -3.5, 1.0 / 3.0}, {3}, KF_FLOAT32);
  Tensor c = make(Values{7, 9}, {2}, KF_INT32), d = make(Values{2}, {}, KF_INT32), r2;
  expect_binary(dev(), "i32/i32", kf_div(c.get(), d.get(), r2.put()), r2, Values{3.5, 4.5}, {2},
                KF_FLOAT32);
}

TEST_P(Promotion, IntDivByZeroIsIeee) {
  Tensor a = make(Values{1, -1, 0}, {3}, KF_INT32), z = make(Values{0, 0, 0}, {3}, KF_INT32), r;
  expect_binary(dev(), "i32/0", kf_div(a.get(), z.get(), r.put()), r,
                Values{INFINITY, -INFINITY, NAN}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, BoolTimesInt32IsInt32) {
  Tensor a = make(Values{1, 0, 1}, {3}, KF_BOOL), b = make(Values{4, 5, -6}, {3}, KF_INT32);
  Tensor r;
  expect_binary(dev(), "bool*i32", kf_mul(a.get(), b.get(), r.put()), r, Values{4, 0, -6}, {3},
                KF_INT32);
}

TEST_P(Promotion, CompareMixedDtypes) {
  Tensor a = make(Values{1, 2, 3}, {3}, KF_INT32), b = make(Values{1, 2.5, 3}, {3}, KF_FLOAT32);
  Tensor e, l;
  expect_binary(dev(), "eq(i32,f32)", kf_eq(a.get(), b.get(), e.put()), e, Values{1, 0, 1}, {3},
                KF_BOOL);
  expect_binary(dev(), "lt(i32,f32)", kf_lt(a.get(), b.get(), l.put()), l, Values{0, 1, 0}, {3},
                KF_BOOL);
}

TEST_P(Promotion, WhereMixedDtypes) {
  Tensor c = make(Values{1, 0}, {2}, KF_BOOL);
  Tensor f = make(Values{1.5, 2.5}, {2}, KF_FLOAT32), d = make(Values{-1, -2}, {2}, KF_FLOAT64);
  Tensor r, r2;
  expect_binary(dev(), "where(f32,f64)", kf_where(c.get(), f.get(), d.get(), r.put()), r,
                Values{1.5, -2}, {2}, KF_FLOAT64);
  // A 0-dim tensor of a higher category keeps its own dtype (unlike a Python number).
  Tensor i = make(Values{3, 4}, {2}, KF_INT32), s = make(Values{0.5}, {}, KF_FLOAT64);
  expect_binary(dev(), "where(i32, 0-dim f64)", kf_where(c.get(), i.get(), s.get(), r2.put()), r2,
                Values{3, 0.5}, {2}, KF_FLOAT64);
}

TEST_P(Promotion, OutOfWiderDtype) {
  // int32 + int32 into a float64 out: the result is cast on store (PyTorch allows it).
  Tensor a = make(Values{1, 2}, {2}, KF_INT32), b = make(Values{3, -4}, {2}, KF_INT32), out;
  const Shape s{2};
  CTS_ASSERT_OK(kf_empty(s.data(), 1, KF_FLOAT64, dev(), out.put()));
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), one(), out.get()));
  EXPECT_TRUE(matches(out, Values{4, -2}, s, KF_FLOAT64));
}

TEST_P(Promotion, InplaceKeepsSelfDtype) {
  // float32 self += int64 other: the result stays float32.
  Tensor a = make(Values{0.5, 1.5}, {2}, KF_FLOAT32), b = make(Values{1, 2}, {2}, KF_INT64);
  CTS_ASSERT_OK(kf_add_(a.get(), b.get(), one()));
  EXPECT_TRUE(matches(a, Values{1.5, 3.5}, {2}, KF_FLOAT32));
}

TEST_P(Binary, LargeBroadcastAndStrided) {
  // Large enough for the kernels to split the work over threads.
  CTS_REQUIRE(dt(), "add", "sub");
  const Values a = in(iota(512, -100)), b = in(iota(600, 3));
  Tensor ta = make(a, {512, 1}), tb = make(b, {1, 600}), r, t, r2;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), kf_scalar_i64(2), r.put()));
  const Values want = ref_binary(a, {512, 1}, b, {1, 600},
                                 [](double x, double y) { return x + 2 * y; }, nullptr);
  EXPECT_TRUE(matches(r, want, {512, 600}, dt()));
  CTS_ASSERT_OK(kf_transpose(r.get(), 0, 1, t.put()));  // [600,512] strided
  CTS_ASSERT_OK(kf_sub(t.get(), t.get(), one(), r2.put()));
  EXPECT_TRUE(matches(r2, Values(600 * 512, 0.0), {600, 512}, dt()));
}

CTS_INSTANTIATE(Binary, params_all_numeric());
CTS_INSTANTIATE(BinaryWrap, params_all_int());
CTS_INSTANTIATE(BinaryFloat, params_all_float());
CTS_INSTANTIATE(Promotion, params_any());

}  // namespace
}  // namespace cts
