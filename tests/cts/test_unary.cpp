// CTS: pointwise unary ops (neg, abs, square, exp, log, sqrt, relu, sigmoid, tanh).
#include "cts_util.hpp"

namespace cts {
namespace {

class Unary : public CtsTest {};     // backend x {f32, f64, f16, bf16}
class UnaryInt : public CtsTest {};  // backend x {i8, u8, i16, i32, i64}

using UnaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t*);
using UnaryOutFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t);
using UnaryInplaceFn = kf_status_t (*)(kf_tensor_t);

struct UnaryOp {
  const char* name;
  UnaryFn fn;
  UnaryOutFn out;
  UnaryInplaceFn inplace;
  double (*ref)(double);
  bool float_result;  // integer inputs give float32
  double tol_scale;   // transcendental functions: a few ulp
};

double ref_neg(double x) { return -x; }
double ref_abs(double x) { return std::fabs(x); }
double ref_square(double x) { return x * x; }
double ref_exp(double x) { return std::exp(x); }
double ref_log(double x) { return std::log(x); }
double ref_sqrt(double x) { return std::sqrt(x); }
double ref_relu(double x) { return x > 0 ? x : 0.0; }
double ref_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double ref_tanh(double x) { return std::tanh(x); }

const UnaryOp kOps[] = {
    {"neg", kf_neg, kf_neg_out, kf_neg_, ref_neg, false, 1},
    {"abs", kf_abs, kf_abs_out, kf_abs_, ref_abs, false, 1},
    {"exp", kf_exp, kf_exp_out, kf_exp_, ref_exp, true, 4},
    {"log", kf_log, kf_log_out, kf_log_, ref_log, true, 4},
    {"sqrt", kf_sqrt, kf_sqrt_out, kf_sqrt_, ref_sqrt, true, 2},
    {"relu", kf_relu, kf_relu_out, kf_relu_, ref_relu, false, 1},
    {"sigmoid", kf_sigmoid, kf_sigmoid_out, kf_sigmoid_, ref_sigmoid, true, 4},
    {"tanh", kf_tanh, kf_tanh_out, kf_tanh_, ref_tanh, true, 4},
    {"square", kf_square, kf_square_out, kf_square_, ref_square, false, 2},  // last: kOps[i]
};

/** The dtype op computes in for inputs of dtype d (integers give float32 where it says so). */
kf_dtype_t compute_dtype(const UnaryOp& op, kf_dtype_t d) {
  return op.float_result && !is_float(d) ? KF_FLOAT32 : d;
}

bool needs_positive(const UnaryOp& op) {
  return std::strcmp(op.name, "log") == 0 || std::strcmp(op.name, "sqrt") == 0;
}

Values inputs_for(const UnaryOp& op) {
  if (needs_positive(op)) return {0.25, 1, 2, 3.5, 10, 100};
  return {-3, -1.5, -0.25, 0, 0.5, 4};
}

Values apply(const UnaryOp& op, const Values& v) {
  Values out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = op.ref(v[i]);
  return out;
}

TEST_P(Unary, Functional) {
  for (const UnaryOp& op : kOps) {
    SCOPED_TRACE(op.name);
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    const Values in = inputs_for(op);
    Tensor t = make(in, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, apply(op, in), {2, 3}, dt(), op.tol_scale));
  }
}

TEST_P(Unary, SpecialValues) {
  CTS_REQUIRE(dt(), "log", "sqrt", "sigmoid", "tanh");
  Tensor z = make(Values{0, -1}, {2}), l, s;
  CTS_ASSERT_OK(kf_log(z.get(), l.put()));
  CTS_ASSERT_OK(kf_sqrt(z.get(), s.put()));
  const Values lv = to_host_double(l), sv = to_host_double(s);
  ASSERT_EQ(lv.size(), 2u);
  ASSERT_EQ(sv.size(), 2u);
  EXPECT_TRUE(std::isinf(lv[0]) && lv[0] < 0) << "log(0) = -inf, got " << lv[0];
  EXPECT_TRUE(std::isnan(lv[1])) << "log(-1) = nan, got " << lv[1];
  EXPECT_EQ(sv[0], 0.0);
  EXPECT_TRUE(std::isnan(sv[1])) << "sqrt(-1) = nan, got " << sv[1];
  Tensor big = make(Values{-1000, 1000}, {2}), sg, th;
  CTS_ASSERT_OK(kf_sigmoid(big.get(), sg.put()));
  CTS_ASSERT_OK(kf_tanh(big.get(), th.put()));
  EXPECT_TRUE(matches(sg, Values{0, 1}, {2}, dt()));
  EXPECT_TRUE(matches(th, Values{-1, 1}, {2}, dt()));
}

