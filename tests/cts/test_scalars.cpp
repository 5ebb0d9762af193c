// CTS: the one rule by which a scalar becomes a value of a dtype (Note [Scalars to dtypes],
// runtime/core/scalar_conversion.hpp), in every op that takes one, on every backend: a value
// the dtype cannot hold (out of range, NaN or infinity for an integer dtype) is
// KF_INVALID_ARGUMENT naming the op, the value and the dtype; in range, a float for an integer
// dtype truncates toward zero. Scalars are Scalar arguments (full, full_like, fill_, arange,
// linspace, clamp, alpha) and the 0-dim CPU tensors a Python number or a C scalar becomes
// beside a dimensioned tensor (add, where, pow, ...); comparisons with such an operand are
// exact instead (computed in int64 or float64).
#include "cts_util.hpp"

namespace cts {
namespace {

class ScalarRule : public CtsTest {};  // backend only

/// The call failed with KF_INVALID_ARGUMENT and a message holding every one of `parts`.
::testing::AssertionResult refused(kf_status_t s, std::initializer_list<const char*> parts) {
  if (s != KF_INVALID_ARGUMENT) {
    return ::testing::AssertionFailure() << "status " << kf_status_name(s) << ", expected "
                                         << "KF_INVALID_ARGUMENT";
  }
  const std::string msg = kf_last_error_message();
  for (const char* p : parts) {
    if (msg.find(p) == std::string::npos) {
      return ::testing::AssertionFailure() << "the message lacks '" << p << "': " << msg;
    }
  }
  return ::testing::AssertionSuccess();
}

/// A 0-dim CPU tensor of an int64 or a double: what a Python number becomes.
Tensor number(int64_t v) {
  return make_tensor(Values{static_cast<double>(v)}, {}, KF_INT64, kf_device_cpu());
}
Tensor number(double v, kf_dtype_t d = KF_FLOAT64) {
  return make_tensor(Values{v}, {}, d, kf_device_cpu());
}

TEST_P(ScalarRule, FullRefusesWhatTheDtypeCannotHold) {
  const int64_t n = 2;
  Tensor t;
  EXPECT_TRUE(refused(kf_full(&n, 1, kf_scalar_i64(300), KF_INT8, dev(), t.put()),
                      {"full", "fill_value 300", "int8", "-128..127"}));
  EXPECT_TRUE(refused(kf_full(&n, 1, kf_scalar_f64(NAN), KF_INT32, dev(), t.put()),
                      {"full", "nan", "int32"}));
  EXPECT_TRUE(refused(kf_full(&n, 1, kf_scalar_f64(-INFINITY), KF_INT64, dev(), t.put()),
                      {"full", "-inf", "int64"}));
  EXPECT_TRUE(refused(kf_full(&n, 1, kf_scalar_i64(-1), KF_UINT8, dev(), t.put()),
                      {"full", "-1", "uint8", "0..255"}));
  EXPECT_TRUE(refused(kf_full(&n, 1, kf_scalar_f64(1.5e19), KF_INT64, dev(), t.put()),
                      {"full", "int64"}));
  EXPECT_TRUE(refused(kf_full(&n, 1, kf_scalar_f64(1e10), KF_FLOAT16, dev(), t.put()),
                      {"full", "float16", "65504"}));
  EXPECT_TRUE(refused(kf_full(&n, 1, kf_scalar_i64(100000), KF_FLOAT16, dev(), t.put()),
                      {"full", "100000", "float16"}));
  EXPECT_TRUE(refused(kf_full(&n, 1, kf_scalar_f64(1e300), KF_DTYPE_UNDEFINED, dev(), t.put()),
                      {"full", "float32"}));  // a float's default dtype is float32
  Tensor like = make(Values{0, 0}, {2}, KF_INT8);
  EXPECT_TRUE(refused(kf_full_like(like.get(), kf_scalar_i64(128), KF_DTYPE_UNDEFINED, t.put()),
                      {"full_like", "fill_value 128", "int8"}));
}

TEST_P(ScalarRule, FullTruncatesFloatsInRange) {
  const int64_t n = 2;
  struct Case { kf_scalar_t v; kf_dtype_t d; double want; };
  const Case cases[] = {
      {kf_scalar_f64(2.75), KF_INT8, 2},       {kf_scalar_f64(-1.5), KF_INT32, -1},
      {kf_scalar_f64(127.9), KF_INT8, 127},    {kf_scalar_f64(-128.9), KF_INT8, -128},
      {kf_scalar_f64(255.5), KF_UINT8, 255},   {kf_scalar_f64(-0.5), KF_UINT8, 0},
      {kf_scalar_i64(-128), KF_INT8, -128},    {kf_scalar_f64(NAN), KF_BOOL, 1},
      {kf_scalar_f64(65504), KF_FLOAT16, 65504}, {kf_scalar_f64(INFINITY), KF_FLOAT16, INFINITY}};
  for (const Case& c : cases) {
    SCOPED_TRACE(kf_dtype_name(c.d));
    CTS_REQUIRE_IN_LOOP(c.d, "full");
    Tensor t;
    CTS_ASSERT_OK(kf_full(&n, 1, c.v, c.d, dev(), t.put()));
    EXPECT_TRUE(matches(t, Values(2, c.want), {2}, c.d));
  }
}

TEST_P(ScalarRule, FillMatchesFull) {
  CTS_REQUIRE(KF_INT64, "fill_");
  Tensor u8 = make(Values{7}, {1}, KF_UINT8), i64 = make(Values{7}, {1}, KF_INT64);
  EXPECT_TRUE(refused(kf_fill_(u8.get(), kf_scalar_i64(-1)), {"fill_", "-1", "uint8"}));
  EXPECT_TRUE(refused(kf_fill_(i64.get(), kf_scalar_f64(9223372036854775808.0)), {"int64"}));
  CTS_ASSERT_OK(kf_fill_(i64.get(), kf_scalar_f64(-9223372036854775808.0)));  // -2^63 fits
  EXPECT_EQ(to_host_double(i64)[0], -9223372036854775808.0);
  EXPECT_TRUE(matches(u8, Values{7}, {1}, KF_UINT8)) << "a refused fill_ writes nothing";
}

TEST_P(ScalarRule, BinaryScalarOperands) {
  CTS_REQUIRE(KF_INT8, "add");
  CTS_REQUIRE(KF_FLOAT32, "add");
  Tensor x = make(Values{1, -2}, {2}, KF_INT8), r;
  Tensor big = number(int64_t{300}), five = number(int64_t{5}), half = number(1.5, KF_FLOAT32);
  EXPECT_TRUE(refused(kf_add(x.get(), big.get(), one(), r.put()), {"add", "300", "int8"}));
  EXPECT_TRUE(refused(kf_add(big.get(), x.get(), one(), r.put()), {"add", "300", "int8"}));
  EXPECT_TRUE(refused(kf_mul(x.get(), big.get(), r.put()), {"mul", "300", "int8"}));
  EXPECT_TRUE(refused(kf_pow(x.get(), big.get(), r.put()), {"pow", "300", "int8"}));
  EXPECT_TRUE(refused(kf_maximum(x.get(), big.get(), r.put()), {"maximum", "300"}));
  EXPECT_TRUE(refused(kf_add_(x.get(), big.get(), one()), {"add", "300"}));
  EXPECT_TRUE(matches(x, Values{1, -2}, {2}, KF_INT8)) << "a refused add_ writes nothing";
  EXPECT_TRUE(refused(kf_add(x.get(), five.get(), kf_scalar_i64(300), r.put()),
                      {"add", "alpha 300", "int8"}));
  CTS_ASSERT_OK(kf_add(x.get(), five.get(), one(), r.put()));
  EXPECT_TRUE(matches(r, Values{6, 3}, {2}, KF_INT8));
  CTS_ASSERT_OK(kf_add(x.get(), half.get(), one(), r.put()));  // a float promotes: float32
  EXPECT_TRUE(matches(r, Values{2.5, -0.5}, {2}, KF_FLOAT32));
  Tensor h = make(Values{1, 2}, {2}, KF_FLOAT16), huge = number(1e6);
  EXPECT_TRUE(refused(kf_add(h.get(), huge.get(), one(), r.put()), {"add", "float16"}));
  EXPECT_TRUE(refused(kf_div(h.get(), huge.get(), r.put()), {"div", "float16"}));
}

TEST_P(ScalarRule, WhereScalarOperands) {
  CTS_REQUIRE(KF_INT8, "where");
  Tensor c = make(Values{1, 0}, {2}, KF_BOOL), x = make(Values{1, 2}, {2}, KF_INT8), r;
  Tensor big = number(int64_t{-129}), small = number(int64_t{-128});
  EXPECT_TRUE(refused(kf_where(c.get(), x.get(), big.get(), r.put()), {"where", "-129", "int8"}));
  CTS_ASSERT_OK(kf_where(c.get(), x.get(), small.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{1, -128}, {2}, KF_INT8));
}

TEST_P(ScalarRule, ComparisonsWithScalarsOutOfRangeAreExact) {
  CTS_REQUIRE(KF_INT64, "lt", "eq", "gt", "ne");
  Tensor x = make(Values{-128, 0, 127}, {3}, KF_INT8), u = make(Values{0, 255}, {2}, KF_UINT8);
  Tensor big = number(int64_t{300}), neg = number(int64_t{-1}), r;
  CTS_ASSERT_OK(kf_lt(x.get(), big.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{1, 1, 1}, {3}, KF_BOOL));
  CTS_ASSERT_OK(kf_eq(x.get(), big.get(), r.put()));  // 300 would wrap to 44 in int8
  EXPECT_TRUE(matches(r, Values{0, 0, 0}, {3}, KF_BOOL));
  CTS_ASSERT_OK(kf_gt(u.get(), neg.get(), r.put()));  // -1 would wrap to 255 in uint8
  EXPECT_TRUE(matches(r, Values{1, 1}, {2}, KF_BOOL));
  CTS_ASSERT_OK(kf_ne(u.get(), neg.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{1, 1}, {2}, KF_BOOL));
}

TEST_P(ScalarRule, FloatComparisonsWithScalarsOutOfRangeAreExact) {
  CTS_REQUIRE(KF_FLOAT64, "lt");
  Tensor r, h = make(Values{65504, -INFINITY}, {2}, KF_FLOAT16), huge = number(1e6);
  CTS_ASSERT_OK(kf_lt(h.get(), huge.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{1, 1}, {2}, KF_BOOL));
}

TEST_P(ScalarRule, ClampBounds) {
  CTS_REQUIRE(KF_FLOAT32, "clamp");
  CTS_REQUIRE(KF_FLOAT16, "clamp");
  Tensor x = make(Values{-5, 5}, {2}, KF_INT8), r;
  const kf_scalar_t lo = kf_scalar_i64(-1000), hi = kf_scalar_f64(2.5), nan = kf_scalar_f64(NAN);
  EXPECT_TRUE(refused(kf_clamp(x.get(), &lo, nullptr, r.put()), {"clamp", "min -1000", "int8"}));
  CTS_ASSERT_OK(kf_clamp(x.get(), nullptr, &hi, r.put()));  // a float bound: float32
  EXPECT_TRUE(matches(r, Values{-5, 2.5}, {2}, KF_FLOAT32));
  Tensor h = make(Values{1, 2}, {2}, KF_FLOAT16);
  const kf_scalar_t far = kf_scalar_f64(1e6);
  EXPECT_TRUE(refused(kf_clamp(h.get(), nullptr, &far, r.put()), {"clamp", "max", "float16"}));
  CTS_ASSERT_OK(kf_clamp(h.get(), &nan, nullptr, r.put()));  // NaN is a float16 value
}

TEST_P(ScalarRule, ArangeAndLinspaceValues) {
  CTS_REQUIRE(KF_INT8, "arange", "linspace");
  Tensor t;
  const kf_scalar_t zero = kf_scalar_i64(0), step = kf_scalar_i64(1);
  EXPECT_TRUE(refused(kf_arange(zero, kf_scalar_i64(300), step, KF_INT8, dev(), t.put()),
                      {"arange", "the last value 299", "int8"}));
  EXPECT_TRUE(refused(kf_arange(kf_scalar_i64(-200), kf_scalar_i64(0), step, KF_INT8, dev(),
                                t.put()), {"arange", "start -200", "int8"}));
  EXPECT_TRUE(refused(kf_arange(zero, kf_scalar_i64(70000), step, KF_FLOAT16, dev(), t.put()),
                      {"arange", "float16"}));
  CTS_ASSERT_OK(kf_arange(kf_scalar_i64(-100), kf_scalar_i64(100), kf_scalar_i64(150), KF_INT8,
                          dev(), t.put()));  // end and step need not be values of int8
  EXPECT_TRUE(matches(t, Values{-100, 50}, {2}, KF_INT8));
  CTS_ASSERT_OK(kf_arange(kf_scalar_f64(120.5), kf_scalar_i64(128), kf_scalar_i64(3), KF_INT8,
                          dev(), t.put()));  // start truncates to 120: 120, 123, 126
  EXPECT_TRUE(matches(t, Values{120, 123, 126}, {3}, KF_INT8));
  EXPECT_TRUE(refused(kf_linspace(zero, kf_scalar_i64(300), 5, KF_INT8, dev(), t.put()),
                      {"linspace", "end 300", "int8"}));
  EXPECT_TRUE(refused(kf_linspace(kf_scalar_f64(NAN), zero, 5, KF_INT32, dev(), t.put()),
                      {"linspace", "start nan", "int32"}));
  EXPECT_TRUE(refused(kf_linspace(zero, kf_scalar_f64(1e5), 3, KF_FLOAT16, dev(), t.put()),
                      {"linspace", "float16"}));
  CTS_ASSERT_OK(kf_linspace(zero, kf_scalar_i64(300), 1, KF_INT8, dev(), t.put()));  // [0]
  EXPECT_TRUE(matches(t, Values{0}, {1}, KF_INT8));
}

CTS_INSTANTIATE(ScalarRule, params_any());

}  // namespace
}  // namespace cts
