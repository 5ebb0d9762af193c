// CTS: scaled_dot_product_attention over every floating dtype: 2-D to 4-D inputs, broadcast
// batch dims, bool and float masks (broadcast), is_causal (square and not), fully masked rows
// (NaN), explicit scale, strided inputs, empty sizes, and the invalid arguments.
#include <optional>

#include "cts_util.hpp"

namespace cts {
namespace {

class Attention : public CtsTest {};     // backend x {f32, f64, f16, bf16}
class AttentionAny : public CtsTest {};  // dtype-independent checks

Values values_for(kf_dtype_t d, size_t n, uint32_t seed) {
  Values v = pseudo_random(n, -1, 1, seed);
  for (double& x : v) x = round_to(d, x);
  return v;
}

struct Mask {
  Values v;
  Shape s;
  bool is_bool;
};

Shape batch_of(const Shape& s) { return Shape(s.begin(), s.end() - 2); }

/** softmax(q k^T * scale + mask) v in double, batch dims broadcast; the output's shape. With
 * `drop`, weight (b, i, j) is multiplied by drop[(b * L + i) * S + j] (dropout's keep / (1 - p)). */
Values ref_sdpa(const Values& q, const Shape& qs, const Values& k, const Shape& ks,
                const Values& v, const Shape& vs, const Mask* mask, bool causal,
                std::optional<double> scale, Shape* out_shape,
                const Values* drop = nullptr) {
  const int64_t l = qs[qs.size() - 2], e = qs.back(), s = ks[ks.size() - 2], ev = vs.back();
  const Shape batch = broadcast_shapes(broadcast_shapes(batch_of(qs), batch_of(ks)), batch_of(vs));
  auto full = [&](int64_t a, int64_t b) {
    Shape f = batch;
    f.push_back(a);
    f.push_back(b);
    return f;
  };
  const Values eq = expand_to(q, qs, full(l, e)), ek = expand_to(k, ks, full(s, e));
  const Values evv = expand_to(v, vs, full(s, ev));
  const Values em = mask ? expand_to(mask->v, mask->s, full(l, s)) : Values{};
  const double sc = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(e));
  const int64_t nb = numel_of(batch);
  Values out(static_cast<size_t>(nb * l * ev));
  std::vector<double> w(static_cast<size_t>(s));
  for (int64_t bi = 0; bi < nb; ++bi)
    for (int64_t i = 0; i < l; ++i) {
      double mx = -INFINITY;
      for (int64_t j = 0; j < s; ++j) {
        double acc = 0;
        for (int64_t c = 0; c < e; ++c)
          acc += eq[static_cast<size_t>((bi * l + i) * e + c)] *
                 ek[static_cast<size_t>((bi * s + j) * e + c)];
        acc *= sc;
        const size_t mi = static_cast<size_t>((bi * l + i) * s + j);
        if (causal && j > i) acc = -INFINITY;
        if (mask && mask->is_bool && em[mi] == 0) acc = -INFINITY;
        if (mask && !mask->is_bool) acc += em[mi];
        w[static_cast<size_t>(j)] = acc;
        mx = std::max(mx, acc);
      }
      double sum = 0;
      for (double& x : w) { x = std::exp(x - mx); sum += x; }  // all -inf: NaN, as wanted
      for (int64_t c = 0; c < ev; ++c) {
        double acc = 0;
        for (int64_t j = 0; j < s; ++j)
          acc += w[static_cast<size_t>(j)] / sum * evv[static_cast<size_t>((bi * s + j) * ev + c)] *
                 (drop ? (*drop)[static_cast<size_t>((bi * l + i) * s + j)] : 1.0);
        out[static_cast<size_t>((bi * l + i) * ev + c)] = acc;
      }
    }
  *out_shape = full(l, ev);
  return out;
}

kf_status_t sdpa(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* mask,
                 bool causal, std::optional<double> scale, Tensor& out, double dropout = 0.0) {
  return kf_scaled_dot_product_attention(q.get(), k.get(), v.get(), mask ? mask->get() : nullptr,
                                         dropout, causal, scale ? &*scale : nullptr, out.put());
}

constexpr double kScale = 4;

/** Runs one case with fresh random q, k, v of the given shapes and checks it. */
void check_case(kf_dtype_t d, kf_device_t dev, const Shape& qs, const Shape& ks, const Shape& vs,
                const Mask* mask, bool causal, std::optional<double> scale) {
  const Values q = values_for(d, static_cast<size_t>(numel_of(qs)), 1);
  const Values k = values_for(d, static_cast<size_t>(numel_of(ks)), 2);
  const Values v = values_for(d, static_cast<size_t>(numel_of(vs)), 3);
  Tensor tq = make_tensor(q, qs, d, dev), tk = make_tensor(k, ks, d, dev);
  Tensor tv = make_tensor(v, vs, d, dev), tm, r;
  if (mask) tm = make_tensor(mask->v, mask->s, mask->is_bool ? KF_BOOL : d, dev);
  CTS_ASSERT_OK(sdpa(tq, tk, tv, mask ? &tm : nullptr, causal, scale, r));
  Shape os;
  const Values want = ref_sdpa(q, qs, k, ks, v, vs, mask, causal, scale, &os);
  EXPECT_TRUE(matches(r, want, os, d, kScale));
}

TEST_P(Attention, ThreeAndTwoDims) {
  check_case(dt(), dev(), {2, 3, 4}, {2, 5, 4}, {2, 5, 6}, nullptr, false, std::nullopt);
  check_case(dt(), dev(), {3, 4}, {5, 4}, {5, 2}, nullptr, false, std::nullopt);
  check_case(dt(), dev(), {1, 1}, {1, 1}, {1, 1}, nullptr, false, std::nullopt);
}

TEST_P(Attention, BatchDimsBroadcast) {
  check_case(dt(), dev(), {2, 1, 3, 4}, {1, 2, 5, 4}, {1, 1, 5, 3}, nullptr, false,
             std::nullopt);
  check_case(dt(), dev(), {3, 4}, {2, 5, 4}, {2, 5, 3}, nullptr, false, std::nullopt);
}

TEST_P(Attention, ExplicitScale) {
  for (double s : {0.3, 2.0, 0.0}) {
    SCOPED_TRACE("scale " + std::to_string(s));
    check_case(dt(), dev(), {2, 3, 4}, {2, 5, 4}, {2, 5, 3}, nullptr, false, s);
  }
}

TEST_P(Attention, BoolMask) {
  const Mask m{pseudo_random(15, 0, 1.6, 4, true), {3, 5}, true};  // ~60% true
  Mask m_full = m;
  for (int j = 0; j < 5; ++j) m_full.v[static_cast<size_t>(j)] = 1;  // row 0 keeps everything
  check_case(dt(), dev(), {2, 3, 4}, {2, 5, 4}, {2, 5, 3}, &m_full, false, std::nullopt);
  const Mask row{Values{1, 0, 1, 1, 0}, {5}, true};  // broadcast over rows and batches
  check_case(dt(), dev(), {2, 3, 4}, {2, 5, 4}, {2, 5, 3}, &row, false, std::nullopt);
}

TEST_P(Attention, FloatMaskIsAdded) {
  const Mask m{values_for(dt(), 2 * 3 * 5, 5), {2, 1, 3, 5}, false};
  check_case(dt(), dev(), {2, 2, 3, 4}, {2, 2, 5, 4}, {2, 2, 5, 3}, &m, false,
             std::nullopt);
  Mask with_inf{values_for(dt(), 15, 6), {3, 5}, false};
  with_inf.v[1] = with_inf.v[7] = -INFINITY;
  check_case(dt(), dev(), {3, 4}, {5, 4}, {5, 2}, &with_inf, false, std::nullopt);
}

TEST_P(Attention, Causal) {
  check_case(dt(), dev(), {2, 4, 3}, {2, 4, 3}, {2, 4, 5}, nullptr, true, std::nullopt);
  check_case(dt(), dev(), {3, 3}, {5, 3}, {5, 2}, nullptr, true, std::nullopt);  // L < S
  check_case(dt(), dev(), {5, 3}, {3, 3}, {3, 2}, nullptr, true, 0.5);           // L > S
}

TEST_P(Attention, FullyMaskedRowIsNan) {
  Mask m{Values{1, 1, 0, 0, 0, 0, 0, 1, 1}, {3, 3}, true};  // row 1 has no true position
  check_case(dt(), dev(), {3, 2}, {3, 2}, {3, 2}, &m, false, std::nullopt);
  // The reference gives NaN for row 1: make sure the check itself sees NaN there.
  Tensor q = make(Values(6, 0.5), {3, 2}), tm = make(m.v, m.s, KF_BOOL), r;
  CTS_ASSERT_OK(sdpa(q, q, q, &tm, false, std::nullopt, r));
  const Values got = to_host_double(r);
  ASSERT_EQ(got.size(), 6u);
  EXPECT_TRUE(std::isnan(got[2]) && std::isnan(got[3]));
  EXPECT_FALSE(std::isnan(got[0]) || std::isnan(got[5]));
}

TEST_P(Attention, StridedInputs) {
  // key [2, 5, 4] as the transpose of a [2, 4, 5] tensor; query every other row of [2, 6, 4].
  const Values kt = values_for(dt(), 40, 7), qb = values_for(dt(), 48, 8);
  const Values v = values_for(dt(), 30, 9);
  Tensor tkt = make(kt, {2, 4, 5}), tqb = make(qb, {2, 6, 4}), tv = make(v, {2, 5, 3});
  Tensor tk, tq, r;
  CTS_ASSERT_OK(kf_transpose(tkt.get(), 1, 2, tk.put()));
  const int64_t lo = 0, hi = 6;
  CTS_ASSERT_OK(kf_slice(tqb.get(), 1, &lo, &hi, 2, tq.put()));
  const Values k = gather_strided(kt, 0, {2, 5, 4}, {20, 1, 5});
  const Values q = gather_strided(qb, 0, {2, 3, 4}, {24, 8, 1});
  CTS_ASSERT_OK(sdpa(tq, tk, tv, nullptr, false, std::nullopt, r));
  Shape os;
  const Values want = ref_sdpa(q, {2, 3, 4}, k, {2, 5, 4}, v, {2, 5, 3}, nullptr, false,
                               std::nullopt, &os);
  EXPECT_TRUE(matches(r, want, os, dt(), kScale));
}

TEST_P(Attention, ExpandedAndTransposedOperands) {
  // key [2, 5, 4] expanded from [1, 5, 4] (stride-0 batch); value [5, 3] given as the
  // transpose of a [3, 5] tensor; a bool mask [3, 5] as the transpose of a [5, 3] one.
  const Values q = values_for(dt(), 24, 11), k1 = values_for(dt(), 20, 12);
  const Values vt = values_for(dt(), 15, 13);
  const Values mt = {1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0};
  Tensor tq = make(q, {2, 3, 4}), tk1 = make(k1, {1, 5, 4}), tvt = make(vt, {3, 5});
  Tensor tmt = make(mt, {5, 3}, KF_BOOL), tk, tv, tm, r;
  const Shape ks{2, 5, 4};
  CTS_ASSERT_OK(kf_expand(tk1.get(), ks.data(), 3, tk.put()));
  CTS_ASSERT_OK(kf_transpose(tvt.get(), 0, 1, tv.put()));
  CTS_ASSERT_OK(kf_transpose(tmt.get(), 0, 1, tm.put()));
  const Values v = gather_strided(vt, 0, {5, 3}, {1, 5});
  const Mask m{gather_strided(mt, 0, {3, 5}, {1, 3}), {3, 5}, true};
  CTS_ASSERT_OK(sdpa(tq, tk, tv, &tm, false, std::nullopt, r));
  Shape os;
  const Values want = ref_sdpa(q, {2, 3, 4}, k1, {1, 5, 4}, v, {5, 3}, &m, false, std::nullopt,
                               &os);
  EXPECT_EQ(os, (Shape{2, 3, 3}));
  EXPECT_TRUE(matches(r, want, os, dt(), kScale));
}

TEST_P(Attention, NanInQueryGivesNanRow) {
  Values q = values_for(dt(), 12, 14);
  q[4] = NAN;  // row 1
  const Values k = values_for(dt(), 20, 15), v = values_for(dt(), 10, 16);
  Tensor tq = make(q, {3, 4}), tk = make(k, {5, 4}), tv = make(v, {5, 2}), r;
  CTS_ASSERT_OK(sdpa(tq, tk, tv, nullptr, false, std::nullopt, r));
  Shape os;
  const Values want = ref_sdpa(q, {3, 4}, k, {5, 4}, v, {5, 2}, nullptr, false, std::nullopt, &os);
  EXPECT_TRUE(std::isnan(want[2]) && std::isnan(want[3]) && !std::isnan(want[0])) << "reference";
  EXPECT_TRUE(matches(r, want, os, dt(), kScale));
}

TEST_P(AttentionAny, BoxedCallUsesTheDefaults) {
  kf_op_t op = nullptr;
  CTS_ASSERT_OK(kf_op_find("scaled_dot_product_attention", &op));
  const Values q = {0.5, -1, 2, 0.25}, k = {1, 0, 0, 1, -1, 1}, v = {1, 2, 3, 4, 5, 6};
  Tensor tq = make(q, {2, 2}, KF_FLOAT32), tk = make(k, {3, 2}, KF_FLOAT32);
  Tensor tv = make(v, {3, 2}, KF_FLOAT32);
  const kf_value_t args[3] = {kf_value_tensor(tq.get()), kf_value_tensor(tk.get()),
                              kf_value_tensor(tv.get())};
  kf_value_t res[1] = {kf_value_none()};
  CTS_ASSERT_OK(kf_op_call(op, args, 3, res, 1));
  ASSERT_EQ(res[0].tag, KF_VALUE_TENSOR);
  Tensor r(res[0].v.tensor);
  Shape os;
  const Values want = ref_sdpa(q, {2, 2}, k, {3, 2}, v, {3, 2}, nullptr, false, std::nullopt, &os);
  EXPECT_TRUE(matches(r, want, os, KF_FLOAT32, 4));
}

TEST_P(Attention, LargerHeads) {
  const Mask m{pseudo_random(33 * 40, 0, 1.9, 10, true), {33, 40}, true};
  Mask keep = m;
  for (int64_t i = 0; i < 33; ++i) keep.v[static_cast<size_t>(i * 40)] = 1;  // no empty row
  check_case(dt(), dev(), {2, 4, 33, 16}, {2, 4, 40, 16}, {2, 4, 40, 8}, &keep, false,
             std::nullopt);
  check_case(dt(), dev(), {2, 4, 33, 16}, {2, 4, 33, 16}, {2, 4, 33, 8}, nullptr, true,
             std::nullopt);
}

TEST_P(Attention, EmptySizes) {
  for (const auto& qs : {Shape{2, 0, 4}, Shape{0, 3, 4}}) {
    SCOPED_TRACE("query " + shape_str(qs));
    const Shape ks{qs[0], 5, 4}, vs{qs[0], 5, 3};
    Tensor q = make(Values(static_cast<size_t>(numel_of(qs)), 0.5), qs);
    Tensor k = make(Values(static_cast<size_t>(numel_of(ks)), 0.5), ks);
    Tensor v = make(Values(static_cast<size_t>(numel_of(vs)), 0.5), vs), r;
    CTS_ASSERT_OK(sdpa(q, k, v, nullptr, false, std::nullopt, r));
    EXPECT_TRUE(matches(r, Values{}, {qs[0], qs[1], 3}, dt()));
  }
  // S = 0: softmax over nothing, then an empty sum: zeros (PyTorch's math path).
  Tensor q = make(Values(24, 0.5), {2, 3, 4}), k = make(Values{}, {2, 0, 4});
  Tensor v = make(Values{}, {2, 0, 3}), r;
  CTS_ASSERT_OK(sdpa(q, k, v, nullptr, false, std::nullopt, r));
  EXPECT_TRUE(matches(r, Values(18, 0.0), {2, 3, 3}, dt()));
}

// Dropout drops weight (b, i, j) when rand's value for element (b, i, j) of the [batch, L, S]
// weights is below p and scales the others by 1 / (1 - p): after the same seed, a rand of that
// shape (in the dtype the weights are computed in: float32 for the 16-bit floats) gives the
// numbers the op uses, so the reference applies exactly the same drops.
TEST_P(Attention, DropoutDropsWhereRandIsBelowP) {
  const Shape qs{2, 3, 4}, ks{2, 5, 4}, vs{2, 5, 3}, ws{2, 3, 5};
  const Values q = values_for(dt(), 24, 1), k = values_for(dt(), 40, 2), v = values_for(dt(), 30, 3);
  Tensor tq = make(q, qs), tk = make(k, ks), tv = make(v, vs);
  const kf_dtype_t wd = dt() == KF_FLOAT64 ? KF_FLOAT64 : KF_FLOAT32;
  for (const double p : {0.3, 0.5, 1.0}) {
    SCOPED_TRACE("dropout_p " + std::to_string(p));
    Tensor u, r;
    CTS_ASSERT_OK(kf_manual_seed(1234));
    CTS_ASSERT_OK(kf_rand(ws.data(), 3, wd, dev(), u.put()));
    CTS_ASSERT_OK(kf_manual_seed(1234));
    CTS_ASSERT_OK(sdpa(tq, tk, tv, nullptr, false, std::nullopt, r, p));
    Values drop = to_host_double(u);
    int kept = 0;
    for (double& x : drop) {
      kept += x >= p ? 1 : 0;
      x = x >= p ? 1.0 / (1.0 - p) : 0.0;
    }
    if (p < 1.0) {
      EXPECT_GT(kept, 0) << "some weights are kept";
    }
    Shape os;
    const Values want = ref_sdpa(q, qs, k, ks, v, vs, nullptr, false, std::nullopt, &os, &drop);
    EXPECT_TRUE(matches(r, want, os, dt(), kScale));
  }
}

TEST_P(Attention, DropoutKeepsTheMeanAndChangesWithTheSeed) {
  // Uniform weights 1/S over a value of ones: each output is (kept count) / (S (1 - p)), whose
  // mean over many outputs is 1; two seeds give different drops.
  const int64_t s = 64;
  Tensor q = make(Values(2 * 32 * 4, 0.0), {2, 32, 4}), k = make(Values(2 * s * 4, 0.0), {2, s, 4});
  Tensor v = make(Values(2 * s * 1, 1.0), {2, s, 1}), r1, r2;
  CTS_ASSERT_OK(kf_manual_seed(7));
  CTS_ASSERT_OK(sdpa(q, k, v, nullptr, false, std::nullopt, r1, 0.25));
  CTS_ASSERT_OK(kf_manual_seed(8));
  CTS_ASSERT_OK(sdpa(q, k, v, nullptr, false, std::nullopt, r2, 0.25));
  const Values a = to_host_double(r1), b = to_host_double(r2);
  double mean = 0;
  for (double x : a) mean += x / static_cast<double>(a.size());
  // 64 outputs, each the mean of 64 Bernoulli(0.75) / 0.75: standard error ~ 0.0083.
  EXPECT_NEAR(mean, 1.0, 0.05);
  EXPECT_NE(a, b) << "another seed drops other weights";
}

void expect_refused(kf_status_t s, const char* what, const char* needle) {
  EXPECT_EQ(s, KF_INVALID_ARGUMENT) << what;
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("scaled_dot_product_attention"), std::string::npos) << what << ": " << msg;
  EXPECT_NE(msg.find(needle), std::string::npos) << what << ": " << msg;
}

