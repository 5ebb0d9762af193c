// CTS: floor, ceil, trunc, round (half to even, with decimals), sign, clamp: every numeric dtype
// (integers are the identity for floor/ceil/trunc/round), bool refused (sign keeps it), special
// values (NaN, inf, -0), clamp's bounds (one, both, min > max, NaN, Python-number promotion,
// out of an integer dtype's range), strided inputs, 0-dim, empty, out= into a non-contiguous
// out and in-place forms.
#include <cstdint>

#include "cts_pointwise.hpp"

namespace cts {
namespace {

class Rounding : public CtsTest {};       // backend x every floating dtype
class RoundingInt : public CtsTest {};    // backend x every integer dtype
class RoundingMixed : public CtsTest {};  // backend only: bool, errors

using UnaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t*);
using UnaryOutFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t);
using UnaryInplaceFn = kf_status_t (*)(kf_tensor_t);

double ref_sign(double x) { return std::isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }
double ref_round(double x, int64_t d) {
  if (d == 0) return std::nearbyint(x);
  const double p = std::pow(10.0, static_cast<double>(d < 0 ? -d : d));
  return d < 0 ? std::nearbyint(x / p) * p : std::nearbyint(x * p) / p;
}
double ref_clamp(double x, const double* lo, const double* hi) {
  if ((lo && std::isnan(*lo)) || (hi && std::isnan(*hi))) return NAN;
  double v = x;
  if (lo && v < *lo) v = *lo;
  if (hi && v > *hi) v = *hi;
  return v;
}

kf_status_t round0(kf_tensor_t t, kf_tensor_t* out) { return kf_round(t, 0, out); }
kf_status_t round0_out(kf_tensor_t t, kf_tensor_t out) { return kf_round_out(t, 0, out); }
kf_status_t round0_(kf_tensor_t t) { return kf_round_(t, 0); }

struct RoundOp {
  const char* name;
  UnaryFn fn;
  UnaryOutFn out;
  UnaryInplaceFn inplace;
  double (*ref)(double);
};

const RoundOp kOps[] = {
    {"floor", kf_floor, kf_floor_out, kf_floor_, [](double x) { return std::floor(x); }},
    {"ceil", kf_ceil, kf_ceil_out, kf_ceil_, [](double x) { return std::ceil(x); }},
    {"trunc", kf_trunc, kf_trunc_out, kf_trunc_, [](double x) { return std::trunc(x); }},
    {"round", round0, round0_out, round0_, [](double x) { return std::nearbyint(x); }},
    {"sign", kf_sign, kf_sign_out, kf_sign_, ref_sign},
};

TEST_P(Rounding, Values) {
  const double nan = std::nan("");
  const Values v{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -1.75, -0.25, 0.25, 1.75, 3.75, -3,
                 nan,  INFINITY, -INFINITY, -0.0, 0.0, 1000};
  const Values in = stored(v, dt());
  const Shape s{3, 6};
  for (const RoundOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor t = make(v, s), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, map_values(in, op.ref), s, dt()));
  }
  // Spelled out: half to even, and sign(NaN) = NaN (the array API standard's; PyTorch gives 0).
  Tensor t = make(v, s), r, g;
  CTS_ASSERT_OK(kf_round(t.get(), 0, r.put()));
  CTS_ASSERT_OK(kf_sign(t.get(), g.put()));
  const Values rv = to_host_double(r), gv = to_host_double(g);
  ASSERT_EQ(rv.size(), 18u);
  ASSERT_EQ(gv.size(), 18u);
  EXPECT_EQ(rv[0], -2.0);
  EXPECT_EQ(rv[1], -2.0);
  EXPECT_EQ(rv[3], 0.0);
  EXPECT_EQ(rv[5], 2.0);
  EXPECT_TRUE(std::isnan(gv[12])) << "sign(NaN) is NaN";
  EXPECT_TRUE(gv[15] == 0.0 && !std::signbit(gv[15])) << "sign(-0.0) is +0";
  EXPECT_EQ(gv[13], 1.0);
  EXPECT_EQ(gv[14], -1.0);
}