TEST_P(Unary, StridedInput) {
  const Values base = {-2, -1, 0.5, 1, 1.5, 3, -0.75, 2};
  Tensor b = make(base, {2, 4}), t;
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 1, t.put()));  // [4,2], strides [1,4]
  const Values tv = gather_strided(base, 0, {4, 2}, {1, 4});
  for (const UnaryOp& op : kOps) {
    if (needs_positive(op)) continue;
    SCOPED_TRACE(op.name);
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    Tensor r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, apply(op, tv), {4, 2}, dt(), op.tol_scale));
  }
}

TEST_P(Unary, OutAndInplace) {
  for (const UnaryOp& op : kOps) {
    SCOPED_TRACE(op.name);
    CTS_REQUIRE_IN_LOOP(dt(), op.name);
    const Values in = inputs_for(op);
    Tensor t = make(in, {3, 2}), out;
    const Shape s{3, 2};
    CTS_ASSERT_OK(kf_empty(s.data(), 2, dt(), dev(), out.put()));
    CTS_ASSERT_OK(op.out(t.get(), out.get()));
    EXPECT_TRUE(matches(out, apply(op, in), s, dt(), op.tol_scale));
    CTS_ASSERT_OK(op.inplace(t.get()));
    EXPECT_TRUE(matches(t, apply(op, in), s, dt(), op.tol_scale));
  }
}

TEST_P(Unary, InplaceOnView) {
  CTS_REQUIRE(dt(), "neg", "relu");
  const Values base = iota(6, -3);
  Tensor b = make(base, {2, 3}), col;
  CTS_ASSERT_OK(kf_select(b.get(), 1, 1, col.put()));  // column 1: {-2, 1}
  CTS_ASSERT_OK(kf_neg_(col.get()));
  EXPECT_TRUE(matches(b, Values{-3, 2, -1, 0, -1, 2}, {2, 3}, dt()));
  CTS_ASSERT_OK(kf_relu_(b.get()));
  EXPECT_TRUE(matches(b, Values{0, 2, 0, 0, 0, 2}, {2, 3}, dt()));
}

TEST_P(Unary, ZeroDimAndEmpty) {
  CTS_REQUIRE(dt(), "exp", "tanh");
  Tensor s = make(Values{-2}, {}), e = make(Values{}, {0, 2}), r, re;
  CTS_ASSERT_OK(kf_exp(s.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{std::exp(-2.0)}, {}, dt(), 4));
  CTS_ASSERT_OK(kf_tanh(e.get(), re.put()));
  EXPECT_EQ(re.shape(), (Shape{0, 2}));
  EXPECT_EQ(re.dtype(), dt());
}

TEST_P(Unary, InfinityNanAndOverflow) {
  // exp overflows to inf in the dtype (float16 from about 11.1 on); inf, -inf and NaN map as
  // in PyTorch (relu keeps NaN).
  CTS_REQUIRE(dt(), "exp", "neg", "abs", "tanh", "sigmoid", "relu");
  const double x = dt() == KF_FLOAT16 ? 12 : dt() == KF_FLOAT64 ? 710 : 100;
  const double nan = std::nan(""), inf = INFINITY;
  const Values v{x, inf, -inf, nan};
  Tensor t = make(v, {4}), e, n, a, th, sg, r;
  CTS_ASSERT_OK(kf_exp(t.get(), e.put()));
  CTS_ASSERT_OK(kf_neg(t.get(), n.put()));
  CTS_ASSERT_OK(kf_abs(t.get(), a.put()));
  CTS_ASSERT_OK(kf_tanh(t.get(), th.put()));
  CTS_ASSERT_OK(kf_sigmoid(t.get(), sg.put()));
  CTS_ASSERT_OK(kf_relu(t.get(), r.put()));
  EXPECT_TRUE(matches(e, Values{inf, inf, 0, nan}, {4}, dt())) << "exp";
  EXPECT_TRUE(matches(n, Values{-x, -inf, inf, nan}, {4}, dt())) << "neg";
  EXPECT_TRUE(matches(a, Values{x, inf, inf, nan}, {4}, dt())) << "abs";
  EXPECT_TRUE(matches(th, Values{1, 1, -1, nan}, {4}, dt())) << "tanh";
  EXPECT_TRUE(matches(sg, Values{1, 1, 0, nan}, {4}, dt())) << "sigmoid";
  EXPECT_TRUE(matches(r, Values{x, inf, 0, nan}, {4}, dt())) << "relu";
}

