// CTS: softmax (along one dim, the dtype= argument, special values, strides, empty and 0-dim
// tensors). The reference is computed here in double from the inputs as the dtype stores them.
#include "reduce_ref.hpp"

namespace cts {
namespace {

class Softmax : public CtsTest {};     // backend x {f32, f64, f16, bf16}
class SoftmaxAny : public CtsTest {};  // backend only: dtype rules and errors

/** Softmax of a row-major tensor over `dim`, in double: e^(x - max) / sum, NaN winning max. */
Values ref_softmax(const Values& v, const Shape& shape, int64_t dim) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  const int64_t d = nd == 0 ? 0 : (dim < 0 ? dim + nd : dim);
  int64_t n = 1, inner = 1;
  if (nd > 0) n = shape[static_cast<size_t>(d)];
  for (int64_t k = d + 1; k < nd; ++k) inner *= shape[static_cast<size_t>(k)];
  const int64_t outer = n * inner == 0 ? 0 : numel_of(shape) / (n * inner);
  Values out(v.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const auto at = [&](int64_t k) { return static_cast<size_t>((o * n + k) * inner + i); };
      double m = -INFINITY, s = 0;
      for (int64_t k = 0; k < n; ++k) {
        if (std::isnan(v[at(k)]) || v[at(k)] > m) m = std::isnan(m) ? m : v[at(k)];
      }
      for (int64_t k = 0; k < n; ++k) s += std::exp(v[at(k)] - m);
      for (int64_t k = 0; k < n; ++k) out[at(k)] = std::exp(v[at(k)] - m) / s;
    }
  }
  return out;
}

/** `n` values in [lo, hi] as dtype d stores them (so the reference sees the same input). */
Values inputs(size_t n, kf_dtype_t d, uint32_t seed, double lo = -4, double hi = 4) {
  Values v = pseudo_random(n, lo, hi, seed);
  for (double& x : v) x = round_to(d, x);
  return v;
}

/** The [rows, cols] values `v` repeated three times along dim 1 ([rows, 3 * cols]): enough
 *  rows next to each other for the kernels that take such rows in blocks. */
Values widen(const Values& v, int64_t rows, int64_t cols) {
  Values out;
  for (int64_t r = 0; r < rows; ++r) {
    for (int rep = 0; rep < 3; ++rep) {
      for (int64_t c = 0; c < cols; ++c) out.push_back(v[static_cast<size_t>(r * cols + c)]);
    }
  }
  return out;
}

/** softmax(t, dim) matches the reference over `shape` (the values of t in row-major order). */
::testing::AssertionResult softmax_matches(const Tensor& t, const Values& v, const Shape& shape,
                                           int64_t dim, kf_dtype_t dtype) {
  Tensor r;
  const kf_status_t s = kf_softmax(t.get(), dim, KF_DTYPE_UNDEFINED, r.put());
  if (s != KF_OK) return ::testing::AssertionFailure() << "kf_softmax -> " << status_text(s);
  return matches(r, ref_softmax(v, shape, dim), shape, dtype);
}

TEST_P(Softmax, LastDim) {
  CTS_REQUIRE(dt(), "softmax");
  const Shape sh{3, 7};
  const Values v = inputs(21, dt(), 11);
  Tensor t = make(v, sh);
  EXPECT_TRUE(softmax_matches(t, v, sh, 1, dt()));
}

TEST_P(Softmax, FirstDim) {
  CTS_REQUIRE(dt(), "softmax");
  const Shape sh{6, 10};  // ten rows next to each other in memory
  const Values v = inputs(60, dt(), 12);
  Tensor t = make(v, sh);
  EXPECT_TRUE(softmax_matches(t, v, sh, 0, dt()));
}

TEST_P(Softmax, MiddleDimOf3d) {
  CTS_REQUIRE(dt(), "softmax");
  for (const Shape& sh : {Shape{2, 5, 12}, Shape{3, 4, 5}}) {
    SCOPED_TRACE("shape " + shape_str(sh));
    const Values v = inputs(static_cast<size_t>(numel_of(sh)), dt(), 13);
    Tensor t = make(v, sh);
    EXPECT_TRUE(softmax_matches(t, v, sh, 1, dt()));
  }
}

