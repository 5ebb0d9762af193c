// CTS: layer_norm and rms_norm over every floating dtype: one or more normalised dims, weight
// and bias present or None, eps (rms_norm's None default), strided/transposed inputs, large
// means, NaN/inf rows, empty and size-1 dims, and the invalid arguments.
#include <limits>
#include <optional>

#include "cts_util.hpp"

namespace cts {
namespace {

class Norms : public CtsTest {};     // backend x {f32, f64, f16, bf16}
class NormsAny : public CtsTest {};  // dtype-independent checks

Values values_for(kf_dtype_t d, size_t n, uint32_t seed, double lo = -2, double hi = 2) {
  Values v = pseudo_random(n, lo, hi, seed);
  for (double& x : v) x = round_to(d, x);
  return v;
}

/** layer_norm (rms == false) or rms_norm of `rows` rows of d values, in double. */
Values ref_norm(const Values& x, int64_t d, const Values* w, const Values* b, double eps,
                bool rms) {
  Values y(x.size());
  const int64_t rows = d == 0 ? 0 : static_cast<int64_t>(x.size()) / d;
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = x.data() + r * d;
    double mean = 0, var = 0;
    for (int64_t j = 0; j < d; ++j) mean += row[j];
    mean /= static_cast<double>(d);
    for (int64_t j = 0; j < d; ++j) {
      const double c = rms ? row[j] : row[j] - mean;
      var += c * c;
    }
    var /= static_cast<double>(d);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (int64_t j = 0; j < d; ++j) {
      double v = (rms ? row[j] : row[j] - mean) * rstd;
      if (w) v *= (*w)[static_cast<size_t>(j)];
      if (b) v += (*b)[static_cast<size_t>(j)];
      y[static_cast<size_t>(r * d + j)] = v;
    }
  }
  return y;
}

kf_status_t layer_norm(const Tensor& x, const Shape& ns, const Tensor* w, const Tensor* b,
                       double eps, Tensor& out) {
  return kf_layer_norm(x.get(), ns.data(), static_cast<int32_t>(ns.size()), w ? w->get() : nullptr,
                       b ? b->get() : nullptr, eps, out.put());
}

kf_status_t rms_norm(const Tensor& x, const Shape& ns, const Tensor* w, std::optional<double> eps,
                     Tensor& out) {
  return kf_rms_norm(x.get(), ns.data(), static_cast<int32_t>(ns.size()), w ? w->get() : nullptr,
                     eps ? &*eps : nullptr, out.put());
}

constexpr double kEps = 1e-5;
constexpr double kScale = 4;  // outputs of a few units, one rounding of the compute type each

TEST_P(Norms, LayerNormOneDim) {
  const Values x = values_for(dt(), 4 * 8, 1);
  Tensor tx = make(x, {4, 8}), r;
  CTS_ASSERT_OK(layer_norm(tx, {8}, nullptr, nullptr, kEps, r));
  EXPECT_TRUE(matches(r, ref_norm(x, 8, nullptr, nullptr, kEps, false), {4, 8}, dt(), kScale));
}

TEST_P(Norms, LayerNormWeightAndBias) {
  const Values x = values_for(dt(), 2 * 3 * 4, 2), w = values_for(dt(), 12, 3);
  const Values b = values_for(dt(), 12, 4);
  Tensor tx = make(x, {2, 3, 4}), tw = make(w, {3, 4}), tb = make(b, {3, 4});
  struct Case { const char* name; const Tensor* w; const Tensor* b; };
  for (const Case c : {Case{"both", &tw, &tb}, Case{"weight", &tw, nullptr},
                       Case{"bias", nullptr, &tb}, Case{"none", nullptr, nullptr}}) {
    SCOPED_TRACE(c.name);
    Tensor r;
    CTS_ASSERT_OK(layer_norm(tx, {3, 4}, c.w, c.b, kEps, r));
    const Values want = ref_norm(x, 12, c.w ? &w : nullptr, c.b ? &b : nullptr, kEps, false);
    EXPECT_TRUE(matches(r, want, {2, 3, 4}, dt(), kScale));
  }
}

TEST_P(Norms, LayerNormEps) {
  const Values x = values_for(dt(), 3 * 5, 5, -0.5, 0.5);
  Tensor tx = make(x, {3, 5});
  for (double eps : {0.0, 0.5, 2.0}) {
    SCOPED_TRACE("eps " + std::to_string(eps));
    Tensor r;
    CTS_ASSERT_OK(layer_norm(tx, {5}, nullptr, nullptr, eps, r));
    EXPECT_TRUE(matches(r, ref_norm(x, 5, nullptr, nullptr, eps, false), {3, 5}, dt(), kScale));
  }
}

TEST_P(Norms, LayerNormConstantRowGivesBias) {
  // var = 0: (x - mean) = 0, the output is the bias.
  const Values x(2 * 4, 1.5), b = {0.25, -1, 2, 0};
  Tensor tx = make(x, {2, 4}), tb = make(b, {4}), r;
  CTS_ASSERT_OK(layer_norm(tx, {4}, nullptr, &tb, kEps, r));
  EXPECT_TRUE(matches(r, Values{0.25, -1, 2, 0, 0.25, -1, 2, 0}, {2, 4}, dt()));
}

TEST_P(Norms, LayerNormTransposedInput) {
  // [6, 5] stored, normalised as its transpose [5, 6] over the last dim (a strided row), and a
  // [2, 3, 4] stored tensor permuted to [2, 4, 3], normalised over its last two dims.
  const Values s = values_for(dt(), 30, 6);
  Tensor ts = make(s, {6, 5}), tv, r;
  CTS_ASSERT_OK(kf_transpose(ts.get(), 0, 1, tv.put()));
  const Values x = gather_strided(s, 0, {5, 6}, {1, 5});
  CTS_ASSERT_OK(layer_norm(tv, {6}, nullptr, nullptr, kEps, r));
  EXPECT_TRUE(matches(r, ref_norm(x, 6, nullptr, nullptr, kEps, false), {5, 6}, dt(), kScale));

  const Values s3 = values_for(dt(), 24, 7), w = values_for(dt(), 12, 8);
  Tensor t3 = make(s3, {2, 3, 4}), p3, tw = make(w, {4, 3}), r3;
  CTS_ASSERT_OK(kf_transpose(t3.get(), 1, 2, p3.put()));
  const Values x3 = gather_strided(s3, 0, {2, 4, 3}, {12, 1, 4});
  CTS_ASSERT_OK(layer_norm(p3, {4, 3}, &tw, nullptr, kEps, r3));
  EXPECT_TRUE(matches(r3, ref_norm(x3, 12, &w, nullptr, kEps, false), {2, 4, 3}, dt(), kScale));
}

TEST_P(Norms, LayerNormSlicedInputAndWeight) {
  // Every other column of a [3, 10] tensor: rows with a stride of 2; the weight also strided.
  const Values s = values_for(dt(), 30, 9), ws = values_for(dt(), 10, 10);
  Tensor ts = make(s, {3, 10}), tws = make(ws, {10}), v, wv, r;
  const int64_t lo = 0, hi = 10;
  CTS_ASSERT_OK(kf_slice(ts.get(), 1, &lo, &hi, 2, v.put()));
  CTS_ASSERT_OK(kf_slice(tws.get(), 0, &lo, &hi, 2, wv.put()));
  const Values x = gather_strided(s, 0, {3, 5}, {10, 2});
  const Values w = gather_strided(ws, 0, {5}, {2});
  CTS_ASSERT_OK(layer_norm(v, {5}, &wv, nullptr, kEps, r));
  EXPECT_TRUE(matches(r, ref_norm(x, 5, &w, nullptr, kEps, false), {3, 5}, dt(), kScale));
}

TEST_P(Norms, LayerNormLargeRowsAndMean) {
  // 64 rows of 1000 values around 1000: the statistics must not cancel; many threads.
  const int64_t rows = 64, d = 1000;
  Values x = pseudo_random(static_cast<size_t>(rows * d), 999, 1001, 11);
  for (double& v : x) v = round_to(dt(), v);
  Tensor tx = make(x, {rows, d}), r;
  CTS_ASSERT_OK(layer_norm(tx, {d}, nullptr, nullptr, kEps, r));
  const double scale = dt() == KF_FLOAT32 ? 200 : dt() == KF_FLOAT64 ? 1e4 : kScale;
  EXPECT_TRUE(matches(r, ref_norm(x, d, nullptr, nullptr, kEps, false), {rows, d}, dt(), scale));
}

TEST_P(Norms, LayerNormNanAndInfRows) {
  const Values x = {1, NAN, 2, 3, 4, 5, INFINITY, 7, 0.5, -0.5, 1, 2};
  Tensor tx = make(x, {3, 4}), r;
  CTS_ASSERT_OK(layer_norm(tx, {4}, nullptr, nullptr, kEps, r));
  Values want = ref_norm(x, 4, nullptr, nullptr, kEps, false);
  for (int j = 0; j < 8; ++j) want[static_cast<size_t>(j)] = NAN;  // inf - inf in the second row
  EXPECT_TRUE(matches(r, want, {3, 4}, dt(), kScale));
}

TEST_P(Norms, EmptyAndSizeOneDims) {
  for (const auto& [shape, ns] : std::vector<std::pair<Shape, Shape>>{
           {{0, 8}, {8}}, {{3, 0}, {0}}, {{2, 0, 3}, {3}}}) {
    SCOPED_TRACE("shape " + shape_str(shape));
    Tensor tx = make(Values{}, shape), r1, r2;
    CTS_ASSERT_OK(layer_norm(tx, ns, nullptr, nullptr, kEps, r1));
    EXPECT_TRUE(matches(r1, Values{}, shape, dt()));
    CTS_ASSERT_OK(rms_norm(tx, ns, nullptr, std::nullopt, r2));
    EXPECT_TRUE(matches(r2, Values{}, shape, dt()));
  }
  // Size-1 dims: [2, 1, 5] over [1, 5]; a single element over [1] gives 0 (x - mean = 0).
  const Values x = values_for(dt(), 10, 12);
  Tensor tx = make(x, {2, 1, 5}), r, one_el = make(Values{3}, {1}), r1;
  CTS_ASSERT_OK(layer_norm(tx, {1, 5}, nullptr, nullptr, kEps, r));
  EXPECT_TRUE(matches(r, ref_norm(x, 5, nullptr, nullptr, kEps, false), {2, 1, 5}, dt(), kScale));
  CTS_ASSERT_OK(layer_norm(one_el, {1}, nullptr, nullptr, kEps, r1));
  EXPECT_TRUE(matches(r1, Values{0}, {1}, dt()));
}

TEST_P(Norms, RmsNormWeightAndEps) {
  const Values x = values_for(dt(), 3 * 2 * 4, 13), w = values_for(dt(), 8, 14);
  Tensor tx = make(x, {3, 2, 4}), tw = make(w, {2, 4});
  for (double eps : {1e-6, 0.5}) {
    SCOPED_TRACE("eps " + std::to_string(eps));
    Tensor r, rw;
    CTS_ASSERT_OK(rms_norm(tx, {4}, nullptr, eps, r));
    EXPECT_TRUE(matches(r, ref_norm(x, 4, nullptr, nullptr, eps, true), {3, 2, 4}, dt(), kScale));
    CTS_ASSERT_OK(rms_norm(tx, {2, 4}, &tw, eps, rw));
    EXPECT_TRUE(matches(rw, ref_norm(x, 8, &w, nullptr, eps, true), {3, 2, 4}, dt(), kScale));
  }
}

TEST_P(Norms, RmsNormDefaultEpsIsTheComputeTypesEpsilon) {
  // Rows of 1e-4: mean(x^2) = 1e-8, comparable to float32's epsilon (1.19e-7), the default for
  // float32, float16 and bfloat16 (computed in float32, as PyTorch); float64's is 2.2e-16.
  const double eps = dt() == KF_FLOAT64 ? std::numeric_limits<double>::epsilon()
                                        : double{std::numeric_limits<float>::epsilon()};
  const Values x(2 * 3, round_to(dt(), 1e-4));
  Tensor tx = make(x, {2, 3}), r;
  CTS_ASSERT_OK(rms_norm(tx, {3}, nullptr, std::nullopt, r));
  const Values want = ref_norm(x, 3, nullptr, nullptr, eps, true);
  EXPECT_TRUE(matches(r, want, {2, 3}, dt(), kScale));
  EXPECT_LT(std::fabs(want[0] - (dt() == KF_FLOAT64 ? 1.0 : 0.278)), 0.01) << "reference";
}

TEST_P(Norms, RmsNormStridedAndLarge) {
  const Values s = values_for(dt(), 40, 15);
  Tensor ts = make(s, {8, 5}), tv, r;
  CTS_ASSERT_OK(kf_transpose(ts.get(), 0, 1, tv.put()));
  const Values x = gather_strided(s, 0, {5, 8}, {1, 5});
  CTS_ASSERT_OK(rms_norm(tv, {8}, nullptr, kEps, r));
  EXPECT_TRUE(matches(r, ref_norm(x, 8, nullptr, nullptr, kEps, true), {5, 8}, dt(), kScale));

  const int64_t rows = 48, d = 1024;
  const Values big = values_for(dt(), static_cast<size_t>(rows * d), 16);
  const Values w = values_for(dt(), static_cast<size_t>(d), 17);
  Tensor tb = make(big, {rows, d}), tw = make(w, {d}), rb;
  CTS_ASSERT_OK(rms_norm(tb, {d}, &tw, kEps, rb));
  EXPECT_TRUE(matches(rb, ref_norm(big, d, &w, nullptr, kEps, true), {rows, d}, dt(), kScale));
}

TEST_P(Norms, RmsNormNanRow) {
  const Values x = {1, 2, NAN, 4, 1, 2};
  Tensor tx = make(x, {3, 2}), r;
  CTS_ASSERT_OK(rms_norm(tx, {2}, nullptr, kEps, r));
  Values want = ref_norm(x, 2, nullptr, nullptr, kEps, true);
  want[2] = want[3] = NAN;
  EXPECT_TRUE(matches(r, want, {3, 2}, dt(), kScale));
}

TEST_P(Norms, ExpandedInput) {
  // A stride-0 normalised dim ([4, 1] expanded to [4, 6]: constant rows) and a stride-0 leading
  // dim ([1, 6] expanded to [3, 6]).
  const Values c = values_for(dt(), 4, 18), r6 = values_for(dt(), 6, 19);
  Tensor tc = make(c, {4, 1}), tr = make(r6, {1, 6}), ec, er, o1, o2, o3;
  const Shape s1{4, 6}, s2{3, 6};
  CTS_ASSERT_OK(kf_expand(tc.get(), s1.data(), 2, ec.put()));
  CTS_ASSERT_OK(kf_expand(tr.get(), s2.data(), 2, er.put()));
  CTS_ASSERT_OK(layer_norm(ec, {6}, nullptr, nullptr, kEps, o1));
  EXPECT_TRUE(matches(o1, Values(24, 0.0), s1, dt()));
  const Values xr = expand_to(r6, {1, 6}, s2);
  CTS_ASSERT_OK(layer_norm(er, {6}, nullptr, nullptr, kEps, o2));
  EXPECT_TRUE(matches(o2, ref_norm(xr, 6, nullptr, nullptr, kEps, false), s2, dt(), kScale));
  CTS_ASSERT_OK(rms_norm(ec, {6}, nullptr, kEps, o3));
  const Values xc = expand_to(c, {4, 1}, s1);
  EXPECT_TRUE(matches(o3, ref_norm(xc, 6, nullptr, nullptr, kEps, true), s1, dt(), kScale));
}

TEST_P(NormsAny, BoxedCallsUseTheDefaults) {
  const Values v = {0.5, -1, 2, 3, 1, 1.5};
  Tensor t = make(v, {2, 3}, KF_FLOAT32);
  const int64_t ns[1] = {3};
  for (const char* name : {"layer_norm", "rms_norm"}) {
    SCOPED_TRACE(name);
    kf_op_t op = nullptr;
    CTS_ASSERT_OK(kf_op_find(name, &op));
    const kf_value_t args[2] = {kf_value_tensor(t.get()), kf_value_int_list(ns, 1)};
    kf_value_t res[1] = {kf_value_none()};
    CTS_ASSERT_OK(kf_op_call(op, args, 2, res, 1));
    ASSERT_EQ(res[0].tag, KF_VALUE_TENSOR);
    Tensor r(res[0].v.tensor);
    const bool rms = std::string(name) == "rms_norm";
    const double eps = rms ? double{std::numeric_limits<float>::epsilon()} : kEps;
    EXPECT_TRUE(matches(r, ref_norm(v, 3, nullptr, nullptr, eps, rms), {2, 3}, KF_FLOAT32, 4));
  }
}

void expect_refused(kf_status_t s, const char* op, const char* what, const char* needle = "") {
  EXPECT_EQ(s, KF_INVALID_ARGUMENT) << op << ": " << what;
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find(op), std::string::npos) << what << ": " << msg;
  EXPECT_NE(msg.find(needle), std::string::npos) << what << ": " << msg;
}