class Qkv {
 public:
  explicit Qkv(kf_device_t dev, kf_dtype_t d = KF_FLOAT32)
      : q(make_tensor(Values(24, 0.5), {2, 3, 4}, d, dev)),
        k(make_tensor(Values(40, 0.5), {2, 5, 4}, d, dev)),
        v(make_tensor(Values(30, 0.5), {2, 5, 3}, d, dev)) {}
  Tensor q, k, v;
};

TEST_P(AttentionAny, DropoutOutsideZeroOneIsRefused) {
  Qkv t(dev());
  Tensor r;
  expect_refused(sdpa(t.q, t.k, t.v, nullptr, false, std::nullopt, r, -0.5), "dropout -0.5",
                 "dropout_p");
  expect_refused(sdpa(t.q, t.k, t.v, nullptr, false, std::nullopt, r, 1.5), "dropout 1.5",
                 "dropout_p");
  EXPECT_FALSE(r);
}

TEST_P(AttentionAny, CausalWithMaskIsRefused) {
  Qkv t(dev());
  Tensor m = make(Values(15, 1), {3, 5}, KF_BOOL), r;
  expect_refused(sdpa(t.q, t.k, t.v, &m, true, std::nullopt, r), "causal + mask", "is_causal");
}

TEST_P(AttentionAny, BadShapesAreRefused) {
  Qkv t(dev());
  Tensor k3 = make(Values(30, 0.5), {2, 5, 3}, KF_FLOAT32);  // E 3 != 4
  Tensor v6 = make(Values(36, 0.5), {2, 6, 3}, KF_FLOAT32);  // S 6 != 5
  Tensor b3 = make(Values(72, 0.5), {3, 6, 4}, KF_FLOAT32);  // batch 3 vs 2
  Tensor q1 = make(Values(4, 0.5), {4}, KF_FLOAT32), r;
  expect_refused(sdpa(t.q, k3, t.v, nullptr, false, std::nullopt, r), "E", "last dim");
  expect_refused(sdpa(t.q, t.k, v6, nullptr, false, std::nullopt, r), "S", "dim -2");
  expect_refused(sdpa(b3, t.k, t.v, nullptr, false, std::nullopt, r), "batch", "broadcast");
  expect_refused(sdpa(q1, t.k, t.v, nullptr, false, std::nullopt, r), "1-D", "at least 2 dims");
}