TEST_P(Rounding, RoundDecimals) {
  const Values v{1.25, 2.75, -1.25, 12.5, 0.375, -3.5};
  const Values in = stored(v, dt());
  for (int64_t d : {1, 2, -1, -2}) {
    SCOPED_TRACE("decimals " + std::to_string(d));
    Tensor t = make(v, {6}), r;
    CTS_ASSERT_OK(kf_round(t.get(), d, r.put()));
    EXPECT_TRUE(matches(r, map_values(in, [d](double x) { return ref_round(x, d); }), {6},
                        dt()));
  }
  // Negative decimals round to tens and hundreds, half to even: -150 -> -200, 250 -> 200.
  const Values w{1234.5, -150, 250, 49, 51, -0.0};
  Tensor t = make(w, {6}), r;
  CTS_ASSERT_OK(kf_round(t.get(), -2, r.put()));
  EXPECT_TRUE(matches(r, map_values(stored(w, dt()), [](double x) { return ref_round(x, -2); }),
                      {6}, dt()));
  const Values rv = to_host_double(r);
  ASSERT_EQ(rv.size(), 6u);
  EXPECT_EQ(rv[1], -200.0);
  EXPECT_EQ(rv[2], 200.0);
  // decimals = 1: 0.375 * 10 = 3.75 -> 4 -> 0.4; in place too.
  Tensor u = make(Values{0.375, 12.5}, {2});
  CTS_ASSERT_OK(kf_round_(u.get(), 1));
  EXPECT_TRUE(matches(u, Values{0.4, 12.5}, {2}, dt()));
}

TEST_P(Rounding, StridedOutInplaceZeroDimEmpty) {
  const Values bv{-1.5, 0.25, 2.5, -0.75, 3.25, 1.5};
  const Values tv = stored(gather_strided(bv, 0, {3, 2}, {1, 3}), dt());
  for (const RoundOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor hold, t = transposed_input(bv, 2, 3, dt(), dev(), hold), r;  // [3,2]
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    const Values want = map_values(tv, op.ref);
    EXPECT_TRUE(matches(r, want, {3, 2}, dt()));
    Tensor base, out = transposed_out(3, 2, dt(), dev(), base);
    CTS_ASSERT_OK(op.out(t.get(), out.get()));
    EXPECT_TRUE(matches(out, want, {3, 2}, dt()));
    EXPECT_TRUE(matches(base, gather_strided(want, 0, {2, 3}, {1, 2}), {2, 3}, dt()));
    CTS_ASSERT_OK(op.inplace(t.get()));
    EXPECT_TRUE(matches(hold, gather_strided(want, 0, {2, 3}, {1, 2}), {2, 3}, dt()));
    Tensor z = make(Values{-2.5}, {}), rz, e = make(Values{}, {0, 4}), re;
    CTS_ASSERT_OK(op.fn(z.get(), rz.put()));
    EXPECT_TRUE(matches(rz, Values{op.ref(-2.5)}, {}, dt()));
    CTS_ASSERT_OK(op.fn(e.get(), re.put()));
    EXPECT_EQ(re.shape(), (Shape{0, 4}));
    EXPECT_EQ(re.dtype(), dt());
  }
}

// ------------------------------------------------------------------ clamp

struct Bounds {
  const char* what;
  const kf_scalar_t* lo;
  const kf_scalar_t* hi;
  const double* dlo;
  const double* dhi;
};

TEST_P(Rounding, ClampFloat) {
  const double nan = std::nan("");
  const Values v{-3, -1, 0, 0.5, 2, 5, nan, -INFINITY, INFINITY};
  const Values in = stored(v, dt());
  const kf_scalar_t m1 = kf_scalar_i64(-1), p2 = kf_scalar_f64(2), h = kf_scalar_f64(0.5),
                    z = kf_scalar_i64(0), three = kf_scalar_i64(3), one_s = kf_scalar_i64(1),
                    n = kf_scalar_f64(nan), ninf = kf_scalar_f64(-INFINITY),
                    pinf = kf_scalar_f64(INFINITY);
  const double dm1 = -1, dp2 = 2, dh = 0.5, dz = 0, d3 = 3, d1 = 1, dn = nan, dni = -INFINITY,
               dpi = INFINITY;
  const Bounds cases[] = {
      {"[-1, 2]", &m1, &p2, &dm1, &dp2},      {"[0.5, None]", &h, nullptr, &dh, nullptr},
      {"[None, 0]", nullptr, &z, nullptr, &dz}, {"min > max", &three, &one_s, &d3, &d1},
      {"NaN min", &n, &p2, &dn, &dp2},        {"NaN max", nullptr, &n, nullptr, &dn},
      {"infinite", &ninf, &pinf, &dni, &dpi},
  };
  for (const Bounds& b : cases) {
    SCOPED_TRACE(b.what);
    Tensor t = make(v, {9}), r;
    CTS_ASSERT_OK(kf_clamp(t.get(), b.lo, b.hi, r.put()));
    EXPECT_TRUE(matches(r, map_values(in, [&](double x) { return ref_clamp(x, b.dlo, b.dhi); }),
                        {9}, dt()));
  }
  // Spelled out: min > max gives max (NaN stays NaN); a NaN bound gives NaN everywhere.
  Tensor t = make(v, {9}), r1, r2;
  CTS_ASSERT_OK(kf_clamp(t.get(), &three, &one_s, r1.put()));
  EXPECT_TRUE(matches(r1, Values{1, 1, 1, 1, 1, 1, nan, 1, 1}, {9}, dt()));
  CTS_ASSERT_OK(kf_clamp(t.get(), &n, nullptr, r2.put()));
  EXPECT_TRUE(matches(r2, Values(9, nan), {9}, dt()));
}

