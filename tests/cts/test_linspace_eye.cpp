// CTS: linspace and eye: values against a double reference (PyTorch's linspace formula), every
// dtype the ops take, empty results, default dtypes and the refused arguments.
#include "cts_util.hpp"

namespace cts {
namespace {

class Linspace : public CtsTest {};  // backend x every dtype but bool
class Eye : public CtsTest {};       // backend x every dtype
class FactoryAny : public CtsTest {};

/// PyTorch's linspace: integer dtypes convert start and end first and truncate each value.
Values ref_linspace(double start, double end, int64_t steps, kf_dtype_t d) {
  if (is_int(d)) {
    start = std::trunc(start);
    end = std::trunc(end);
  }
  Values v(static_cast<size_t>(steps));
  if (steps == 1) v[0] = start;
  if (steps <= 1) return v;
  const double step = (end - start) / static_cast<double>(steps - 1);
  for (int64_t i = 0; i < steps; ++i) {
    const double x = i < steps / 2 ? start + step * static_cast<double>(i)
                                   : end - step * static_cast<double>(steps - 1 - i);
    v[static_cast<size_t>(i)] = is_int(d) ? std::trunc(x) : x;
  }
  return v;
}

void expect_linspace(kf_scalar_t start, kf_scalar_t end, int64_t steps, kf_dtype_t d,
                     kf_device_t dev, double s, double e) {
  Tensor t;
  CTS_ASSERT_OK(kf_linspace(start, end, steps, d, dev, t.put()));
  EXPECT_TRUE(matches(t, ref_linspace(s, e, steps, d), {steps}, d))
      << "linspace(" << s << ", " << e << ", " << steps << ")";
  EXPECT_EQ(t.device().type, dev.type);
}

TEST_P(Linspace, Values) {
  if (dt() == KF_UINT8) {
    expect_linspace(kf_scalar_i64(0), kf_scalar_i64(10), 4, dt(), dev(), 0, 10);
    expect_linspace(kf_scalar_i64(200), kf_scalar_i64(5), 7, dt(), dev(), 200, 5);
  } else {
    expect_linspace(kf_scalar_i64(-3), kf_scalar_i64(7), 4, dt(), dev(), -3, 7);
    expect_linspace(kf_scalar_i64(10), kf_scalar_i64(-10), 9, dt(), dev(), 10, -10);
  }
  expect_linspace(kf_scalar_i64(0), kf_scalar_i64(1), 5, dt(), dev(), 0, 1);
  expect_linspace(kf_scalar_f64(0.5), kf_scalar_f64(5.5), 11, dt(), dev(), 0.5, 5.5);
}

TEST_P(Linspace, EndsAreExact) {
  if (!is_float(dt())) GTEST_SKIP() << "floating ends";
  Tensor t;
  CTS_ASSERT_OK(kf_linspace(kf_scalar_f64(0.1), kf_scalar_f64(0.7), 7, dt(), dev(), t.put()));
  const Values v = to_host_double(t);
  ASSERT_EQ(v.size(), 7u);
  EXPECT_EQ(v.front(), round_to(dt(), 0.1));
  EXPECT_EQ(v.back(), round_to(dt(), 0.7));
}

TEST_P(Linspace, OneAndZeroSteps) {
  Tensor one, none;
  CTS_ASSERT_OK(kf_linspace(kf_scalar_i64(4), kf_scalar_i64(9), 1, dt(), dev(), one.put()));
  EXPECT_TRUE(matches(one, Values{4}, {1}, dt()));
  CTS_ASSERT_OK(kf_linspace(kf_scalar_i64(4), kf_scalar_i64(9), 0, dt(), dev(), none.put()));
  EXPECT_EQ(none.shape(), (Shape{0}));
  EXPECT_EQ(none.dtype(), dt());
}

TEST_P(Linspace, NegativeStepsRefused) {
  Tensor t;
  EXPECT_EQ(kf_linspace(kf_scalar_i64(0), kf_scalar_i64(1), -2, dt(), dev(), t.put()),
            KF_INVALID_ARGUMENT);
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("linspace"), std::string::npos) << msg;
  EXPECT_NE(msg.find("-2"), std::string::npos) << msg;
}

TEST_P(Eye, SquareAndRectangular) {
  for (const auto& nm : std::vector<std::pair<int64_t, int64_t>>{{3, 3}, {2, 4}, {4, 2}, {1, 1}}) {
    const int64_t n = nm.first, m = nm.second;
    Tensor t;
    CTS_ASSERT_OK(kf_eye(n, n == m ? nullptr : &m, dt(), dev(), t.put()));
    Values want(static_cast<size_t>(n * m), 0.0);
    for (int64_t i = 0; i < std::min(n, m); ++i) want[static_cast<size_t>(i * m + i)] = 1.0;
    EXPECT_TRUE(matches(t, want, {n, m}, dt())) << n << " x " << m;
  }
}

TEST_P(Eye, Empty) {
  Tensor a, b;
  CTS_ASSERT_OK(kf_eye(0, nullptr, dt(), dev(), a.put()));
  EXPECT_EQ(a.shape(), (Shape{0, 0}));
  const int64_t zero = 0;
  CTS_ASSERT_OK(kf_eye(3, &zero, dt(), dev(), b.put()));
  EXPECT_EQ(b.shape(), (Shape{3, 0}));
  EXPECT_EQ(b.dtype(), dt());
}

TEST_P(FactoryAny, DefaultDtypesAreFloat32) {
  Tensor l, e;
  CTS_ASSERT_OK(kf_linspace(kf_scalar_i64(0), kf_scalar_i64(3), 4, KF_DTYPE_UNDEFINED, dev(),
                            l.put()));
  EXPECT_TRUE(matches(l, Values{0, 1, 2, 3}, {4}, KF_FLOAT32));
  CTS_ASSERT_OK(kf_eye(2, nullptr, KF_DTYPE_UNDEFINED, dev(), e.put()));
  EXPECT_TRUE(matches(e, Values{1, 0, 0, 1}, {2, 2}, KF_FLOAT32));
}

TEST_P(FactoryAny, LinspaceFloatBoundsIntoIntegers) {
  Tensor t;  // start and end are truncated to the dtype first (0.9 -> 0, 5.9 -> 5)
  CTS_ASSERT_OK(kf_linspace(kf_scalar_f64(0.9), kf_scalar_f64(5.9), 6, KF_INT32, dev(), t.put()));
  EXPECT_TRUE(matches(t, Values{0, 1, 2, 3, 4, 5}, {6}, KF_INT32));
}

TEST_P(FactoryAny, RefusedArguments) {
  Tensor t;
  EXPECT_EQ(kf_linspace(kf_scalar_i64(0), kf_scalar_i64(1), 3, KF_BOOL, dev(), t.put()),
            KF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kf_last_error_message()).find("linspace"), std::string::npos);
  EXPECT_EQ(kf_linspace(kf_scalar_f64(0), kf_scalar_f64(INFINITY), 3, KF_INT64, dev(), t.put()),
            KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_eye(-1, nullptr, KF_FLOAT32, dev(), t.put()), KF_INVALID_ARGUMENT);
  std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("eye"), std::string::npos) << msg;
  EXPECT_NE(msg.find("-1"), std::string::npos) << msg;
  const int64_t bad = -3;
  EXPECT_EQ(kf_eye(2, &bad, KF_FLOAT32, dev(), t.put()), KF_INVALID_ARGUMENT);
  msg = kf_last_error_message();
  EXPECT_NE(msg.find("-3"), std::string::npos) << msg;
}

CTS_INSTANTIATE(Linspace, params_all_numeric());
CTS_INSTANTIATE(Eye, params_all());
CTS_INSTANTIATE(FactoryAny, params_any());

}  // namespace
}  // namespace cts