// ------------------------------------------------------------------ integer inputs

TEST_P(UnaryInt, KeepDtypeOrGiveFloat32) {
  const Values neg_in = in({-3, -1, 0, 2, 5, -7}), pos_in{1, 2, 4, 9, 16, 100};
  for (const UnaryOp& op : kOps) {
    SCOPED_TRACE(op.name);
    CTS_REQUIRE_IN_LOOP(compute_dtype(op, dt()), op.name);
    const Values& in = needs_positive(op) ? pos_in : neg_in;
    Tensor t = make(in, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, apply(op, in), {2, 3}, op.float_result ? KF_FLOAT32 : dt(),
                        op.tol_scale));
  }
}

TEST_P(UnaryInt, StridedInput) {
  CTS_REQUIRE(dt(), "abs");
  CTS_REQUIRE(KF_FLOAT32, "sigmoid");
  const Values base = in({4, -1, 9, -16, 25, 0});
  Tensor b = make(base, {3, 2}), t, r, a;
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 1, t.put()));
  const Values tv = gather_strided(base, 0, {2, 3}, {1, 2});
  CTS_ASSERT_OK(kf_abs(t.get(), a.put()));
  EXPECT_TRUE(matches(a, apply(kOps[1], tv), {2, 3}, dt()));
  CTS_ASSERT_OK(kf_sigmoid(t.get(), r.put()));
  EXPECT_TRUE(matches(r, apply(kOps[6], tv), {2, 3}, KF_FLOAT32, 4));
}

TEST_P(UnaryInt, NegAbsReluAtTheLimits) {
  // PyTorch: neg and abs wrap (int8 -(-128) is -128, |-128| is -128); uint8 neg is 256 - x;
  // abs of uint8 is x.
  CTS_REQUIRE(dt(), "neg", "abs", "relu");
  struct Case { kf_dtype_t d; Values in, neg, abs, relu; };
  const Case cases[] = {
      {KF_INT8, {-128, 127, -1, 0}, {-128, -127, 1, 0}, {-128, 127, 1, 0}, {0, 127, 0, 0}},
      {KF_UINT8, {0, 1, 128, 255}, {0, 255, 128, 1}, {0, 1, 128, 255}, {0, 1, 128, 255}},
      {KF_INT16, {-32768, 32767, -5, 0}, {-32768, -32767, 5, 0}, {-32768, 32767, 5, 0},
       {0, 32767, 0, 0}},
      {KF_INT32, {-2147483648.0, 2147483647, -5, 0}, {-2147483648.0, -2147483647, 5, 0},
       {-2147483648.0, 2147483647, 5, 0}, {0, 2147483647, 0, 0}},
      {KF_INT64, {-4611686018427387904.0, 3, -5, 0}, {4611686018427387904.0, -3, 5, 0},
       {4611686018427387904.0, 3, 5, 0}, {0, 3, 0, 0}},
  };
  for (const Case& c : cases) {
    if (c.d != dt()) continue;
    Tensor t = make(c.in, {4}), n, a, r, n2;
    CTS_ASSERT_OK(kf_neg(t.get(), n.put()));
    CTS_ASSERT_OK(kf_abs(t.get(), a.put()));
    CTS_ASSERT_OK(kf_relu(t.get(), r.put()));
    EXPECT_TRUE(matches(n, c.neg, {4}, dt())) << "neg";
    EXPECT_TRUE(matches(a, c.abs, {4}, dt())) << "abs";
    EXPECT_TRUE(matches(r, c.relu, {4}, dt())) << "relu";
    CTS_ASSERT_OK(kf_neg_(t.get()));  // in place: the same wrap
    EXPECT_TRUE(matches(t, c.neg, {4}, dt())) << "neg_";
  }
}

TEST_P(UnaryInt, FloatFunctionsOfNarrowIntegers) {
  // exp/log/sqrt/sigmoid/tanh of an integer tensor compute in float32 from the stored values.
  const Values v = in({-128, -3, 0, 1, 100, 127});
  const Values pos = in({1, 2, 64, 100, 121, 127});
  for (const UnaryOp& op : kOps) {
    if (!op.float_result) continue;
    SCOPED_TRACE(op.name);
    CTS_REQUIRE_IN_LOOP(KF_FLOAT32, op.name);
    const Values& x = needs_positive(op) ? pos : v;
    Tensor t = make(x, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, apply(op, x), {2, 3}, KF_FLOAT32, op.tol_scale));
  }
}

CTS_INSTANTIATE(Unary, params_all_float());
CTS_INSTANTIATE(UnaryInt, params_all_int());

}  // namespace
}  // namespace cts
