// CTS: pointwise binary ops (add, sub, mul, div, eq, lt, gt, where): broadcasting, type
// promotion, strided inputs, _out and in-place variants.
#include "cts_util.hpp"

namespace cts {
namespace {

class Binary : public CtsTest {};     // backend x {f32, f64, i32, i64}
class Promotion : public CtsTest {};  // backend only: mixed dtypes

const Values kA{1, -2, 3, 4, 5, -6};
const Values kB{2, 3, -1, 0, 7, 1};

kf_dtype_t div_dtype(kf_dtype_t d) { return is_float(d) ? d : KF_FLOAT32; }

TEST_P(Binary, AddAlpha) {
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3}), r, r1;
  const bool fl = is_float(dt());
  const double alpha = fl ? 0.5 : 2.0;
  CTS_ASSERT_OK(kf_add(a.get(), b.get(), fl ? kf_scalar_f64(0.5) : kf_scalar_i64(2), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(kA, {2, 3}, kB, {2, 3},
                                    [&](double x, double y) { return x + alpha * y; }, nullptr),
                      {2, 3}, dt()));
  CTS_ASSERT_OK(kf_add(a.get(), b.get(), one(), r1.put()));
  EXPECT_TRUE(matches(r1, ref_binary(kA, {2, 3}, kB, {2, 3},
                                     [](double x, double y) { return x + y; }, nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, SubAlpha) {
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3}), r;
  CTS_ASSERT_OK(kf_sub(a.get(), b.get(), kf_scalar_i64(3), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(kA, {2, 3}, kB, {2, 3},
                                    [](double x, double y) { return x - 3 * y; }, nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, Mul) {
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3}), r;
  CTS_ASSERT_OK(kf_mul(a.get(), b.get(), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(kA, {2, 3}, kB, {2, 3},
                                    [](double x, double y) { return x * y; }, nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, DivTrueDivision) {
  const Values a{-7, 6, 5, 0, 9, -3}, b{2, 4, -2, 3, 1, 5};
  Tensor ta = make(a, {2, 3}), tb = make(b, {2, 3}), r;
  CTS_ASSERT_OK(kf_div(ta.get(), tb.get(), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(a, {2, 3}, b, {2, 3},
                                    [](double x, double y) { return x / y; }, nullptr),
                      {2, 3}, div_dtype(dt())));
}

TEST_P(Binary, Compare) {
  const Values a{1, 2, 3, -4, 5, 6}, b{1, 3, 2, -4, 0, 7};
  Tensor ta = make(a, {2, 3}), tb = make(b, {2, 3}), e, l, g;
  CTS_ASSERT_OK(kf_eq(ta.get(), tb.get(), e.put()));
  CTS_ASSERT_OK(kf_lt(ta.get(), tb.get(), l.put()));
  CTS_ASSERT_OK(kf_gt(ta.get(), tb.get(), g.put()));
  EXPECT_TRUE(matches(e, Values{1, 0, 0, 1, 0, 0}, {2, 3}, KF_BOOL));
  EXPECT_TRUE(matches(l, Values{0, 1, 0, 0, 0, 1}, {2, 3}, KF_BOOL));
  EXPECT_TRUE(matches(g, Values{0, 0, 1, 0, 1, 0}, {2, 3}, KF_BOOL));
}

TEST_P(Binary, WhereBroadcast) {
  Tensor c = make(Values{1, 0, 1, 0, 0, 1}, {2, 3}, KF_BOOL);
  Tensor s = make(kA, {2, 3}), o = make(Values{10, 20, 30}, {3}), r;
  CTS_ASSERT_OK(kf_where(c.get(), s.get(), o.get(), r.put()));
  EXPECT_TRUE(matches(r, Values{1, 20, 3, 10, 20, -6}, {2, 3}, dt()));
  // condition [3,1] against self [1,2]: output [3,2].
  Tensor c2 = make(Values{0, 1, 1}, {3, 1}, KF_BOOL), s2 = make(Values{7, 8}, {1, 2}),
         o2 = make(Values{-1}, {}), r2;
  CTS_ASSERT_OK(kf_where(c2.get(), s2.get(), o2.get(), r2.put()));
  EXPECT_TRUE(matches(r2, Values{-1, -1, 7, 8, 7, 8}, {3, 2}, dt()));
}

TEST_P(Binary, Broadcast3x1With1x4) {
  const Values a{1, 2, 3}, b{10, 20, 30, 40};
  Tensor ta = make(a, {3, 1}), tb = make(b, {1, 4}), add, mul, sub, gt;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), one(), add.put()));
  CTS_ASSERT_OK(kf_mul(ta.get(), tb.get(), mul.put()));
  CTS_ASSERT_OK(kf_sub(tb.get(), ta.get(), one(), sub.put()));
  CTS_ASSERT_OK(kf_gt(ta.get(), make(Values{0, 1, 2, 3}, {1, 4}).get(), gt.put()));
  Shape os;
  EXPECT_TRUE(matches(add, ref_binary(a, {3, 1}, b, {1, 4}, std::plus<double>(), &os), os, dt()));
  EXPECT_EQ(os, (Shape{3, 4}));
  EXPECT_TRUE(matches(mul, ref_binary(a, {3, 1}, b, {1, 4}, std::multiplies<double>(), nullptr),
                      {3, 4}, dt()));
  EXPECT_TRUE(matches(sub, ref_binary(b, {1, 4}, a, {3, 1}, std::minus<double>(), nullptr),
                      {3, 4}, dt()));
  EXPECT_TRUE(matches(gt, ref_binary(a, {3, 1}, {0, 1, 2, 3}, {1, 4},
                                     [](double x, double y) { return x > y ? 1.0 : 0.0; },
                                     nullptr),
                      {3, 4}, KF_BOOL));
}

TEST_P(Binary, ZeroDimWith2x3) {
  Tensor s = make(Values{2}, {}), t = make(kA, {2, 3}), r1, r2, r3;
  CTS_ASSERT_OK(kf_add(s.get(), t.get(), one(), r1.put()));
  CTS_ASSERT_OK(kf_mul(t.get(), s.get(), r2.put()));
  CTS_ASSERT_OK(kf_div(t.get(), s.get(), r3.put()));
  EXPECT_TRUE(matches(r1, ref_binary({2}, {}, kA, {2, 3}, std::plus<double>(), nullptr), {2, 3},
                      dt()));
  EXPECT_TRUE(matches(r2, ref_binary(kA, {2, 3}, {2}, {}, std::multiplies<double>(), nullptr),
                      {2, 3}, dt()));
  EXPECT_TRUE(matches(r3, ref_binary(kA, {2, 3}, {2}, {}, std::divides<double>(), nullptr),
                      {2, 3}, div_dtype(dt())));
}

TEST_P(Binary, Broadcast3D) {
  const Values a = iota(6, -2), b{1, 2, 3, 4};
  Tensor ta = make(a, {2, 1, 3}), tb = make(b, {4, 1}), r;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), kf_scalar_i64(2), r.put()));
  EXPECT_TRUE(matches(r, ref_binary(a, {2, 1, 3}, b, {4, 1},
                                    [](double x, double y) { return x + 2 * y; }, nullptr),
                      {2, 4, 3}, dt()));
}

