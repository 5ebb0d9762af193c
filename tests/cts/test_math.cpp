// CTS: rsqrt, sin, cos, erf, reciprocal: every dtype (integers and bool give float32),
// special values (0, -0, inf, NaN), strided inputs, 0-dim, empty, out= into a non-contiguous
// out, in-place forms (refused where float32 cannot be written back into an integer self).
#include "cts_pointwise.hpp"

namespace cts {
namespace {

class Math : public CtsTest {};       // backend x every dtype
class MathFloat : public CtsTest {};  // backend x every floating dtype

using UnaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t*);
using UnaryOutFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t);
using UnaryInplaceFn = kf_status_t (*)(kf_tensor_t);

struct MathOp {
  const char* name;
  UnaryFn fn;
  UnaryOutFn out;
  UnaryInplaceFn inplace;
  double (*ref)(double);
};

const MathOp kOps[] = {
    {"rsqrt", kf_rsqrt, kf_rsqrt_out, kf_rsqrt_, [](double x) { return 1.0 / std::sqrt(x); }},
    {"sin", kf_sin, kf_sin_out, kf_sin_, [](double x) { return std::sin(x); }},
    {"cos", kf_cos, kf_cos_out, kf_cos_, [](double x) { return std::cos(x); }},
    {"erf", kf_erf, kf_erf_out, kf_erf_, [](double x) { return std::erf(x); }},
    {"reciprocal", kf_reciprocal, kf_reciprocal_out, kf_reciprocal_,
     [](double x) { return 1.0 / x; }},
};

kf_dtype_t result_dtype(kf_dtype_t d) { return is_float(d) ? d : KF_FLOAT32; }

// Positive values every dtype holds (bool makes them all 1).
const Values kPos{1, 2, 3, 4, 5, 9};

TEST_P(Math, Functional) {
  const Values in = stored(kPos, dt());
  for (const MathOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor t = make(kPos, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, map_values(in, op.ref), {2, 3}, result_dtype(dt()), 4));
  }
}

TEST_P(Math, StridedZeroDimEmpty) {
  const Values base{1, 2, 3, 4, 5, 9};
  const Values tv = stored(gather_strided(base, 0, {3, 2}, {1, 3}), dt());
  for (const MathOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor hold, t = transposed_input(base, 2, 3, dt(), dev(), hold), r;  // [3,2]
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, map_values(tv, op.ref), {3, 2}, result_dtype(dt()), 4));
    Tensor s = make(Values{2}, {}), rs;
    CTS_ASSERT_OK(op.fn(s.get(), rs.put()));
    EXPECT_TRUE(matches(rs, Values{op.ref(round_to(dt(), 2))}, {}, result_dtype(dt()), 4));
    Tensor e = make(Values{}, {2, 0}), re;
    CTS_ASSERT_OK(op.fn(e.get(), re.put()));
    EXPECT_EQ(re.shape(), (Shape{2, 0}));
    EXPECT_EQ(re.dtype(), result_dtype(dt()));
  }
}

TEST_P(Math, OutNonContiguous) {
  const Values in = stored(kPos, dt());
  for (const MathOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor t = make(kPos, {2, 3}), base;
    Tensor out = transposed_out(2, 3, result_dtype(dt()), dev(), base);
    CTS_ASSERT_OK(op.out(t.get(), out.get()));
    const Values want = map_values(in, op.ref);
    EXPECT_TRUE(matches(out, want, {2, 3}, result_dtype(dt()), 4));
    EXPECT_TRUE(matches(base, gather_strided(want, 0, {3, 2}, {1, 3}), {3, 2},
                        result_dtype(dt()), 4));
    // An out of float64 takes any input (the result is converted on store).
    Tensor wide = empty_tensor({2, 3}, KF_FLOAT64, dev());
    CTS_ASSERT_OK(op.out(t.get(), wide.get()));
    EXPECT_TRUE(matches(wide, want, {2, 3}, KF_FLOAT64, is_float(dt()) ? 1e9 : 1e6));
  }
}

TEST_P(Math, Inplace) {
  const Values in = stored(kPos, dt());
  for (const MathOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor t = make(kPos, {2, 3});
    if (is_float(dt())) {
      CTS_ASSERT_OK(op.inplace(t.get()));
      EXPECT_TRUE(matches(t, map_values(in, op.ref), {2, 3}, dt(), 4));
    } else {
      // PyTorch: the float32 result can't be cast to an integer (or bool) self.
      EXPECT_TRUE(is_invalid(op.inplace(t.get()), op.name));
      EXPECT_TRUE(matches(t, in, {2, 3}, dt())) << "a refused call writes nothing";
    }
  }
}

TEST_P(MathFloat, NegativesAndFractions) {
  const Values v{-2.5, -1, -0.25, 0.5, 1.75, 3};
  const Values in = stored(v, dt());
  for (const MathOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor t = make(v, {6}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, map_values(in, op.ref), {6}, dt(), 4));
  }
}

TEST_P(MathFloat, SpecialValues) {
  const double nan = std::nan("");
  const Values v{0.0, -0.0, INFINITY, -INFINITY, nan, -1};
  // rsqrt: inf, -inf, 0, NaN, NaN, NaN. sin/cos of inf: NaN. erf: 0, -0, 1, -1, NaN.
  // reciprocal: inf, -inf, 0, -0, NaN, -1.
  for (const MathOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor t = make(v, {6}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, map_values(v, op.ref), {6}, dt(), 4));
  }
  Tensor t = make(v, {6}), rs, rc;
  CTS_ASSERT_OK(kf_rsqrt(t.get(), rs.put()));
  CTS_ASSERT_OK(kf_reciprocal(t.get(), rc.put()));
  const Values s = to_host_double(rs), c = to_host_double(rc);
  ASSERT_EQ(s.size(), 6u);
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(s[0], INFINITY);
  EXPECT_EQ(s[1], -INFINITY);
  EXPECT_TRUE(std::isnan(s[5]));
  EXPECT_EQ(c[1], -INFINITY);
  EXPECT_TRUE(std::signbit(c[3]) && c[3] == 0.0) << "1/-inf is -0";
}

TEST_P(MathFloat, InplaceOnViewAndLarge) {
  // In place on a column of a [2,3] tensor: only the column changes.
  const Values bv{0.5, 1, 2, 4, 0.25, 8};
  Tensor b = make(bv, {2, 3}), col;
  CTS_ASSERT_OK(kf_select(b.get(), 1, 2, col.put()));  // {2, 8}
  CTS_ASSERT_OK(kf_reciprocal_(col.get()));
  EXPECT_TRUE(matches(b, Values{0.5, 1, 0.5, 4, 0.25, 0.125}, {2, 3}, dt()));
  // A large transposed input, split over threads.
  const Values big = iota(400 * 250, -50, 0.001);
  Tensor tb = make(big, {400, 250}), t, r;
  CTS_ASSERT_OK(kf_transpose(tb.get(), 0, 1, t.put()));
  CTS_ASSERT_OK(kf_sin(t.get(), r.put()));
  const Values tv = stored(gather_strided(big, 0, {250, 400}, {1, 250}), dt());
  EXPECT_TRUE(matches(r, map_values(tv, [](double x) { return std::sin(x); }), {250, 400}, dt(),
                      8));
}

CTS_INSTANTIATE(Math, params_all());
CTS_INSTANTIATE(MathFloat, params_all_float());

}  // namespace
}  // namespace cts