TEST_P(Rounding, ClampStridedOutInplace) {
  const Values bv{-2, 0.25, 2.5, -0.75, 3.25, 1.5};
  const Values tv = stored(gather_strided(bv, 0, {3, 2}, {1, 3}), dt());
  const kf_scalar_t lo = kf_scalar_f64(-0.5), hi = kf_scalar_i64(2);
  const double dlo = -0.5, dhi = 2;
  const Values want = map_values(tv, [&](double x) { return ref_clamp(x, &dlo, &dhi); });
  Tensor hold, t = transposed_input(bv, 2, 3, dt(), dev(), hold), r;
  CTS_ASSERT_OK(kf_clamp(t.get(), &lo, &hi, r.put()));
  EXPECT_TRUE(matches(r, want, {3, 2}, dt()));
  Tensor base, out = transposed_out(3, 2, dt(), dev(), base);
  CTS_ASSERT_OK(kf_clamp_out(t.get(), &lo, &hi, out.get()));
  EXPECT_TRUE(matches(out, want, {3, 2}, dt()));
  EXPECT_TRUE(matches(base, gather_strided(want, 0, {2, 3}, {1, 2}), {2, 3}, dt()));
  CTS_ASSERT_OK(kf_clamp_(t.get(), &lo, &hi));
  EXPECT_TRUE(matches(hold, gather_strided(want, 0, {2, 3}, {1, 2}), {2, 3}, dt()));
  Tensor z = make(Values{7}, {}), rz, e = make(Values{}, {3, 0}), re;
  CTS_ASSERT_OK(kf_clamp(z.get(), nullptr, &hi, rz.put()));
  EXPECT_TRUE(matches(rz, Values{2}, {}, dt()));
  CTS_ASSERT_OK(kf_clamp(e.get(), &lo, nullptr, re.put()));
  EXPECT_EQ(re.shape(), (Shape{3, 0}));
  EXPECT_EQ(re.dtype(), dt());
  // Large, over threads.
  const Values big = iota(200 * 400, -4, 0.0001);
  Tensor tb = make(big, {200, 400}), rb;
  CTS_ASSERT_OK(kf_clamp(tb.get(), &lo, &hi, rb.put()));
  EXPECT_TRUE(matches(rb, map_values(stored(big, dt()),
                                     [&](double x) { return ref_clamp(x, &dlo, &dhi); }),
                      {200, 400}, dt()));
}

// ------------------------------------------------------------------ integers

TEST_P(RoundingInt, IdentityAndSign) {
  const bool u8 = dt() == KF_UINT8;
  const Values v = u8 ? Values{0, 1, 7, 200, 255, 3} : Values{-128, -3, 0, 1, 7, 127};
  for (const RoundOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor t = make(v, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, map_values(v, op.ref), {2, 3}, dt()));
    CTS_ASSERT_OK(op.inplace(t.get()));
    EXPECT_TRUE(matches(t, map_values(v, op.ref), {2, 3}, dt()));
  }
  Tensor t = make(v, {2, 3}), r;
  EXPECT_TRUE(is_invalid(kf_round(t.get(), 1, r.put()), "round"));
  EXPECT_TRUE(is_invalid(kf_round(t.get(), -1, r.put()), "round"));
  EXPECT_TRUE(is_invalid(kf_round_(t.get(), 2), "round"));
}