TEST_P(Binary, ZeroDimBoth) {
  Tensor a = make(Values{3}, {}), b = make(Values{-5}, {}), r;
  CTS_ASSERT_OK(kf_add(a.get(), b.get(), one(), r.put()));
  EXPECT_TRUE(matches(r, Values{-2}, {}, dt()));
  EXPECT_EQ(r.ndim(), 0);
}

TEST_P(Binary, EmptyTensors) {
  Tensor a = make(Values{}, {0, 3}), b = make(Values{1, 2, 3}, {3}), r, m;
  CTS_ASSERT_OK(kf_add(a.get(), b.get(), one(), r.put()));
  EXPECT_EQ(r.shape(), (Shape{0, 3}));
  EXPECT_EQ(r.numel(), 0);
  EXPECT_EQ(r.dtype(), dt());
  Tensor c = make(Values{}, {0}), s = make(Values{4}, {});
  CTS_ASSERT_OK(kf_mul(c.get(), s.get(), m.put()));
  EXPECT_EQ(m.shape(), (Shape{0}));
}

TEST_P(Binary, StridedInputs) {
  // t: transpose of a [3,2] base -> [2,3], strides [1,2]. s: [2,6] sliced with step 2 -> [2,3].
  const Values base1 = iota(6, 1), base2 = iota(12, -5);
  Tensor b1 = make(base1, {3, 2}), b2 = make(base2, {2, 6}), t, s;
  CTS_ASSERT_OK(kf_transpose(b1.get(), 0, 1, t.put()));
  const int64_t start = 0, end = 6;
  CTS_ASSERT_OK(kf_slice(b2.get(), 1, &start, &end, 2, s.put()));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_FALSE(s.is_contiguous());
  const Values tv = gather_strided(base1, 0, {2, 3}, {1, 2});
  const Values sv = gather_strided(base2, 0, {2, 3}, {6, 2});
  Tensor r, m, c;
  CTS_ASSERT_OK(kf_add(t.get(), s.get(), one(), r.put()));
  CTS_ASSERT_OK(kf_mul(s.get(), t.get(), m.put()));
  CTS_ASSERT_OK(kf_lt(t.get(), s.get(), c.put()));
  EXPECT_TRUE(matches(r, ref_binary(tv, {2, 3}, sv, {2, 3}, std::plus<double>(), nullptr), {2, 3},
                      dt()));
  EXPECT_TRUE(matches(m, ref_binary(sv, {2, 3}, tv, {2, 3}, std::multiplies<double>(), nullptr),
                      {2, 3}, dt()));
  EXPECT_TRUE(matches(c, ref_binary(tv, {2, 3}, sv, {2, 3},
                                    [](double x, double y) { return x < y ? 1.0 : 0.0; }, nullptr),
                      {2, 3}, KF_BOOL));
  // An expanded (stride 0) input.
  Tensor row = make(Values{1, 2, 3}, {3}), ex, r2;
  const Shape es{2, 3};
  CTS_ASSERT_OK(kf_expand(row.get(), es.data(), 2, ex.put()));
  CTS_ASSERT_OK(kf_add(ex.get(), t.get(), one(), r2.put()));
  EXPECT_TRUE(matches(r2, ref_binary({1, 2, 3}, {3}, tv, {2, 3}, std::plus<double>(), nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, OutVariants) {
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3}), out, bout;
  const Shape s{2, 3};
  CTS_ASSERT_OK(kf_empty(s.data(), 2, dt(), dev(), out.put()));
  const char* before = out.data();
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), kf_scalar_i64(2), out.get()));
  EXPECT_TRUE(matches(out, ref_binary(kA, s, kB, s, [](double x, double y) { return x + 2 * y; },
                                      nullptr), s, dt()));
  EXPECT_EQ(out.data(), before) << "add_out must write into the given storage";
  CTS_ASSERT_OK(kf_mul_out(a.get(), b.get(), out.get()));
  EXPECT_TRUE(matches(out, ref_binary(kA, s, kB, s, std::multiplies<double>(), nullptr), s, dt()));
  CTS_ASSERT_OK(kf_sub_out(a.get(), b.get(), one(), out.get()));
  EXPECT_TRUE(matches(out, ref_binary(kA, s, kB, s, std::minus<double>(), nullptr), s, dt()));
  CTS_ASSERT_OK(kf_empty(s.data(), 2, KF_BOOL, dev(), bout.put()));
  CTS_ASSERT_OK(kf_gt_out(a.get(), b.get(), bout.get()));
  EXPECT_TRUE(matches(bout, Values{0, 0, 1, 1, 0, 0}, s, KF_BOOL));
  Tensor dout;
  CTS_ASSERT_OK(kf_empty(s.data(), 2, div_dtype(dt()), dev(), dout.put()));
  CTS_ASSERT_OK(kf_div_out(a.get(), make(Values{2, 4, 1, 8, -5, 3}, s).get(), dout.get()));
  EXPECT_TRUE(matches(dout, Values{0.5, -0.5, 3, 0.5, -1, -2}, s, div_dtype(dt())));
}