TEST_P(AttentionAny, BadDtypesAreRefused) {
  Qkv t(dev());
  Qkv ti(dev(), KF_INT32);
  Tensor k64 = make(Values(40, 0.5), {2, 5, 4}, KF_FLOAT64), r;
  expect_refused(sdpa(ti.q, ti.k, ti.v, nullptr, false, std::nullopt, r), "int", "int32");
  expect_refused(sdpa(t.q, k64, t.v, nullptr, false, std::nullopt, r), "mixed", "float64");
  Tensor mi = make(Values(15, 1), {3, 5}, KF_INT64), m64 = make(Values(15, 1), {3, 5}, KF_FLOAT64);
  expect_refused(sdpa(t.q, t.k, t.v, &mi, false, std::nullopt, r), "int mask", "attn_mask");
  expect_refused(sdpa(t.q, t.k, t.v, &m64, false, std::nullopt, r), "f64 mask", "attn_mask");
  Tensor m_big = make(Values(60, 1), {2, 2, 3, 5}, KF_BOOL);
  Tensor m_bad = make(Values(12, 1), {3, 4}, KF_BOOL);
  expect_refused(sdpa(t.q, t.k, t.v, &m_big, false, std::nullopt, r), "mask grows", "attn_mask");
  expect_refused(sdpa(t.q, t.k, t.v, &m_bad, false, std::nullopt, r), "mask [3,4]", "attn_mask");
}

CTS_INSTANTIATE(Attention, params_all_float());
CTS_INSTANTIATE(AttentionAny, params_any());

}  // namespace
}  // namespace cts