TEST_P(Softmax, NegativeDim) {
  CTS_REQUIRE(dt(), "softmax");
  const Shape sh{2, 3, 4};
  const Values v = inputs(24, dt(), 14);
  Tensor t = make(v, sh);
  for (int64_t dim : {-1, -2, -3}) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    EXPECT_TRUE(softmax_matches(t, v, sh, dim, dt()));
  }
}

TEST_P(Softmax, TransposedInput) {
  CTS_REQUIRE(dt(), "softmax");
  const Values v = inputs(15, dt(), 15);
  Tensor t = make(v, {3, 5}), tt;
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 1, tt.put()));  // [5, 3], strides [1, 5]
  ASSERT_FALSE(tt.is_contiguous());
  const Values tv = gather_strided(v, 0, {5, 3}, {1, 5});
  for (int64_t dim : {0, 1}) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    EXPECT_TRUE(softmax_matches(tt, tv, {5, 3}, dim, dt()));
  }
}

TEST_P(Softmax, ZeroDimIsOne) {
  CTS_REQUIRE(dt(), "softmax");
  Tensor s = make(Values{2.5}, {});
  for (int64_t dim : {0, -1}) {
    Tensor r;
    CTS_ASSERT_OK(kf_softmax(s.get(), dim, KF_DTYPE_UNDEFINED, r.put()));
    EXPECT_TRUE(matches(r, Values{1.0}, {}, dt())) << "dim " << dim;
  }
  Tensor r;
  EXPECT_EQ(kf_softmax(s.get(), 1, KF_DTYPE_UNDEFINED, r.put()), KF_INVALID_ARGUMENT);
}

TEST_P(Softmax, EmptyGivesEmpty) {
  CTS_REQUIRE(dt(), "softmax");
  const std::vector<std::pair<Shape, int64_t>> cases = {
      {{0, 3}, 0}, {{0, 3}, 1}, {{2, 0}, 1}, {{2, 0}, 0}, {{0}, 0}, {{2, 0, 3}, -1}};
  for (const auto& [sh, dim] : cases) {
    SCOPED_TRACE("shape " + shape_str(sh) + " dim " + std::to_string(dim));
    Tensor e = make(Values{}, sh), r;
    CTS_ASSERT_OK(kf_softmax(e.get(), dim, KF_DTYPE_UNDEFINED, r.put()));
    EXPECT_TRUE(matches(r, Values{}, sh, dt()));
  }
}

TEST_P(Softmax, LargeValuesAreStable) {
  CTS_REQUIRE(dt(), "softmax");
  // e^1000 overflows every dtype: only x - max keeps these finite.
  const Values v{1000, 1001, 1002, 999, -1000, -1001, 0, 1, 5000, 5001, 5000, 4999};
  Values r = v;
  for (double& x : r) x = round_to(dt(), x);
  Tensor t = make(v, {3, 4});
  EXPECT_TRUE(softmax_matches(t, r, {3, 4}, 1, dt()));
  const Values got = [&] {
    Tensor out;
    EXPECT_EQ(kf_softmax(t.get(), 1, KF_DTYPE_UNDEFINED, out.put()), KF_OK);
    return to_host_double(out);
  }();
  for (double x : got) EXPECT_TRUE(std::isfinite(x)) << "softmax of large values gave " << x;
}

TEST_P(Softmax, NegativeInfinity) {
  CTS_REQUIRE(dt(), "softmax");
  // -inf beside finite values gives 0; a row of only -inf gives NaN (PyTorch).
  const double ninf = -INFINITY;
  const Values v{ninf, 0, 1, ninf, ninf, ninf, ninf, ninf, 2, ninf, 2, ninf};
  for (int64_t dim : {1, 0}) {  // rows along the last dim, then rows next to each other
    SCOPED_TRACE("dim " + std::to_string(dim));
    const Shape sh = dim == 1 ? Shape{3, 4} : Shape{4, 9};
    const Values x = dim == 1 ? v : widen(v, 4, 3);
    Tensor t = make(x, sh);
    EXPECT_TRUE(softmax_matches(t, x, sh, dim, dt()));
  }
  const Values want = ref_softmax(v, {3, 4}, 1);
  EXPECT_EQ(want[0], 0.0);
  EXPECT_TRUE(std::isnan(want[4])) << "reference: a row of only -inf is NaN";
}