TEST_P(Binary, OutNonContiguous) {
  // out is the transpose of a [3,2] base; writing it must land in the base transposed.
  const Shape bs{3, 2};
  Tensor base, outT;
  CTS_ASSERT_OK(kf_zeros(bs.data(), 2, dt(), dev(), base.put()));
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, outT.put()));
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3});
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), one(), outT.get()));
  const Values sum = ref_binary(kA, {2, 3}, kB, {2, 3}, std::plus<double>(), nullptr);
  EXPECT_TRUE(matches(outT, sum, {2, 3}, dt()));
  EXPECT_EQ(outT.strides(), (Shape{1, 2})) << "out must keep its layout";
  EXPECT_TRUE(matches(base, gather_strided(sum, 0, {3, 2}, {1, 3}), bs, dt()));
  // where_out into a non-contiguous out.
  Tensor c = make(Values{1, 0, 0, 1, 1, 0}, {2, 3}, KF_BOOL);
  CTS_ASSERT_OK(kf_where_out(c.get(), a.get(), b.get(), outT.get()));
  EXPECT_TRUE(matches(outT, Values{1, 3, -1, 4, 5, 1}, {2, 3}, dt()));
}

TEST_P(Binary, OutAliasesAnInput) {
  // out is self: the same as the in-place op.
  Tensor a = make(kA, {2, 3}), b = make(kB, {2, 3});
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), one(), a.get()));
  EXPECT_TRUE(matches(a, ref_binary(kA, {2, 3}, kB, {2, 3}, std::plus<double>(), nullptr),
                      {2, 3}, dt()));
  CTS_ASSERT_OK(kf_mul_out(b.get(), b.get(), b.get()));
  EXPECT_TRUE(matches(b, ref_binary(kB, {2, 3}, kB, {2, 3}, std::multiplies<double>(), nullptr),
                      {2, 3}, dt()));
}

