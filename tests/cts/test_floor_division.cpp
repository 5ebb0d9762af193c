// CTS: floor_divide and remainder, Python's // and %: every real dtype but bool (the unsigned
// ones of ABI 2.0 included), the signs of both operands, division by zero (0 for integers,
// IEEE for floats), MIN // -1 wrapping, the special values of the standard, broadcasting,
// promotion, in place and out= of a non-contiguous view; bool and complex are refused.
#include "cts_pointwise.hpp"

namespace cts {
namespace {

class FloorDivision : public CtsTest {};       // backend x every real dtype but bool
class FloorDivisionFloat : public CtsTest {};  // backend x every floating dtype
class FloorDivisionAny : public CtsTest {};    // backend

// Python's floor division and remainder of exact values (integers, or floats whose quotient
// is exact here), as the references.
double py_floordiv(double x, double y) { return std::floor(x / y); }
double py_mod(double x, double y) {
  double r = std::fmod(x, y);
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r == 0 ? std::copysign(0.0, y) : r;
}

bool is_unsigned(kf_dtype_t d) { return kf_dtype_kind(d) == 'u'; }

TEST_P(FloorDivision, SignsOfBothOperands) {
  CTS_REQUIRE(dt(), "floor_divide", "remainder");
  const Values a = is_unsigned(dt()) ? Values{7, 7, 0, 9, 100, 1, 6, 5}
                                     : Values{7, -7, 7, -7, 0, -9, 100, 1};
  const Values b = is_unsigned(dt()) ? Values{2, 3, 5, 9, 7, 4, 4, 8}
                                     : Values{2, 2, -2, -2, 5, 4, -7, 3};
  const Values sa = stored(a, dt()), sb = stored(b, dt());
  Values q(a.size()), r(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    q[i] = py_floordiv(sa[i], sb[i]);
    r[i] = py_mod(sa[i], sb[i]);
  }
  Tensor x = make(a, {2, 4}), y = make(b, {2, 4}), out;
  CTS_ASSERT_OK(kf_floor_divide(x.get(), y.get(), out.put()));
  EXPECT_TRUE(matches(out, q, {2, 4}, dt()));
  CTS_ASSERT_OK(kf_remainder(x.get(), y.get(), out.put()));
  EXPECT_TRUE(matches(out, r, {2, 4}, dt()));
  // out= of a transposed view, and in place.
  Tensor base, view = transposed_out(2, 4, dt(), dev(), base);
  CTS_ASSERT_OK(kf_remainder_out(x.get(), y.get(), view.get()));
  EXPECT_TRUE(matches(view, r, {2, 4}, dt()));
  CTS_ASSERT_OK(kf_floor_divide_(x.get(), y.get()));
  EXPECT_TRUE(matches(x, q, {2, 4}, dt()));
}

TEST_P(FloorDivision, IntegerZeroDivisorAndOverflow) {
  if (is_float(dt())) GTEST_SKIP() << "floats: FloorDivisionFloat.SpecialValues";
  CTS_REQUIRE(dt(), "floor_divide", "remainder");
  Tensor x = make({5, 0, 3}, {3}), zero = make({0}, {}), out;
  CTS_ASSERT_OK(kf_floor_divide(x.get(), zero.get(), out.put()));
  EXPECT_TRUE(matches(out, {0, 0, 0}, {3}, dt())) << "x // 0 is 0 (numpy)";
  CTS_ASSERT_OK(kf_remainder(x.get(), zero.get(), out.put()));
  EXPECT_TRUE(matches(out, {0, 0, 0}, {3}, dt())) << "x % 0 is 0 (numpy)";
  if (is_unsigned(dt())) return;
  // MIN // -1 overflows: it wraps to MIN, and MIN % -1 is 0.
  const double min = -std::ldexp(1.0, static_cast<int>(kf_dtype_size(dt())) * 8 - 1);
  Tensor m = make({min, min}, {2}), neg = make({-1, 1}, {2});
  CTS_ASSERT_OK(kf_floor_divide(m.get(), neg.get(), out.put()));
  EXPECT_TRUE(matches(out, {min, min}, {2}, dt()));
  CTS_ASSERT_OK(kf_remainder(m.get(), neg.get(), out.put()));
  EXPECT_TRUE(matches(out, {0, 0}, {2}, dt()));
}

TEST_P(FloorDivisionFloat, SpecialValues) {
  CTS_REQUIRE(dt(), "floor_divide", "remainder");
  const double inf = INFINITY, nan = std::nan("");
  const Values a{1, -1, 0, 5.5, inf, -inf, 3, -3, inf, nan, 1, 7.5};
  const Values b{0, 0, 0, -0.0, 2, 2, inf, inf, inf, 1, nan, -2};
  // The standard's floor(x / y) where it and Python differ (an infinite x); Python's rule
  // (the pair b = a % b + b * (a // b)) elsewhere.
  const Values q{inf, -inf, nan, -inf, inf, -inf, 0, -1, nan, nan, nan, -4};
  const Values r{nan, nan, nan, nan, nan, nan, 3, inf, nan, nan, nan, -0.5};
  Tensor x = make(a, {12}), y = make(b, {12}), out;
  CTS_ASSERT_OK(kf_floor_divide(x.get(), y.get(), out.put()));
  EXPECT_TRUE(matches(out, q, {12}, dt()));
  CTS_ASSERT_OK(kf_remainder(x.get(), y.get(), out.put()));
  EXPECT_TRUE(matches(out, r, {12}, dt()));
  // The sign of a zero remainder is the divisor's; of a zero quotient, the true quotient's.
  Tensor p = make({4, -4, 0, -0.0}, {4}), d = make({-2, 2, -3, 3}, {4});
  CTS_ASSERT_OK(kf_remainder(p.get(), d.get(), out.put()));
  const Values rz = to_host_double(out);
  ASSERT_EQ(rz.size(), 4u);
  EXPECT_TRUE(rz[0] == 0 && std::signbit(rz[0]));
  EXPECT_TRUE(rz[1] == 0 && !std::signbit(rz[1]));
  CTS_ASSERT_OK(kf_floor_divide(p.get(), d.get(), out.put()));
  const Values qz = to_host_double(out);
  ASSERT_EQ(qz.size(), 4u);
  EXPECT_TRUE(qz[2] == 0 && std::signbit(qz[2])) << "0 // -3 is -0";
  EXPECT_TRUE(qz[3] == 0 && std::signbit(qz[3])) << "-0 // 3 is -0";
}

TEST_P(FloorDivisionAny, PromotionAndRefusals) {
  const Shape s{3};
  Tensor i = make_tensor({7, -7, 9}, s, KF_INT32, dev());
  Tensor f = make_tensor({2, 2, -4}, s, KF_FLOAT32, dev()), r;
  CTS_ASSERT_OK(kf_floor_divide(i.get(), f.get(), r.put()));
  EXPECT_TRUE(matches(r, {3, -4, -3}, s, KF_FLOAT32));
  Tensor b = make_tensor({1, 0, 1}, s, KF_BOOL, dev());
  EXPECT_TRUE(is_invalid(kf_floor_divide(b.get(), b.get(), r.put()), "floor_divide"));
  EXPECT_TRUE(is_invalid(kf_remainder(b.get(), b.get(), r.put()), "remainder"));
  Tensor c;
  CTS_ASSERT_OK(kf_to_dtype(f.get(), KF_COMPLEX64, c.put()));
  EXPECT_TRUE(is_invalid(kf_remainder(c.get(), f.get(), r.put()), "remainder"));
}

CTS_INSTANTIATE(FloorDivision, params({KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16, KF_INT8,
                                       KF_UINT8, KF_INT16, KF_UINT16, KF_INT32, KF_UINT32,
                                       KF_INT64, KF_UINT64}));
CTS_INSTANTIATE(FloorDivisionFloat, params_all_float());
CTS_INSTANTIATE(FloorDivisionAny, params_any());

}  // namespace
}  // namespace cts