TEST_P(Softmax, NanAndInfinityMakeTheRowNan) {
  CTS_REQUIRE(dt(), "softmax");
  const double nan = std::nan(""), inf = INFINITY;
  // Row 0: a NaN; row 1: +inf (inf - inf is NaN, so the sum and the row are NaN); row 2: fine.
  const Values v{1, nan, 2, 3, 0, inf, 1, -inf, 1, 2, 3, 4};
  for (int64_t dim : {1, 0}) {  // rows along the last dim, then rows next to each other
    SCOPED_TRACE("dim " + std::to_string(dim));
    const Shape sh = dim == 1 ? Shape{3, 4} : Shape{4, 9};
    const Values x = dim == 1 ? v : widen(v, 4, 3);
    Tensor t = make(x, sh);
    EXPECT_TRUE(softmax_matches(t, x, sh, dim, dt()));
  }
  const Values want = ref_softmax(v, {3, 4}, 1);
  for (int k = 0; k < 8; ++k) EXPECT_TRUE(std::isnan(want[static_cast<size_t>(k)])) << k;
}

TEST_P(Softmax, RowsSumToOne) {
  CTS_REQUIRE(dt(), "softmax");
  const Shape sh{4, 33};
  const Values v = inputs(132, dt(), 16, -10, 10);
  Tensor t = make(v, sh), r;
  CTS_ASSERT_OK(kf_softmax(t.get(), -1, KF_DTYPE_UNDEFINED, r.put()));
  const Values got = to_host_double(r);
  ASSERT_EQ(got.size(), 132u);
  const double eps = dt() == KF_FLOAT64 ? 1e-14 : dt() == KF_FLOAT32 ? 1e-6
                     : dt() == KF_FLOAT16 ? 2e-2 : 1e-1;  // 33 roundings of the 16-bit floats
  for (int row = 0; row < 4; ++row) {
    double s = 0;
    for (int k = 0; k < 33; ++k) {
      const double y = got[static_cast<size_t>(row * 33 + k)];
      EXPECT_TRUE(y >= 0 && y <= 1) << y;
      s += y;
    }
    EXPECT_NEAR(s, 1.0, eps) << "row " << row;
  }
}

TEST_P(Softmax, LongRowsWithMaskedStretches) {
  CTS_REQUIRE(dt(), "softmax");
  const Shape sh{6, 3000};
  const Values v = red::masked_long_rows(dt(), 3000, 19);
  Tensor t = make(v, sh);
  EXPECT_TRUE(softmax_matches(t, v, sh, 1, dt()));
}

TEST_P(Softmax, LargeAcrossThreads) {
  CTS_REQUIRE(dt(), "softmax");
  // Big enough for the kernels to split the work: rows over threads, rows next to each other
  // in blocks (dim 0, with a partial block), and one long row split over threads.
  const Shape sh{200, 300};
  const Values v = inputs(60000, dt(), 17, -8, 8);
  Tensor t = make(v, sh);
  EXPECT_TRUE(softmax_matches(t, v, sh, 1, dt()));
  EXPECT_TRUE(softmax_matches(t, v, sh, 0, dt()));
  const Values lv = inputs(100003, dt(), 18, -8, 8);
  Tensor l = make(lv, {100003});
  EXPECT_TRUE(softmax_matches(l, lv, {100003}, 0, dt()));
}

// ------------------------------------------------------------------ dtype rules and errors

TEST_P(SoftmaxAny, IntInputWithDtype) {
  const Values v{1, 2, 3, -4, 0, 7};
  Tensor t = make(v, {2, 3}, KF_INT32), r, r64;
  CTS_ASSERT_OK(kf_softmax(t.get(), 1, KF_FLOAT32, r.put()));
  EXPECT_TRUE(matches(r, ref_softmax(v, {2, 3}, 1), {2, 3}, KF_FLOAT32));
  Tensor i64 = make(v, {2, 3}, KF_INT64);
  CTS_ASSERT_OK(kf_softmax(i64.get(), 0, KF_FLOAT64, r64.put()));
  EXPECT_TRUE(matches(r64, ref_softmax(v, {2, 3}, 0), {2, 3}, KF_FLOAT64));
}