TEST_P(Binary, InplaceOnTransposedView) {
  const Values bv = iota(6, 1);
  Tensor base = make(bv, {3, 2}), t;
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, t.put()));
  const Values tv = gather_strided(bv, 0, {2, 3}, {1, 2});
  Tensor other = make(kB, {2, 3});
  const char* before = t.data();
  CTS_ASSERT_OK(kf_add_(t.get(), other.get(), kf_scalar_i64(2)));
  const Values want = ref_binary(tv, {2, 3}, kB, {2, 3},
                                 [](double x, double y) { return x + 2 * y; }, nullptr);
  EXPECT_TRUE(matches(t, want, {2, 3}, dt()));
  EXPECT_EQ(t.data(), before);
  EXPECT_EQ(t.strides(), (Shape{1, 2}));
  EXPECT_TRUE(matches(base, gather_strided(want, 0, {3, 2}, {1, 3}), {3, 2}, dt()))
      << "writing through the transposed view must change the base";
}

TEST_P(Binary, InplaceVariants) {
  Tensor a = make(kA, {2, 3}), row = make(Values{1, 2, 3}, {3});
  CTS_ASSERT_OK(kf_mul_(a.get(), row.get()));  // other broadcasts to self
  Values want = ref_binary(kA, {2, 3}, {1, 2, 3}, {3}, std::multiplies<double>(), nullptr);
  EXPECT_TRUE(matches(a, want, {2, 3}, dt()));
  CTS_ASSERT_OK(kf_sub_(a.get(), make(Values{1}, {}).get(), kf_scalar_i64(2)));
  for (double& x : want) x -= 2;
  EXPECT_TRUE(matches(a, want, {2, 3}, dt()));
  if (is_float(dt())) {
    CTS_ASSERT_OK(kf_div_(a.get(), make(Values{4}, {}).get()));
    for (double& x : want) x /= 4;
    EXPECT_TRUE(matches(a, want, {2, 3}, dt()));
  }
}

// ------------------------------------------------------------------ type promotion

void expect_binary(kf_device_t dev, const char* what, kf_status_t st, const Tensor& r,
                   const Values& want, const Shape& shape, kf_dtype_t dtype) {
  ASSERT_EQ(st, KF_OK) << what << ": " << status_text(st);
  EXPECT_TRUE(matches(r, want, shape, dtype)) << what;
  EXPECT_EQ(r.device().type, dev.type) << what;
}