TEST_P(NormsAny, WrongNormalizedShapeIsRefused) {
  Tensor x = make(Values(6, 1.0), {2, 3}, KF_FLOAT32), r;
  for (const Shape& ns : {Shape{4}, Shape{2}, Shape{1, 2, 3}, Shape{}, Shape{3, 2}}) {
    SCOPED_TRACE("normalized_shape " + shape_str(ns));
    expect_refused(layer_norm(x, ns, nullptr, nullptr, kEps, r), "layer_norm", "shape",
                   "normalized_shape");
    expect_refused(rms_norm(x, ns, nullptr, std::nullopt, r), "rms_norm", "shape",
                   "normalized_shape");
    EXPECT_FALSE(r);
  }
  expect_refused(layer_norm(x, {4}, nullptr, nullptr, kEps, r), "layer_norm", "names shapes",
                 "[2, 3]");
}

TEST_P(NormsAny, IntegerInputIsRefused) {
  for (kf_dtype_t d : {KF_INT32, KF_INT64, KF_UINT8, KF_BOOL}) {
    SCOPED_TRACE(dtype_str(d));
    Tensor x = make(Values(6, 1.0), {2, 3}, d), r;
    expect_refused(layer_norm(x, {3}, nullptr, nullptr, kEps, r), "layer_norm", "int",
                   kf_dtype_name(d));
    expect_refused(rms_norm(x, {3}, nullptr, std::nullopt, r), "rms_norm", "int",
                   kf_dtype_name(d));
  }
}