TEST_P(SoftmaxAny, NarrowIntAndHalfInputsWithDtype) {
  // dtype= converts self first: int8/uint8/int16 and float16/bfloat16 inputs in float32.
  const Values v{1, 2, 3, 4, 0, 7};
  for (kf_dtype_t d : {KF_INT8, KF_UINT8, KF_INT16, KF_FLOAT16, KF_BFLOAT16}) {
    SCOPED_TRACE(dtype_str(d));
    Tensor t = make(v, {2, 3}, d), r;
    CTS_ASSERT_OK(kf_softmax(t.get(), 1, KF_FLOAT32, r.put()));
    EXPECT_TRUE(matches(r, ref_softmax(v, {2, 3}, 1), {2, 3}, KF_FLOAT32));
  }
}

TEST_P(SoftmaxAny, FloatInputWithOtherDtype) {
  // dtype= converts self first: float32 input computed and returned as float64.
  const Values v = inputs(8, KF_FLOAT32, 19);
  Tensor t = make(v, {2, 4}, KF_FLOAT32), r;
  CTS_ASSERT_OK(kf_softmax(t.get(), 1, KF_FLOAT64, r.put()));
  EXPECT_TRUE(matches(r, ref_softmax(v, {2, 4}, 1), {2, 4}, KF_FLOAT64));
}

TEST_P(SoftmaxAny, IntOrBoolInputWithoutDtypeIsRefused) {
  for (kf_dtype_t d : {KF_INT8, KF_UINT8, KF_INT16, KF_INT32, KF_INT64, KF_BOOL}) {
    SCOPED_TRACE(dtype_str(d));
    Tensor t = make(Values{1, 0, 1}, {3}, d), r;
    EXPECT_EQ(kf_softmax(t.get(), 0, KF_DTYPE_UNDEFINED, r.put()), KF_INVALID_ARGUMENT);
    const std::string msg = kf_last_error_message();
    EXPECT_NE(msg.find("softmax"), std::string::npos) << msg;
    EXPECT_NE(msg.find(kf_dtype_name(d)), std::string::npos) << msg;
    EXPECT_NE(msg.find("dtype"), std::string::npos) << "the message says how to fix it: " << msg;
    EXPECT_FALSE(r) << "no result on failure";
  }
}

TEST_P(SoftmaxAny, IntegerDtypeIsRefused) {
  Tensor t = make(Values{1, 2}, {2}, KF_FLOAT32), r;
  EXPECT_EQ(kf_softmax(t.get(), 0, KF_INT64, r.put()), KF_INVALID_ARGUMENT);
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("int64"), std::string::npos) << msg;
}

TEST_P(SoftmaxAny, BadDimIsRefused) {
  Tensor t = make(Values{1, 2, 3, 4, 5, 6}, {2, 3}, KF_FLOAT32), r;
  for (int64_t dim : {2, -3, 100}) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    EXPECT_EQ(kf_softmax(t.get(), dim, KF_DTYPE_UNDEFINED, r.put()), KF_INVALID_ARGUMENT);
    const std::string msg = kf_last_error_message();
    EXPECT_NE(msg.find("softmax"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(dim)), std::string::npos) << msg;
    EXPECT_NE(msg.find("-2..1"), std::string::npos) << "the valid range is named: " << msg;
  }
}

TEST_P(SoftmaxAny, BoxedCallMatchesTyped) {
  kf_op_t op = nullptr;
  CTS_ASSERT_OK(kf_op_find("softmax", &op));
  EXPECT_STREQ(kf_op_schema(op),
               "softmax(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor");
  const Values v{0.5, -1, 2, 3};
  Tensor t = make(v, {2, 2}, KF_FLOAT32);
  const kf_value_t args[2] = {kf_value_tensor(t.get()), kf_value_int(-1)};
  kf_value_t res[1] = {kf_value_none()};
  CTS_ASSERT_OK(kf_op_call(op, args, 2, res, 1));
  ASSERT_EQ(res[0].tag, KF_VALUE_TENSOR);
  Tensor r(res[0].v.tensor);
  EXPECT_TRUE(matches(r, ref_softmax(v, {2, 2}, 1), {2, 2}, KF_FLOAT32));
}

CTS_INSTANTIATE(Softmax, params_all_float());
CTS_INSTANTIATE(SoftmaxAny, params_any());

}  // namespace
}  // namespace cts