TEST_P(RoundingInt, Clamp) {
  const Values v{0, 1, 5, 7, 100, 3};
  const kf_scalar_t lo = kf_scalar_i64(2), hi = kf_scalar_i64(50), big = kf_scalar_i64(60),
                    small = kf_scalar_i64(10), half = kf_scalar_f64(2.5),
                    t_ = kf_scalar_bool(true);
  Tensor t = make(v, {2, 3}), r1, r2, r3, r4;
  CTS_ASSERT_OK(kf_clamp(t.get(), &lo, &hi, r1.put()));
  EXPECT_TRUE(matches(r1, Values{2, 2, 5, 7, 50, 3}, {2, 3}, dt()));
  CTS_ASSERT_OK(kf_clamp(t.get(), &big, &small, r2.put()));
  EXPECT_TRUE(matches(r2, Values(6, 10), {2, 3}, dt())) << "min > max gives max";
  // A float bound makes the result float32 (a Python float against an integer tensor).
  CTS_ASSERT_OK(kf_clamp(t.get(), &half, nullptr, r3.put()));
  EXPECT_TRUE(matches(r3, Values{2.5, 2.5, 5, 7, 100, 3}, {2, 3}, KF_FLOAT32));
  // A bool bound keeps the dtype (true is 1).
  CTS_ASSERT_OK(kf_clamp(t.get(), &t_, nullptr, r4.put()));
  EXPECT_TRUE(matches(r4, Values{1, 1, 5, 7, 100, 3}, {2, 3}, dt()));
  // In place with int bounds; refused with a float bound (float32 can't be cast back).
  CTS_ASSERT_OK(kf_clamp_(t.get(), nullptr, &hi));
  EXPECT_TRUE(matches(t, Values{0, 1, 5, 7, 50, 3}, {2, 3}, dt()));
  EXPECT_TRUE(is_invalid(kf_clamp_(t.get(), &half, nullptr), "clamp"));
  // The dtype's extremes as bounds are accepted; one beyond them is refused.
  const bool u8 = dt() == KF_UINT8;
  const int64_t lowest = u8 ? 0 : dt() == KF_INT8 ? INT8_MIN : dt() == KF_INT16 ? INT16_MIN
                                 : dt() == KF_INT32 ? INT32_MIN : INT64_MIN;
  const int64_t highest = u8 ? UINT8_MAX : dt() == KF_INT8 ? INT8_MAX : dt() == KF_INT16
                                 ? INT16_MAX : dt() == KF_INT32 ? INT32_MAX : INT64_MAX;
  const kf_scalar_t l = kf_scalar_i64(lowest), h = kf_scalar_i64(highest);
  Tensor r5, r6;
  CTS_ASSERT_OK(kf_clamp(t.get(), &l, &h, r5.put()));
  EXPECT_TRUE(matches(r5, Values{0, 1, 5, 7, 50, 3}, {2, 3}, dt()));
  if (dt() != KF_INT64) {
    const kf_scalar_t beyond = kf_scalar_i64(highest + 1), below = kf_scalar_i64(lowest - 1);
    EXPECT_TRUE(is_invalid(kf_clamp(t.get(), nullptr, &beyond, r6.put()), "clamp"));
    EXPECT_TRUE(is_invalid(kf_clamp(t.get(), &below, nullptr, r6.put()), "clamp"));
  }
}

TEST_P(RoundingMixed, BoolAndInvalidArguments) {
  Tensor b = make(Values{1, 0, 1}, {3}, KF_BOOL), r;
  EXPECT_TRUE(is_invalid(kf_floor(b.get(), r.put()), "floor"));
  EXPECT_TRUE(is_invalid(kf_ceil(b.get(), r.put()), "ceil"));
  EXPECT_TRUE(is_invalid(kf_round(b.get(), 0, r.put()), "round"));
  const kf_scalar_t one_s = kf_scalar_i64(1);
  EXPECT_TRUE(is_invalid(kf_clamp(b.get(), &one_s, nullptr, r.put()), "clamp"));
  // sign keeps bool.
  Tensor s;
  CTS_ASSERT_OK(kf_sign(b.get(), s.put()));
  EXPECT_TRUE(matches(s, Values{1, 0, 1}, {3}, KF_BOOL));
  // clamp needs a bound.
  Tensor f = make(Values{1, 2}, {2}, KF_FLOAT32);
  EXPECT_TRUE(is_invalid(kf_clamp(f.get(), nullptr, nullptr, r.put()), "clamp"));
  EXPECT_TRUE(is_invalid(kf_clamp_(f.get(), nullptr, nullptr), "clamp"));
  // A float16 tensor with a float bound stays float16 (a Python float does not widen it).
  Tensor hf = make(Values{0.25, 4}, {2}, KF_FLOAT16), rh;
  const kf_scalar_t hi = kf_scalar_f64(1.5);
  CTS_ASSERT_OK(kf_clamp(hf.get(), nullptr, &hi, rh.put()));
  EXPECT_TRUE(matches(rh, Values{0.25, 1.5}, {2}, KF_FLOAT16));
  // round of a float into an int out: the result type float32 can't be cast.
  Tensor io = empty_tensor({2}, KF_INT32, dev());
  EXPECT_TRUE(is_invalid(kf_floor_out(f.get(), io.get()), "floor"));
  // A float64 out of an int32 floor: converted on store.
  Tensor i = make(Values{-3, 4}, {2}, KF_INT32), fo = empty_tensor({2}, KF_FLOAT64, dev());
  CTS_ASSERT_OK(kf_floor_out(i.get(), fo.get()));
  EXPECT_TRUE(matches(fo, Values{-3, 4}, {2}, KF_FLOAT64));
}

CTS_INSTANTIATE(Rounding, params_all_float());
CTS_INSTANTIATE(RoundingInt, params_all_int());
CTS_INSTANTIATE(RoundingMixed, params_any());

}  // namespace
}  // namespace cts
