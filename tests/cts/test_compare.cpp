// CTS: ne, le, ge, logical_and, logical_or: every dtype (bool included), broadcasting, mixed
// dtypes (promotion, then the comparison), NaN, strided inputs, 0-dim, empty, out= into a
// non-contiguous bool out.
#include "cts_pointwise.hpp"

namespace cts {
namespace {

class Compare : public CtsTest {};       // backend x every dtype
class CompareFloat : public CtsTest {};  // backend x every floating dtype
class CompareMixed : public CtsTest {};  // backend only: mixed dtypes

using BinaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t, kf_tensor_t*);
using BinaryOutFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t, kf_tensor_t);

struct CompareOp {
  const char* name;
  BinaryFn fn;
  BinaryOutFn out;
  double (*ref)(double, double);
};

double b2d(bool b) { return b ? 1.0 : 0.0; }
bool truthy(double x) { return x != 0.0; }  // NaN != 0: true

const CompareOp kOps[] = {
    {"ne", kf_ne, kf_ne_out, [](double x, double y) { return b2d(x != y); }},
    {"le", kf_le, kf_le_out, [](double x, double y) { return b2d(x <= y); }},
    {"ge", kf_ge, kf_ge_out, [](double x, double y) { return b2d(x >= y); }},
    {"logical_and", kf_logical_and, kf_logical_and_out,
     [](double x, double y) { return b2d(truthy(x) && truthy(y)); }},
    {"logical_or", kf_logical_or, kf_logical_or_out,
     [](double x, double y) { return b2d(truthy(x) || truthy(y)); }},
};

// Values every dtype holds (bool turns them into 0/1, which `stored` mirrors).
const Values kA{0, 1, 2, 3, 1, 0};
const Values kB{0, 2, 2, 1, 0, 1};

TEST_P(Compare, SameShape) {
  const Values a = stored(kA, dt()), b = stored(kB, dt());
  for (const CompareOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor ta = make(kA, {2, 3}), tb = make(kB, {2, 3}), r;
    CTS_ASSERT_OK(op.fn(ta.get(), tb.get(), r.put()));
    EXPECT_TRUE(matches(r, ref_binary(a, {2, 3}, b, {2, 3}, op.ref, nullptr), {2, 3}, KF_BOOL));
  }
}

TEST_P(Compare, Broadcast) {
  // [3,1] against [1,4] -> [3,4]; [2,3] against a 0-dim tensor.
  const Values a{0, 1, 3}, b{1, 0, 3, 2};
  const Values sa = stored(a, dt()), sb = stored(b, dt());
  for (const CompareOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor ta = make(a, {3, 1}), tb = make(b, {1, 4}), r, r2;
    CTS_ASSERT_OK(op.fn(ta.get(), tb.get(), r.put()));
    EXPECT_TRUE(matches(r, ref_binary(sa, {3, 1}, sb, {1, 4}, op.ref, nullptr), {3, 4}, KF_BOOL));
    Tensor full = make(kA, {2, 3}), s = make(Values{1}, {});
    CTS_ASSERT_OK(op.fn(s.get(), full.get(), r2.put()));
    EXPECT_TRUE(matches(r2, ref_binary({1}, {}, stored(kA, dt()), {2, 3}, op.ref, nullptr),
                        {2, 3}, KF_BOOL));
  }
}

TEST_P(Compare, StridedInputs) {
  // The transpose of a [3,2] tensor against an expanded (stride 0) row.
  const Values base{0, 1, 2, 3, 1, 2};
  const Values tv = stored(gather_strided(base, 0, {2, 3}, {1, 2}), dt());
  for (const CompareOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor hold, t = transposed_input(base, 3, 2, dt(), dev(), hold);
    Tensor row = make(Values{1, 2, 0}, {3}), ex, r;
    const Shape es{2, 3};
    CTS_ASSERT_OK(kf_expand(row.get(), es.data(), 2, ex.put()));
    CTS_ASSERT_OK(op.fn(t.get(), ex.get(), r.put()));
    EXPECT_TRUE(matches(r, ref_binary(tv, {2, 3}, stored({1, 2, 0}, dt()), {3}, op.ref, nullptr),
                        {2, 3}, KF_BOOL));
  }
}

