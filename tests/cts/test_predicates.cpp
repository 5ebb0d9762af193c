// CTS: isnan, isinf, isfinite, signbit, logical_not, logical_xor: a bool result for every real
// dtype (the unsigned ones of ABI 2.0 included), special values, broadcasting, strided inputs,
// 0-dim, empty, out= into a non-contiguous bool out. Integers are never NaN or infinite;
// signbit of an integer is x < 0. The complex dtypes: test_complex_functions.cpp.
#include "cts_pointwise.hpp"

namespace cts {
namespace {

class Predicates : public CtsTest {};

using UnaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t*);
using UnaryOutFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t);

struct Pred {
  const char* name;
  UnaryFn fn;
  UnaryOutFn out;
  bool (*ref)(double);
};

const Pred kPreds[] = {
    {"isnan", kf_isnan, kf_isnan_out, [](double x) { return std::isnan(x); }},
    {"isinf", kf_isinf, kf_isinf_out, [](double x) { return std::isinf(x); }},
    {"isfinite", kf_isfinite, kf_isfinite_out, [](double x) { return std::isfinite(x); }},
    {"signbit", kf_signbit, kf_signbit_out, [](double x) { return std::signbit(x); }},
    {"logical_not", kf_logical_not, kf_logical_not_out, [](double x) { return x == 0.0; }},
};

Values inputs(kf_dtype_t d) {
  if (is_float(d)) return {0.0, -0.0, INFINITY, -INFINITY, std::nan(""), -2.5, 3, -std::nan("")};
  if (d == KF_BOOL) return {0, 1, 1, 0, 0, 1, 1, 0};
  const bool has_negatives = kf_dtype_kind(d) == 'i';
  return {0, 1, has_negatives ? -2.0 : 2.0, 5, 0, 7, has_negatives ? -1.0 : 100.0, 3};
}

Values reference(const Pred& p, const Values& v) {
  return map_values(v, [&p](double x) { return p.ref(x) ? 1.0 : 0.0; });
}

TEST_P(Predicates, EveryElement) {
  const Values v = stored(inputs(dt()), dt());
  for (const Pred& p : kPreds) {
    CTS_REQUIRE_IN_LOOP(dt(), p.name);
    SCOPED_TRACE(p.name);
    Tensor t = make(v, {2, 4}), r;
    CTS_ASSERT_OK(p.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, reference(p, v), {2, 4}, KF_BOOL));
  }
}

TEST_P(Predicates, StridedZeroDimEmptyAndOut) {
  const Values v = stored(inputs(dt()), dt());
  const Values tv = gather_strided(v, 0, {4, 2}, {1, 4});
  for (const Pred& p : kPreds) {
    CTS_REQUIRE_IN_LOOP(dt(), p.name);
    SCOPED_TRACE(p.name);
    Tensor hold, t = transposed_input(v, 2, 4, dt(), dev(), hold), r;  // [4,2]
    CTS_ASSERT_OK(p.fn(t.get(), r.put()));
    EXPECT_TRUE(matches(r, reference(p, tv), {4, 2}, KF_BOOL));
    Tensor s = make(Values{v[2]}, {}), rs;
    CTS_ASSERT_OK(p.fn(s.get(), rs.put()));
    EXPECT_TRUE(matches(rs, reference(p, {v[2]}), {}, KF_BOOL));
    Tensor e = make(Values{}, {0, 3}), re;
    CTS_ASSERT_OK(p.fn(e.get(), re.put()));
    EXPECT_EQ(re.shape(), (Shape{0, 3}));
    EXPECT_EQ(re.dtype(), KF_BOOL);
    Tensor base, out = transposed_out(2, 4, KF_BOOL, dev(), base);
    Tensor c = make(v, {2, 4});
    CTS_ASSERT_OK(p.out(c.get(), out.get()));
    EXPECT_TRUE(matches(out, reference(p, v), {2, 4}, KF_BOOL));
  }
}

TEST_P(Predicates, LogicalXorBroadcasts) {
  CTS_REQUIRE(dt(), "logical_xor");
  const Values a = stored(inputs(dt()), dt());
  const Values b = stored(is_float(dt()) ? Values{0, 2} : Values{0, 1}, dt());
  Tensor x = make(a, {4, 2}), y = make(b, {2}), r;
  CTS_ASSERT_OK(kf_logical_xor(x.get(), y.get(), r.put()));
  Values want(8);
  for (size_t i = 0; i < 8; ++i) want[i] = (a[i] != 0.0) != (b[i % 2] != 0.0) ? 1 : 0;
  EXPECT_TRUE(matches(r, want, {4, 2}, KF_BOOL));
}

TEST_P(Predicates, OutOfTheInputsDtype) {
  // The result is bool, so the ops have no in-place form; an out= of another dtype receives
  // the answer converted (true is 1).
  CTS_REQUIRE(dt(), "isfinite");
  if (dt() == KF_BOOL) GTEST_SKIP() << "the out= dtype is the result's own";
  const Values v = stored(inputs(dt()), dt());
  Tensor t = make(v, {8}), out = make(Values(8, 7), {8});
  CTS_ASSERT_OK(kf_isfinite_out(t.get(), out.get()));
  EXPECT_TRUE(matches(out, reference(kPreds[2], v), {8}, dt()));
}

CTS_INSTANTIATE(Predicates, params({KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16, KF_INT8,
                                    KF_UINT8, KF_INT16, KF_UINT16, KF_INT32, KF_UINT32, KF_INT64,
                                    KF_UINT64, KF_BOOL}));

}  // namespace
}  // namespace cts
