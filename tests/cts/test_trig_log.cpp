// CTS: tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, expm1, log1p, log2, log10 on the
// real dtypes: every dtype (integers and bool give float32) against a long double reference,
// values in and out of each domain, the special values (0, -0, inf, NaN), strided inputs, 0-dim,
// empty, out= into a non-contiguous out, in place (refused where float32 cannot be written back
// into an integer self). The complex dtypes: test_complex_functions.cpp.
#include "cts_pointwise.hpp"

namespace cts {
namespace {

class TrigLog : public CtsTest {};       // backend x every dtype
class TrigLogFloat : public CtsTest {};  // backend x every floating dtype

using UnaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t*);
using UnaryOutFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t);
using UnaryInplaceFn = kf_status_t (*)(kf_tensor_t);
using Wide = long double;

struct Op {
  const char* name;
  UnaryFn fn;
  UnaryOutFn out;
  UnaryInplaceFn inplace;
  Wide (*ref)(Wide);
  Values domain;  // values inside the domain, fractions included (floats only)
};

const Op kOps[] = {
    {"tan", kf_tan, kf_tan_out, kf_tan_, [](Wide x) { return std::tan(x); },
     {-1.5, -0.75, 0.25, 1, 1.25, 3}},
    {"asin", kf_asin, kf_asin_out, kf_asin_, [](Wide x) { return std::asin(x); },
     {-1, -0.75, -0.125, 0.25, 0.5, 1}},
    {"acos", kf_acos, kf_acos_out, kf_acos_, [](Wide x) { return std::acos(x); },
     {-1, -0.75, -0.125, 0.25, 0.5, 1}},
    {"atan", kf_atan, kf_atan_out, kf_atan_, [](Wide x) { return std::atan(x); },
     {-40, -1, -0.25, 0.5, 2, 1e6}},
    {"sinh", kf_sinh, kf_sinh_out, kf_sinh_, [](Wide x) { return std::sinh(x); },
     {-5, -1, -0.25, 0.5, 2, 8}},
    {"cosh", kf_cosh, kf_cosh_out, kf_cosh_, [](Wide x) { return std::cosh(x); },
     {-5, -1, -0.25, 0.5, 2, 8}},
    {"asinh", kf_asinh, kf_asinh_out, kf_asinh_, [](Wide x) { return std::asinh(x); },
     {-300, -1, -0.25, 0.5, 2, 1e4}},
    {"acosh", kf_acosh, kf_acosh_out, kf_acosh_, [](Wide x) { return std::acosh(x); },
     {1, 1.25, 2, 3.5, 10, 1e4}},
    {"atanh", kf_atanh, kf_atanh_out, kf_atanh_, [](Wide x) { return std::atanh(x); },
     {-0.875, -0.5, -0.125, 0.25, 0.5, 0.75}},
    {"expm1", kf_expm1, kf_expm1_out, kf_expm1_, [](Wide x) { return std::expm1(x); },
     {-8, -1, -0.001, 0.0001, 1, 8}},
    {"log1p", kf_log1p, kf_log1p_out, kf_log1p_, [](Wide x) { return std::log1p(x); },
     {-0.875, -0.25, -0.0001, 0.001, 1, 100}},
    {"log2", kf_log2, kf_log2_out, kf_log2_, [](Wide x) { return std::log2(x); },
     {0.125, 0.75, 1, 3, 8, 1000}},
    {"log10", kf_log10, kf_log10_out, kf_log10_, [](Wide x) { return std::log10(x); },
     {0.125, 0.75, 1, 3, 100, 1000}},
};

double ref_of(const Op& op, double x) { return static_cast<double>(op.ref(x)); }
Values reference(const Op& op, const Values& in) {
  return map_values(in, [&op](double x) { return ref_of(op, x); });
}
kf_dtype_t result_dtype(kf_dtype_t d) { return is_float(d) ? d : KF_FLOAT32; }

// Positive values every dtype holds (bool makes them all 1); some lie outside some domains
// (asin(2) is NaN), which the reference says too.
const Values kPos{1, 2, 3, 4, 5, 9};

TEST_P(TrigLog, Functional) {
  const Values in = stored(kPos, dt());
  for (const Op& op : kOps) {
    CTS_REQUIRE_IN_LOOP(result_dtype(dt()), op.name);
    SCOPED_TRACE(op.name);
    Tensor t = make(kPos, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, reference(op, in), {2, 3}, result_dtype(dt()), 4));
  }
}