TEST_P(Promotion, Int32PlusFloat32IsFloat32) {
  Tensor a = make(Values{1, 2, 3}, {3}, KF_INT32), b = make(Values{0.5, 1.5, -2}, {3}, KF_FLOAT32);
  Tensor r;
  expect_binary(dev(), "i32+f32", kf_add(a.get(), b.get(), one(), r.put()), r,
                Values{1.5, 3.5, 1}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, Int32PlusInt64IsInt64) {
  Tensor a = make(Values{1, 2, 3}, {3}, KF_INT32), b = make(Values{10, 20, 30}, {3}, KF_INT64);
  Tensor r;
  expect_binary(dev(), "i32+i64", kf_add(a.get(), b.get(), one(), r.put()), r,
                Values{11, 22, 33}, {3}, KF_INT64);
}

TEST_P(Promotion, BoolPlusBoolIsBool) {
  Tensor a = make(Values{1, 1, 0, 0}, {4}, KF_BOOL), b = make(Values{1, 0, 1, 0}, {4}, KF_BOOL);
  Tensor r, m;
  expect_binary(dev(), "bool+bool", kf_add(a.get(), b.get(), one(), r.put()), r,
                Values{1, 1, 1, 0}, {4}, KF_BOOL);
  expect_binary(dev(), "bool*bool", kf_mul(a.get(), b.get(), m.put()), m, Values{1, 0, 0, 0},
                {4}, KF_BOOL);
}

TEST_P(Promotion, ZeroDimFloat64PlusFloat32TensorIsFloat32) {
  Tensor s = make(Values{0.1}, {}, KF_FLOAT64), t = make(Values{1, 2, 3}, {3}, KF_FLOAT32);
  Tensor r;
  expect_binary(dev(), "0-dim f64 + f32[3]", kf_add(s.get(), t.get(), one(), r.put()), r,
                Values{1.1, 2.1, 3.1}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, ZeroDimFloat32PlusInt32TensorIsFloat32) {
  Tensor s = make(Values{2.5}, {}, KF_FLOAT32), t = make(Values{1, 2, 3}, {3}, KF_INT32);
  Tensor r;
  expect_binary(dev(), "0-dim f32 + i32[3]", kf_add(s.get(), t.get(), one(), r.put()), r,
                Values{3.5, 4.5, 5.5}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, ZeroDimSameCategoryDoesNotWiden) {
  Tensor s = make(Values{5}, {}, KF_INT64), t = make(Values{1, 2, 3}, {3}, KF_INT32), r, r2;
  expect_binary(dev(), "i32[3] + 0-dim i64", kf_add(t.get(), s.get(), one(), r.put()), r,
                Values{6, 7, 8}, {3}, KF_INT32);
  Tensor f = make(Values{0.5, 1, 2}, {3}, KF_FLOAT32), i = make(Values{3}, {}, KF_INT64);
  expect_binary(dev(), "f32[3] * 0-dim i64", kf_mul(f.get(), i.get(), r2.put()), r2,
                Values{1.5, 3, 6}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, IntDivIntIsFloat32) {
  Tensor a = make(Values{7, -7, 1}, {3}, KF_INT64), b = make(Values{2, 2, 3}, {3}, KF_INT64);
  Tensor r;
  expect_binary(dev(), "i64/i64", kf_div(a.get(), b.get(), r.put()), r,
                Values{3.5, -3.5, 1.0 / 3.0}, {3}, KF_FLOAT32);
  Tensor c = make(Values{7, 9}, {2}, KF_INT32), d = make(Values{2}, {}, KF_INT32), r2;
  expect_binary(dev(), "i32/i32", kf_div(c.get(), d.get(), r2.put()), r2, Values{3.5, 4.5}, {2},
                KF_FLOAT32);
}

TEST_P(Promotion, IntDivByZeroIsIeee) {
  Tensor a = make(Values{1, -1, 0}, {3}, KF_INT32), z = make(Values{0, 0, 0}, {3}, KF_INT32), r;
  expect_binary(dev(), "i32/0", kf_div(a.get(), z.get(), r.put()), r,
                Values{INFINITY, -INFINITY, NAN}, {3}, KF_FLOAT32);
}

TEST_P(Promotion, BoolTimesInt32IsInt32) {
  Tensor a = make(Values{1, 0, 1}, {3}, KF_BOOL), b = make(Values{4, 5, -6}, {3}, KF_INT32);
  Tensor r;
  expect_binary(dev(), "bool*i32", kf_mul(a.get(), b.get(), r.put()), r, Values{4, 0, -6}, {3},
                KF_INT32);
}

TEST_P(Promotion, CompareMixedDtypes) {
  Tensor a = make(Values{1, 2, 3}, {3}, KF_INT32), b = make(Values{1, 2.5, 3}, {3}, KF_FLOAT32);
  Tensor e, l;
  expect_binary(dev(), "eq(i32,f32)", kf_eq(a.get(), b.get(), e.put()), e, Values{1, 0, 1}, {3},
                KF_BOOL);
  expect_binary(dev(), "lt(i32,f32)", kf_lt(a.get(), b.get(), l.put()), l, Values{0, 1, 0}, {3},
                KF_BOOL);
}

TEST_P(Promotion, WhereMixedDtypes) {
  Tensor c = make(Values{1, 0}, {2}, KF_BOOL);
  Tensor f = make(Values{1.5, 2.5}, {2}, KF_FLOAT32), d = make(Values{-1, -2}, {2}, KF_FLOAT64);
  Tensor r, r2;
  expect_binary(dev(), "where(f32,f64)", kf_where(c.get(), f.get(), d.get(), r.put()), r,
                Values{1.5, -2}, {2}, KF_FLOAT64);
  // A 0-dim tensor of a higher category keeps its own dtype (unlike a Python number).
  Tensor i = make(Values{3, 4}, {2}, KF_INT32), s = make(Values{0.5}, {}, KF_FLOAT64);
  expect_binary(dev(), "where(i32, 0-dim f64)", kf_where(c.get(), i.get(), s.get(), r2.put()), r2,
                Values{3, 0.5}, {2}, KF_FLOAT64);
}

TEST_P(Promotion, OutOfWiderDtype) {
  // int32 + int32 into a float64 out: the result is cast on store (PyTorch allows it).
  Tensor a = make(Values{1, 2}, {2}, KF_INT32), b = make(Values{3, -4}, {2}, KF_INT32), out;
  const Shape s{2};
  CTS_ASSERT_OK(kf_empty(s.data(), 1, KF_FLOAT64, dev(), out.put()));
  CTS_ASSERT_OK(kf_add_out(a.get(), b.get(), one(), out.get()));
  EXPECT_TRUE(matches(out, Values{4, -2}, s, KF_FLOAT64));
}

TEST_P(Promotion, InplaceKeepsSelfDtype) {
  // float32 self += int64 other: the result stays float32.
  Tensor a = make(Values{0.5, 1.5}, {2}, KF_FLOAT32), b = make(Values{1, 2}, {2}, KF_INT64);
  CTS_ASSERT_OK(kf_add_(a.get(), b.get(), one()));
  EXPECT_TRUE(matches(a, Values{1.5, 3.5}, {2}, KF_FLOAT32));
}

TEST_P(Binary, LargeBroadcastAndStrided) {
  // Large enough for the kernels to split the work over threads.
  const Values a = iota(512, -100), b = iota(600, 3);
  Tensor ta = make(a, {512, 1}), tb = make(b, {1, 600}), r, t, r2;
  CTS_ASSERT_OK(kf_add(ta.get(), tb.get(), kf_scalar_i64(2), r.put()));
  const Values want = ref_binary(a, {512, 1}, b, {1, 600},
                                 [](double x, double y) { return x + 2 * y; }, nullptr);
  EXPECT_TRUE(matches(r, want, {512, 600}, dt()));
  CTS_ASSERT_OK(kf_transpose(r.get(), 0, 1, t.put()));  // [600,512] strided
  CTS_ASSERT_OK(kf_sub(t.get(), t.get(), one(), r2.put()));
  EXPECT_TRUE(matches(r2, Values(600 * 512, 0.0), {600, 512}, dt()));
}

CTS_INSTANTIATE(Binary, params_numeric());
CTS_INSTANTIATE(Promotion, params_any());

}  // namespace
}  // namespace cts
