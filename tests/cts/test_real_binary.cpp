// CTS: atan2, hypot, copysign, logaddexp, nextafter: every floating dtype against a long double
// reference, integer operands promoted to float32, the special values (signed zeros, infinities,
// NaN), broadcasting, in place and out= of a non-contiguous view; complex operands are refused.
// nextafter steps by one unit in the last place of the dtype itself, 16-bit floats included.
#include "cts_pointwise.hpp"

namespace cts {
namespace {

class RealBinary : public CtsTest {};     // backend x every floating dtype
class RealBinaryAny : public CtsTest {};  // backend

using Wide = long double;
using BinaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t, kf_tensor_t*);
using BinaryInplaceFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t);

Wide logaddexp_ref(Wide x, Wide y) {
  if (x == y) return x + std::log(Wide(2));
  const Wide m = std::fmax(x, y);
  return std::isnan(x) || std::isnan(y) ? NAN : m + std::log1p(std::exp(-std::fabs(x - y)));
}

struct Op {
  const char* name;
  BinaryFn fn;
  BinaryInplaceFn inplace;
  Wide (*ref)(Wide, Wide);
};

const Op kOps[] = {
    {"atan2", kf_atan2, kf_atan2_, [](Wide y, Wide x) { return std::atan2(y, x); }},
    {"hypot", kf_hypot, kf_hypot_, [](Wide x, Wide y) { return std::hypot(x, y); }},
    {"copysign", kf_copysign, kf_copysign_, [](Wide x, Wide y) { return std::copysign(x, y); }},
    {"logaddexp", kf_logaddexp, kf_logaddexp_, logaddexp_ref},
};

Values reference(const Op& op, const Values& a, const Values& b, size_t b_period) {
  Values out(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    out[i] = static_cast<double>(op.ref(a[i], b[i % b_period]));
  }
  return out;
}

TEST_P(RealBinary, AgainstLongDouble) {
  const Values a = stored({-3, -1.5, -0.25, 0.5, 2, 7}, dt());
  const Values b = stored({2, -0.75, 4, -6, 1, -0.5}, dt());
  for (const Op& op : kOps) {
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    SCOPED_TRACE(op.name);
    Tensor x = make(a, {2, 3}), y = make(b, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(x.get(), y.get(), r.put()));
    EXPECT_TRUE(matches(r, reference(op, a, b, 6), {2, 3}, dt(), 4));
    // A broadcast row, then in place.
    Tensor row = make(Values(b.begin(), b.begin() + 3), {3});
    CTS_ASSERT_OK(op.fn(x.get(), row.get(), r.put()));
    EXPECT_TRUE(matches(r, reference(op, a, b, 3), {2, 3}, dt(), 4));
    CTS_ASSERT_OK(op.inplace(x.get(), y.get()));
    EXPECT_TRUE(matches(x, reference(op, a, b, 6), {2, 3}, dt(), 4));
  }
}

TEST_P(RealBinary, SpecialValues) {
  const double inf = INFINITY, nan = std::nan("");
  const Values a{0.0, 0.0, -0.0, -0.0, inf, -inf, nan, 1, inf, 3};
  const Values b{0.0, -0.0, 0.0, -0.0, inf, inf, 1, nan, nan, -inf};
  for (const Op& op : kOps) {
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    SCOPED_TRACE(op.name);
    Tensor x = make(a, {10}), y = make(b, {10}), r;
    CTS_ASSERT_OK(op.fn(x.get(), y.get(), r.put()));
    const Values want = reference(op, a, b, 10), got = to_host_double(r);
    EXPECT_TRUE(matches(r, want, {10}, dt()));
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < 4; ++i) {  // atan2(+-0, +-0) and copysign keep their zero's sign
      if (want[i] == 0) {
        EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << i;
      }
    }
  }
}

// The neighbour of x toward y in dtype d, from x's bits.
double ulp_step(kf_dtype_t d, double x, double toward) {
  if (d == KF_FLOAT64) return std::nextafter(x, toward);
  if (d == KF_FLOAT32) return std::nextafter(static_cast<float>(x), static_cast<float>(toward));
  const bool half = d == KF_FLOAT16;
  uint16_t bits = half ? f32_to_f16_bits(static_cast<float>(x))
                       : f32_to_bf16_bits(static_cast<float>(x));
  if (x == toward) return toward;
  if (x == 0) bits = static_cast<uint16_t>((std::signbit(toward) ? 0x8000u : 0u) | 1u);
  else bits = static_cast<uint16_t>((x < toward) == (x > 0) ? bits + 1 : bits - 1);
  return half ? f16_bits_to_double(bits) : bf16_bits_to_double(bits);
}

TEST_P(RealBinary, NextafterStepsOneUlpOfTheDtype) {
  CTS_REQUIRE(dt(), "nextafter");
  const double inf = INFINITY;
  const Values a = stored({1, 1, -2, 0, 0, 0.5, -0.0, 3}, dt());
  const Values b = stored({2, 0, -inf, 1, -1, 0.5, 0.0, inf}, dt());
  Values want(a.size());
  for (size_t i = 0; i < a.size(); ++i) want[i] = ulp_step(dt(), a[i], b[i]);
  Tensor x = make(a, {8}), y = make(b, {8}), r;
  CTS_ASSERT_OK(kf_nextafter(x.get(), y.get(), r.put()));
  const Values got = to_host_double(r);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << i << ": nextafter(" << a[i] << ", " << b[i] << ")";
    if (a[i] != b[i]) {
      EXPECT_NE(got[i], a[i]) << i << " must move";
    }
  }
  // NaN in, NaN out.
  Tensor n = make({std::nan(""), 1}, {2}), m = make({1, std::nan("")}, {2});
  CTS_ASSERT_OK(kf_nextafter(n.get(), m.get(), r.put()));
  const Values nn = to_host_double(r);
  ASSERT_EQ(nn.size(), 2u);
  EXPECT_TRUE(std::isnan(nn[0]) && std::isnan(nn[1]));
}

TEST_P(RealBinaryAny, IntegersPromoteComplexIsRefused) {
  const Shape s{2};
  Tensor i = make_tensor({3, -4}, s, KF_INT32, dev());
  Tensor j = make_tensor({4, 3}, s, KF_INT64, dev()), r;
  CTS_ASSERT_OK(kf_hypot(i.get(), j.get(), r.put()));
  EXPECT_TRUE(matches(r, {5, 5}, s, KF_FLOAT32));
  Tensor f = make_tensor({1, 2}, s, KF_FLOAT64, dev()), c;
  CTS_ASSERT_OK(kf_to_dtype(f.get(), KF_COMPLEX128, c.put()));
  EXPECT_TRUE(is_invalid(kf_atan2(c.get(), f.get(), r.put()), "atan2"));
  EXPECT_TRUE(is_invalid(kf_copysign(f.get(), c.get(), r.put()), "copysign"));
}

CTS_INSTANTIATE(RealBinary, params_all_float());
CTS_INSTANTIATE(RealBinaryAny, params_any());

}  // namespace
}  // namespace cts