TEST_P(Compare, ZeroDimAndEmpty) {
  for (const CompareOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor a = make(Values{2}, {}), b = make(Values{1}, {}), r;
    CTS_ASSERT_OK(op.fn(a.get(), b.get(), r.put()));
    EXPECT_TRUE(matches(r, Values{op.ref(round_to(dt(), 2), round_to(dt(), 1))}, {}, KF_BOOL));
    Tensor e = make(Values{}, {0, 3}), row = make(Values{1, 2, 3}, {3}), re;
    CTS_ASSERT_OK(op.fn(e.get(), row.get(), re.put()));
    EXPECT_EQ(re.shape(), (Shape{0, 3}));
    EXPECT_EQ(re.dtype(), KF_BOOL);
  }
}

TEST_P(Compare, OutNonContiguous) {
  const Values a = stored(kA, dt()), b = stored(kB, dt());
  for (const CompareOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor ta = make(kA, {2, 3}), tb = make(kB, {2, 3}), base;
    Tensor out = transposed_out(2, 3, KF_BOOL, dev(), base);
    CTS_ASSERT_OK(op.out(ta.get(), tb.get(), out.get()));
    const Values want = ref_binary(a, {2, 3}, b, {2, 3}, op.ref, nullptr);
    EXPECT_TRUE(matches(out, want, {2, 3}, KF_BOOL));
    EXPECT_EQ(out.strides(), (Shape{1, 2}));
    EXPECT_TRUE(matches(base, gather_strided(want, 0, {3, 2}, {1, 3}), {3, 2}, KF_BOOL));
    // A wrong-shaped out is refused.
    Tensor small = empty_tensor({3}, KF_BOOL, dev());
    EXPECT_TRUE(is_invalid(op.out(ta.get(), tb.get(), small.get()), op.name));
  }
}

TEST_P(Compare, BroadcastFailureIsInvalid) {
  for (const CompareOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor a = make(kA, {2, 3}), b = make(Values{1, 0}, {2}), r;
    EXPECT_TRUE(is_invalid(op.fn(a.get(), b.get(), r.put()), op.name));
  }
}

TEST_P(CompareFloat, NanInfAndSignedZero) {
  const double nan = std::nan("");
  const Values a{nan, nan, 1, INFINITY, -0.0, 0.0, -INFINITY, 0.5};
  const Values b{nan, 1, nan, 1, 0.0, 0.0, 0.0, 0.0};
  for (const CompareOp& op : kOps) {
    SCOPED_TRACE(op.name);
    Tensor ta = make(a, {8}), tb = make(b, {8}), r;
    CTS_ASSERT_OK(op.fn(ta.get(), tb.get(), r.put()));
    EXPECT_TRUE(matches(r, ref_binary(a, {8}, b, {8}, op.ref, nullptr), {8}, KF_BOOL));
  }
  // Spelled out: NaN is unequal to itself and true for the logical ops; -0.0 == 0.0 is false.
  Tensor ta = make(a, {8}), tb = make(b, {8}), ne, land, lor;
  CTS_ASSERT_OK(kf_ne(ta.get(), tb.get(), ne.put()));
  CTS_ASSERT_OK(kf_logical_and(ta.get(), tb.get(), land.put()));
  CTS_ASSERT_OK(kf_logical_or(ta.get(), tb.get(), lor.put()));
  EXPECT_TRUE(matches(ne, Values{1, 1, 1, 1, 0, 0, 1, 1}, {8}, KF_BOOL));
  EXPECT_TRUE(matches(land, Values{1, 1, 1, 1, 0, 0, 0, 0}, {8}, KF_BOOL));
  EXPECT_TRUE(matches(lor, Values{1, 1, 1, 1, 0, 0, 1, 1}, {8}, KF_BOOL));
}

