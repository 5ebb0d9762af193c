// CTS: fill_: every dtype, the scalar rule's conversion of the value (Note [Scalars to dtypes]:
// a float into an integer tensor truncates, nonzero into bool is true), in place on strided
// views (only the view's elements change), empty and 0-dim tensors, and values the dtype cannot
// hold (out of range, a negative value for uint8, NaN for an integer) refused with a message.
#include "cts_util.hpp"

namespace cts {
namespace {

class Fill : public CtsTest {};     // backend x every dtype
class FillAny : public CtsTest {};  // backend only

/// The value fill_ stores for an int or float scalar.
double stored(kf_dtype_t d, double v) {
  if (d == KF_BOOL) return v != 0.0 ? 1.0 : 0.0;
  return is_int(d) ? std::trunc(v) : v;
}

/// fill_(t, v) stores stored(v), or, for uint8 and a value below 0, is refused.
void fill_and_check(const Tensor& t, kf_dtype_t d, kf_scalar_t s, double v) {
  if (d == KF_UINT8 && std::trunc(v) < 0) {
    EXPECT_EQ(kf_fill_(t.get(), s), KF_INVALID_ARGUMENT) << v;
    return;
  }
  CTS_ASSERT_OK(kf_fill_(t.get(), s));
  EXPECT_TRUE(matches(t, Values(6, stored(d, v)), {2, 3}, d));
}

TEST_P(Fill, FloatAndIntValues) {
  Tensor t = make(Values(6, 0.0), {2, 3});
  fill_and_check(t, dt(), kf_scalar_f64(2.75), 2.75);
  fill_and_check(t, dt(), kf_scalar_i64(-3), -3);
  fill_and_check(t, dt(), kf_scalar_f64(-1.5), -1.5);
  CTS_ASSERT_OK(kf_fill_(t.get(), kf_scalar_bool(true)));
  EXPECT_TRUE(matches(t, Values(6, 1.0), {2, 3}, dt()));
  CTS_ASSERT_OK(kf_fill_(t.get(), kf_scalar_i64(0)));
  EXPECT_TRUE(matches(t, Values(6, 0.0), {2, 3}, dt()));
}

TEST_P(Fill, StridedViewsOnlyTheirElements) {
  Tensor base = make(Values(12, 0.0), {3, 4}), col, tr, row;
  CTS_ASSERT_OK(kf_select(base.get(), 1, 2, col.put()));  // column 2, stride 4
  CTS_ASSERT_OK(kf_fill_(col.get(), kf_scalar_i64(1)));
  Values want(12, 0.0);
  for (int r = 0; r < 3; ++r) want[static_cast<size_t>(r * 4 + 2)] = 1.0;
  EXPECT_TRUE(matches(base, want, {3, 4}, dt()));
  const int64_t start = 1;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, tr.put()));  // [4, 3]
  CTS_ASSERT_OK(kf_slice(tr.get(), 1, &start, nullptr, 1, row.put()));  // rows 1.. of base
  CTS_ASSERT_OK(kf_fill_(row.get(), kf_scalar_i64(1)));
  for (int i = 4; i < 12; ++i) want[static_cast<size_t>(i)] = 1.0;
  EXPECT_TRUE(matches(base, want, {3, 4}, dt()));
}

TEST_P(Fill, EmptyAndZeroDim) {
  Tensor e = make(Values{}, {0, 2}), z = make(Values{0}, {});
  CTS_ASSERT_OK(kf_fill_(e.get(), kf_scalar_i64(1)));
  EXPECT_EQ(e.shape(), (Shape{0, 2}));
  CTS_ASSERT_OK(kf_fill_(z.get(), kf_scalar_i64(1)));
  EXPECT_TRUE(matches(z, Values{1}, {}, dt()));
}

TEST_P(Fill, LargeTensor) {
  const int64_t n = 100003;
  Tensor t;
  CTS_ASSERT_OK(kf_zeros(&n, 1, dt(), dev(), t.put()));
  CTS_ASSERT_OK(kf_fill_(t.get(), kf_scalar_i64(1)));
  EXPECT_TRUE(matches(t, Values(static_cast<size_t>(n), 1.0), {n}, dt()));
}

void expect_refused(kf_tensor_t t, kf_scalar_t v, const std::string& part) {
  EXPECT_EQ(kf_fill_(t, v), KF_INVALID_ARGUMENT) << part;
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("fill_"), std::string::npos) << msg;
  EXPECT_NE(msg.find(part), std::string::npos) << msg;
}

TEST_P(FillAny, OverflowRefused) {
  Tensor i8 = make(Values{5}, {1}, KF_INT8), i32 = make(Values{5}, {1}, KF_INT32);
  Tensor f16 = make(Values{5}, {1}, KF_FLOAT16), u8 = make(Values{5}, {1}, KF_UINT8);
  expect_refused(i8.get(), kf_scalar_i64(300), "int8");
  expect_refused(i8.get(), kf_scalar_f64(-200.5), "int8");
  expect_refused(i32.get(), kf_scalar_f64(NAN), "int32");
  expect_refused(i32.get(), kf_scalar_f64(INFINITY), "int32");
  expect_refused(f16.get(), kf_scalar_f64(1e10), "float16");
  expect_refused(u8.get(), kf_scalar_i64(256), "uint8");
  EXPECT_TRUE(matches(i8, Values{5}, {1}, KF_INT8)) << "a refused fill_ writes nothing";
  Tensor f32 = make(Values{5}, {1}, KF_FLOAT32);  // infinity and NaN are values of a float
  CTS_ASSERT_OK(kf_fill_(f32.get(), kf_scalar_f64(INFINITY)));
  EXPECT_TRUE(matches(f32, Values{INFINITY}, {1}, KF_FLOAT32));
  CTS_ASSERT_OK(kf_fill_(f32.get(), kf_scalar_f64(NAN)));
  EXPECT_TRUE(std::isnan(to_host_double(f32)[0]));
  expect_refused(u8.get(), kf_scalar_i64(-1), "uint8");  // PyTorch wraps; kernforge refuses
  CTS_ASSERT_OK(kf_fill_(u8.get(), kf_scalar_f64(-0.5)));  // truncates to 0, a uint8 value
  EXPECT_TRUE(matches(u8, Values{0}, {1}, KF_UINT8));
}

TEST_P(FillAny, ExpandedViewRefused) {
  Tensor base = make(Values{0, 0, 0}, {3}, KF_FLOAT32), e;
  const Shape s{2, 3};
  CTS_ASSERT_OK(kf_expand(base.get(), s.data(), 2, e.put()));
  EXPECT_EQ(kf_fill_(e.get(), kf_scalar_i64(1)), KF_INVALID_ARGUMENT);
  EXPECT_STRNE(kf_last_error_message(), "");
}

CTS_INSTANTIATE(Fill, params_all());
CTS_INSTANTIATE(FillAny, params_any());

}  // namespace
}  // namespace cts