TEST_P(NormsAny, BadWeightOrBiasIsRefused) {
  Tensor x = make(Values(6, 1.0), {2, 3}, KF_FLOAT32), r;
  Tensor w4 = make(Values(4, 1.0), {4}, KF_FLOAT32), w13 = make(Values(3, 1.0), {1, 3}, KF_FLOAT32);
  Tensor w64 = make(Values(3, 1.0), {3}, KF_FLOAT64);
  expect_refused(layer_norm(x, {3}, &w4, nullptr, kEps, r), "layer_norm", "weight [4]", "weight");
  expect_refused(layer_norm(x, {3}, &w13, nullptr, kEps, r), "layer_norm", "weight [1,3]",
                 "weight");
  expect_refused(layer_norm(x, {3}, nullptr, &w4, kEps, r), "layer_norm", "bias [4]", "bias");
  expect_refused(layer_norm(x, {3}, &w64, nullptr, kEps, r), "layer_norm", "weight f64",
                 "float64");
  expect_refused(rms_norm(x, {3}, &w4, std::nullopt, r), "rms_norm", "weight [4]", "weight");
  expect_refused(rms_norm(x, {3}, &w64, std::nullopt, r), "rms_norm", "weight f64", "float64");
}

CTS_INSTANTIATE(Norms, params_all_float());
CTS_INSTANTIATE(NormsAny, params_any());

}  // namespace
}  // namespace cts