TEST_P(CompareFloat, LargeStrided) {
  // Large enough to split over threads; a transposed input.
  const Values a = iota(300 * 200, -15000, 0.5), b = iota(200, -50, 0.5);
  Tensor ta = make(a, {300, 200}), tb = make(b, {200}), t, r;
  CTS_ASSERT_OK(kf_transpose(ta.get(), 0, 1, t.put()));  // [200, 300]
  Tensor tb2 = make(b, {200, 1}), r2;
  CTS_ASSERT_OK(kf_le(t.get(), tb2.get(), r.put()));
  const Values tv = stored(gather_strided(a, 0, {200, 300}, {1, 200}), dt());
  EXPECT_TRUE(matches(r, ref_binary(tv, {200, 300}, stored(b, dt()), {200, 1},
                                    kOps[1].ref, nullptr),
                      {200, 300}, KF_BOOL));
  CTS_ASSERT_OK(kf_logical_or(ta.get(), tb.get(), r2.put()));
  EXPECT_TRUE(matches(r2, ref_binary(stored(a, dt()), {300, 200}, stored(b, dt()), {200},
                                     kOps[4].ref, nullptr),
                      {300, 200}, KF_BOOL));
}

void expect_bools(kf_status_t st, const Tensor& r, const Values& want, const char* what) {
  ASSERT_EQ(st, KF_OK) << what << ": " << status_text(st);
  EXPECT_TRUE(matches(r, want, {static_cast<int64_t>(want.size())}, KF_BOOL)) << what;
}

TEST_P(CompareMixed, PromotionThenCompare) {
  Tensor i = make(Values{1, 2, 3}, {3}, KF_INT32), f = make(Values{1, 2.5, 2.5}, {3}, KF_FLOAT32);
  Tensor r1, r2, r3, r4, r5, r6;
  expect_bools(kf_le(i.get(), f.get(), r1.put()), r1, {1, 1, 0}, "le(i32, f32)");
  expect_bools(kf_ne(f.get(), i.get(), r2.put()), r2, {0, 1, 1}, "ne(f32, i32)");
  // uint8 200 against int8 -1 compares in int16: 200 >= -1.
  Tensor u = make(Values{200, 0}, {2}, KF_UINT8), s = make(Values{-1, 0}, {2}, KF_INT8);
  expect_bools(kf_ge(u.get(), s.get(), r3.put()), r3, {1, 1}, "ge(u8, i8)");
  // bool against int64: true is 1.
  Tensor b = make(Values{1, 0, 1}, {3}, KF_BOOL), l = make(Values{1, 0, 2}, {3}, KF_INT64);
  expect_bools(kf_ge(b.get(), l.get(), r4.put()), r4, {1, 1, 0}, "ge(bool, i64)");
  // A 0-dim float64 against int32: compared as float64.
  Tensor z = make(Values{2.5}, {}, KF_FLOAT64);
  expect_bools(kf_ge(i.get(), z.get(), r5.put()), r5, {0, 0, 1}, "ge(i32, 0-dim f64)");
  // logical ops over any two dtypes.
  Tensor d = make(Values{0.0, 0.5, std::nan("")}, {3}, KF_FLOAT64);
  Tensor k = make(Values{3, 0, 1}, {3}, KF_INT8), r7;
  expect_bools(kf_logical_and(d.get(), k.get(), r6.put()), r6, {0, 0, 1},
               "logical_and(f64, i8)");
  expect_bools(kf_logical_or(b.get(), d.get(), r7.put()), r7, {1, 1, 1}, "logical_or(bool, f64)");
}

TEST_P(CompareMixed, OutOfAnotherDtype) {
  // A bool result written into an int32 out is converted (0/1).
  Tensor a = make(Values{1, 5, 3}, {3}, KF_INT64), b = make(Values{2, 5, 1}, {3}, KF_INT64);
  Tensor out = empty_tensor({3}, KF_INT32, dev());
  CTS_ASSERT_OK(kf_le_out(a.get(), b.get(), out.get()));
  EXPECT_TRUE(matches(out, Values{1, 1, 0}, {3}, KF_INT32));
}

CTS_INSTANTIATE(Compare, params_all());
CTS_INSTANTIATE(CompareFloat, params_all_float());
CTS_INSTANTIATE(CompareMixed, params_any());

}  // namespace
}  // namespace cts
