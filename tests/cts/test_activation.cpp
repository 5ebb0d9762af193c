// CTS: gelu (exact and approximate='tanh') and silu: every floating dtype, large and special
// values, strided inputs, 0-dim, empty, out= into a non-contiguous out, in-place silu_, and
// integer or bool inputs refused (PyTorch has no integer gelu/silu).
#include "cts_pointwise.hpp"

namespace cts {
namespace {

class Activation : public CtsTest {};         // backend x every floating dtype
class ActivationNonFloat : public CtsTest {};  // backend x every integer dtype and bool

double ref_gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double ref_gelu_tanh(double x) {
  const double k = std::sqrt(2.0 / 3.14159265358979323846);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}
double ref_silu(double x) { return x / (1.0 + std::exp(-x)); }

const Values kIn{-4, -1.5, -0.5, 0, 0.25, 1, 2.5, 6};

TEST_P(Activation, Values) {
  const Values in = stored(kIn, dt());
  Tensor t = make(kIn, {2, 4}), g, gt, s;
  CTS_ASSERT_OK(kf_gelu(t.get(), false, g.put()));
  CTS_ASSERT_OK(kf_gelu(t.get(), true, gt.put()));
  CTS_ASSERT_OK(kf_silu(t.get(), s.put()));
  EXPECT_TRUE(matches(g, map_values(in, ref_gelu), {2, 4}, dt(), 4));
  EXPECT_TRUE(matches(gt, map_values(in, ref_gelu_tanh), {2, 4}, dt(), 4));
  EXPECT_TRUE(matches(s, map_values(in, ref_silu), {2, 4}, dt(), 4));
  // The two gelu forms differ (the tanh form is an approximation), visibly in float64.
  if (dt() == KF_FLOAT64) {
    const Values a = to_host_double(g), b = to_host_double(gt);
    ASSERT_EQ(a.size(), 8u);
    ASSERT_EQ(b.size(), 8u);
    EXPECT_NE(a[1], b[1]);
  }
}

TEST_P(Activation, LargeAndSpecialValues) {
  const double nan = std::nan("");
  const Values v{-30, 30, nan, INFINITY, -0.0};
  Tensor t = make(v, {5}), g, gt, s;
  CTS_ASSERT_OK(kf_gelu(t.get(), false, g.put()));
  CTS_ASSERT_OK(kf_gelu(t.get(), true, gt.put()));
  CTS_ASSERT_OK(kf_silu(t.get(), s.put()));
  // gelu(-30) ~ 0, gelu(30) = 30, NaN stays NaN, gelu(inf) = inf; silu likewise.
  EXPECT_TRUE(matches(g, Values{0, 30, nan, INFINITY, 0}, {5}, dt(), 4));
  EXPECT_TRUE(matches(gt, Values{0, 30, nan, INFINITY, 0}, {5}, dt(), 4));
  EXPECT_TRUE(matches(s, Values{ref_silu(-30), 30, nan, INFINITY, 0}, {5}, dt(), 4));
  // silu(-inf) is -inf / inf = NaN, as PyTorch's x / (1 + exp(-x)).
  Tensor ni = make(Values{-INFINITY}, {1}), sn;
  CTS_ASSERT_OK(kf_silu(ni.get(), sn.put()));
  EXPECT_TRUE(matches(sn, Values{nan}, {1}, dt()));
}

TEST_P(Activation, StridedZeroDimEmpty) {
  Tensor hold, t = transposed_input(kIn, 2, 4, dt(), dev(), hold), g, s;  // [4,2]
  const Values tv = stored(gather_strided(kIn, 0, {4, 2}, {1, 4}), dt());
  CTS_ASSERT_OK(kf_gelu(t.get(), false, g.put()));
  CTS_ASSERT_OK(kf_silu(t.get(), s.put()));
  EXPECT_TRUE(matches(g, map_values(tv, ref_gelu), {4, 2}, dt(), 4));
  EXPECT_TRUE(matches(s, map_values(tv, ref_silu), {4, 2}, dt(), 4));
  Tensor z = make(Values{1}, {}), gz, e = make(Values{}, {0}), se;
  CTS_ASSERT_OK(kf_gelu(z.get(), true, gz.put()));
  EXPECT_TRUE(matches(gz, Values{ref_gelu_tanh(1)}, {}, dt(), 4));
  CTS_ASSERT_OK(kf_silu(e.get(), se.put()));
  EXPECT_EQ(se.shape(), (Shape{0}));
  EXPECT_EQ(se.dtype(), dt());
}

TEST_P(Activation, OutAndInplace) {
  const Values in = stored(kIn, dt());
  Tensor t = make(kIn, {2, 4}), base;
  Tensor out = transposed_out(2, 4, dt(), dev(), base);
  CTS_ASSERT_OK(kf_gelu_out(t.get(), false, out.get()));
  const Values want = map_values(in, ref_gelu);
  EXPECT_TRUE(matches(out, want, {2, 4}, dt(), 4));
  EXPECT_TRUE(matches(base, gather_strided(want, 0, {4, 2}, {1, 4}), {4, 2}, dt(), 4));
  CTS_ASSERT_OK(kf_silu_out(t.get(), out.get()));
  EXPECT_TRUE(matches(out, map_values(in, ref_silu), {2, 4}, dt(), 4));
  // silu_ in place on a transposed view: the base changes.
  Tensor hold, tv = transposed_input(kIn, 2, 4, dt(), dev(), hold);
  CTS_ASSERT_OK(kf_silu_(tv.get()));
  EXPECT_TRUE(matches(hold, map_values(in, ref_silu), {2, 4}, dt(), 4));
  // out aliasing self.
  CTS_ASSERT_OK(kf_gelu_out(t.get(), true, t.get()));
  EXPECT_TRUE(matches(t, map_values(in, ref_gelu_tanh), {2, 4}, dt(), 4));
}

TEST_P(Activation, Large) {
  const Values big = iota(300 * 300, -9, 0.0002);
  Tensor t = make(big, {300, 300}), g, s;
  CTS_ASSERT_OK(kf_gelu(t.get(), false, g.put()));
  CTS_ASSERT_OK(kf_silu(t.get(), s.put()));
  const Values in = stored(big, dt());
  EXPECT_TRUE(matches(g, map_values(in, ref_gelu), {300, 300}, dt(), 8));
  EXPECT_TRUE(matches(s, map_values(in, ref_silu), {300, 300}, dt(), 8));
}

TEST_P(ActivationNonFloat, Refused) {
  Tensor t = make(Values{0, 1, 1}, {3}), r;
  EXPECT_TRUE(is_invalid(kf_gelu(t.get(), false, r.put()), "gelu"));
  EXPECT_TRUE(is_invalid(kf_gelu(t.get(), true, r.put()), "gelu"));
  EXPECT_TRUE(is_invalid(kf_silu(t.get(), r.put()), "silu"));
  EXPECT_TRUE(is_invalid(kf_silu_(t.get()), "silu"));
  Tensor out = empty_tensor({3}, KF_FLOAT32, dev());
  EXPECT_TRUE(is_invalid(kf_gelu_out(t.get(), false, out.get()), "gelu"));
  EXPECT_TRUE(is_invalid(kf_silu_out(t.get(), out.get()), "silu"));
  EXPECT_TRUE(matches(t, Values{0, 1, 1}, {3}, dt())) << "a refused call writes nothing";
}

CTS_INSTANTIATE(Activation, params_all_float());
CTS_INSTANTIATE(ActivationNonFloat,
                params({KF_INT8, KF_UINT8, KF_INT16, KF_INT32, KF_INT64, KF_BOOL}));

}  // namespace
}  // namespace cts