TEST_P(TrigLog, StridedZeroDimEmpty) {
  const Values base{1, 2, 3, 4, 5, 9};
  const Values tv = stored(gather_strided(base, 0, {3, 2}, {1, 3}), dt());
  for (const Op& op : kOps) {
    CTS_REQUIRE_IN_LOOP(result_dtype(dt()), op.name);
    SCOPED_TRACE(op.name);
    Tensor hold, t = transposed_input(base, 2, 3, dt(), dev(), hold), r;  // [3,2]
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, reference(op, tv), {3, 2}, result_dtype(dt()), 4));
    Tensor s = make(Values{2}, {}), rs;
    CTS_ASSERT_OK(op.fn(s.get(), rs.put()));
    EXPECT_TRUE(matches(rs, Values{ref_of(op, round_to(dt(), 2))}, {}, result_dtype(dt()), 4));
    Tensor e = make(Values{}, {2, 0}), re;
    CTS_ASSERT_OK(op.fn(e.get(), re.put()));
    EXPECT_EQ(re.shape(), (Shape{2, 0}));
    EXPECT_EQ(re.dtype(), result_dtype(dt()));
  }
}

TEST_P(TrigLog, OutNonContiguousAndInplace) {
  const Values in = stored(kPos, dt());
  for (const Op& op : kOps) {
    CTS_REQUIRE_IN_LOOP(result_dtype(dt()), op.name);
    SCOPED_TRACE(op.name);
    const Values want = reference(op, in);
    Tensor t = make(kPos, {2, 3}), base;
    Tensor out = transposed_out(2, 3, result_dtype(dt()), dev(), base);
    CTS_ASSERT_OK(op.out(t.get(), out.get()));
    EXPECT_TRUE(matches(out, want, {2, 3}, result_dtype(dt()), 4));
    EXPECT_TRUE(matches(base, gather_strided(want, 0, {3, 2}, {1, 3}), {3, 2},
                        result_dtype(dt()), 4));
    if (is_float(dt())) {
      CTS_ASSERT_OK(op.inplace(t.get()));
      EXPECT_TRUE(matches(t, want, {2, 3}, dt(), 4));
    } else {
      EXPECT_TRUE(is_invalid(op.inplace(t.get()), op.name));
      EXPECT_TRUE(matches(t, in, {2, 3}, dt())) << "a refused call writes nothing";
    }
  }
}

TEST_P(TrigLogFloat, InsideTheDomain) {
  for (const Op& op : kOps) {
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    SCOPED_TRACE(op.name);
    const Values in = stored(op.domain, dt());
    Tensor t = make(op.domain, {6}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, reference(op, in), {6}, dt(), 4));
  }
}

TEST_P(TrigLogFloat, SpecialValues) {
  // The C library's answers, which the standard's special cases follow: asin(+-0) = +-0,
  // acos(1) = +0, atanh(+-1) = +-inf, acosh(inf) = inf, expm1(-inf) = -1, log1p(-1) = -inf,
  // log2(0) = -inf, log10(-1) = NaN, cosh(-inf) = inf, tan(inf) = NaN.
  const double nan = std::nan("");
  const Values v{0.0, -0.0, INFINITY, -INFINITY, nan, -1, 1};
  for (const Op& op : kOps) {
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    SCOPED_TRACE(op.name);
    Tensor t = make(v, {7}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    const Values want = reference(op, v), got = to_host_double(r);
    EXPECT_TRUE(matches(r, want, {7}, dt(), 4));
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < 2; ++i) {  // the sign of a zero result
      if (want[i] == 0.0) {
        EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << i;
      }
    }
  }
}

TEST_P(TrigLogFloat, LargeTransposedInput) {
  const Values big = iota(300 * 200, -0.999, 1.0 / 30000);  // inside every domain but acosh's
  Tensor tb = make(big, {300, 200}), t, r;
  CTS_ASSERT_OK(kf_transpose(tb.get(), 0, 1, t.put()));
  const Values tv = stored(gather_strided(big, 0, {200, 300}, {1, 200}), dt());
  for (const Op& op : kOps) {
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    SCOPED_TRACE(op.name);
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, reference(op, tv), {200, 300}, dt(), 8));
  }
}

CTS_INSTANTIATE(TrigLog, params_all());
CTS_INSTANTIATE(TrigLogFloat, params_all_float());

}  // namespace
}  // namespace cts
