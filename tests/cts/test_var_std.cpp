// CTS: var and std (floating dtypes only; sum((x - mean)^2) / max(0, N - correction), the
// correction 1 unless given, float corrections allowed).
#include "reduce_ref.hpp"

namespace cts {
namespace {

using red::Dims;

class VarStd : public CtsTest {};     // backend x every floating dtype
class VarStdAny : public CtsTest {};  // backend only

double var_of(const Values& g, double correction) {
  double mean = 0;
  for (double x : g) mean += x;
  mean /= static_cast<double>(g.size());
  double m2 = 0;
  for (double x : g) m2 += (x - mean) * (x - mean);
  return m2 / std::max(0.0, static_cast<double>(g.size()) - correction);
}

kf_status_t call(bool is_std, kf_tensor_t t, const Dims* dims, const kf_scalar_t* corr, bool keep,
                 Tensor& r) {
  const int64_t* d = dims && !dims->empty() ? dims->data() : nullptr;
  const int32_t n = dims ? static_cast<int32_t>(dims->size()) : 0;
  return is_std ? kf_std(t, d, n, corr, keep, r.put()) : kf_var(t, d, n, corr, keep, r.put());
}

TEST_P(VarStd, DimsAndCorrections) {
  const Shape s{2, 3, 4};
  const Values v = red::input(dt(), 24, 23);
  Tensor t = make(v, s);
  const kf_scalar_t c0 = kf_scalar_i64(0), c2 = kf_scalar_i64(2), ch = kf_scalar_f64(0.5);
  const std::pair<const kf_scalar_t*, double> corrs[] = {
      {nullptr, 1}, {&c0, 0}, {&c2, 2}, {&ch, 0.5}};
  for (bool is_std : {false, true}) {
    for (const auto& [dims, keep] : red::dim_cases()) {
      for (const auto& [cp, c] : corrs) {
        SCOPED_TRACE(std::string(is_std ? "std " : "var ") + red::dims_str(dims, keep) +
                     " correction " + std::to_string(c));
        Tensor r;
        CTS_ASSERT_OK(call(is_std, t.get(), &dims, cp, keep, r));
        Shape os;
        const double cc = c;
        const Values want = red::reduce(v, s, dims, keep, &os, [&](const Values& g) {
          const double x = var_of(g, cc);
          return is_std ? std::sqrt(x) : x;
        });
        EXPECT_TRUE(matches(r, want, os, dt(), 8));
      }
    }
  }
  Tensor none;  // dim=None
  CTS_ASSERT_OK(call(false, t.get(), nullptr, nullptr, false, none));
  EXPECT_TRUE(matches(none, Values{var_of(v, 1)}, {}, dt(), 8));
}

TEST_P(VarStd, StridedOutAndLarge) {
  // A transposed [600, 300] input with a large mean: the two-pass result stays accurate.
  const Shape base{300, 600}, ts{600, 300};
  Values v = pseudo_random(180000, 1000, 1004, 29);
  for (double& x : v) x = round_to(dt(), x);
  Tensor t = make(v, base), tt;
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 1, tt.put()));
  const Values tv = gather_strided(v, 0, ts, {1, 600});
  for (int64_t d : {0, 1, -1}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    const Dims dims{d};
    Tensor r, sd, out;
    CTS_ASSERT_OK(call(false, tt.get(), &dims, nullptr, false, r));
    Shape os;
    const Values want =
        red::reduce(tv, ts, dims, false, &os, [](const Values& g) { return var_of(g, 1); });
    EXPECT_TRUE(matches(r, want, os, dt(), 16));
    CTS_ASSERT_OK(kf_empty(os.data(), 1, dt(), dev(), out.put()));
    CTS_ASSERT_OK(kf_std_out(tt.get(), dims.data(), 1, nullptr, false, out.get()));
    Values sw = want;
    for (double& x : sw) x = std::sqrt(x);
    EXPECT_TRUE(matches(out, sw, os, dt(), 16));
  }
  Tensor all;
  CTS_ASSERT_OK(call(false, t.get(), nullptr, nullptr, false, all));
  EXPECT_TRUE(matches(all, Values{var_of(v, 1)}, {}, dt(), 16));
}

TEST_P(VarStd, DegenerateCounts) {
  // N - correction <= 0: inf for a positive sum of squares, NaN for 0/0; N == 0 gives NaN.
  Tensor t = make(Values{1, 2, 3, 3}, {2, 2}), a, b, c, d, e0, z, zs;
  const kf_scalar_t c2 = kf_scalar_i64(2), c3 = kf_scalar_f64(2.5);
  const Dims one{1};
  CTS_ASSERT_OK(call(false, t.get(), &one, &c2, false, a));
  EXPECT_TRUE(matches(a, Values{INFINITY, NAN}, {2}, dt()));
  CTS_ASSERT_OK(call(true, t.get(), &one, &c3, false, b));
  EXPECT_TRUE(matches(b, Values{INFINITY, NAN}, {2}, dt()));
  Tensor e = make(Values{}, {0, 2});
  const Dims zero{0};
  CTS_ASSERT_OK(call(false, e.get(), &zero, nullptr, false, c));
  EXPECT_TRUE(matches(c, Values{NAN, NAN}, {2}, dt()));
  CTS_ASSERT_OK(call(false, e.get(), &one, nullptr, true, d));
  EXPECT_TRUE(matches(d, Values{}, {0, 1}, dt()));
  CTS_ASSERT_OK(call(false, e.get(), nullptr, nullptr, false, e0));
  EXPECT_TRUE(matches(e0, Values{NAN}, {}, dt()));
  Tensor s = make(Values{2}, {});  // 0-dim: N = 1
  const kf_scalar_t c0 = kf_scalar_i64(0);
  CTS_ASSERT_OK(call(false, s.get(), nullptr, nullptr, false, z));
  EXPECT_TRUE(matches(z, Values{NAN}, {}, dt()));
  CTS_ASSERT_OK(call(true, s.get(), nullptr, &c0, false, zs));
  EXPECT_TRUE(matches(zs, Values{0}, {}, dt()));
}

TEST_P(VarStd, ExpandedInput) {
  // A [1, 50] row expanded (stride 0) to [1000, 50]: reduced over the stride-0 dim, the other
  // one and both.
  const Values row = red::input(dt(), 50, 27);
  Tensor r = make(row, {1, 50}), e;
  const Shape es{1000, 50};
  CTS_ASSERT_OK(kf_expand(r.get(), es.data(), 2, e.put()));
  const Values ev = expand_to(row, {1, 50}, es);
  for (const Dims& dims : {Dims{0}, Dims{1}, Dims{}}) {
    SCOPED_TRACE("dims " + shape_str(dims));
    Tensor v;
    CTS_ASSERT_OK(call(false, e.get(), &dims, nullptr, false, v));
    Shape os;
    const Values want =
        red::reduce(ev, es, dims, false, &os, [](const Values& g) { return var_of(g, 1); });
    EXPECT_TRUE(matches(v, want, os, dt(), 16));
  }
}

TEST_P(VarStd, NanAndInf) {
  Tensor t = make(Values{1, NAN, 3, 1, INFINITY, 2, 4, 5, 6}, {3, 3}), r;
  const Dims one{1};
  CTS_ASSERT_OK(call(false, t.get(), &one, nullptr, false, r));
  EXPECT_TRUE(matches(r, Values{NAN, NAN, 1}, {3}, dt()));
}

TEST_P(VarStdAny, BoolCorrection) {
  // A bool correction counts as 0 or 1 (Python's bool is an int).
  Tensor t = make(Values{1, 2, 4}, {3}, KF_FLOAT64), r1, r0;
  const kf_scalar_t yes = kf_scalar_bool(true), no = kf_scalar_bool(false);
  CTS_ASSERT_OK(kf_var(t.get(), nullptr, 0, &yes, false, r1.put()));
  EXPECT_TRUE(matches(r1, Values{var_of({1, 2, 4}, 1)}, {}, KF_FLOAT64));
  CTS_ASSERT_OK(kf_var(t.get(), nullptr, 0, &no, false, r0.put()));
  EXPECT_TRUE(matches(r0, Values{var_of({1, 2, 4}, 0)}, {}, KF_FLOAT64));
}

TEST_P(VarStdAny, InvalidArguments) {
  for (kf_dtype_t d : {KF_INT32, KF_INT64, KF_UINT8, KF_BOOL}) {
    SCOPED_TRACE(dtype_str(d));
    Tensor t = make(Values{1, 2, 3}, {3}, d), r, s;
    EXPECT_TRUE(red::refused(kf_var(t.get(), nullptr, 0, nullptr, false, r.put()), "var"));
    EXPECT_TRUE(red::refused(kf_std(t.get(), nullptr, 0, nullptr, false, s.put()), "std"));
  }
  Tensor f = make(Values{1, 2, 3}, {3}, KF_FLOAT32), r1, r2;
  const int64_t bad = 1;
  EXPECT_TRUE(red::refused(kf_var(f.get(), &bad, 1, nullptr, false, r1.put()), "var"));
  const kf_scalar_t nan_c = kf_scalar_f64(NAN);
  EXPECT_TRUE(red::refused(kf_std(f.get(), nullptr, 0, &nan_c, false, r2.put()), "std"));
}

CTS_INSTANTIATE(VarStd, params_all_float());
CTS_INSTANTIATE(VarStdAny, params_any());

}  // namespace
}  // namespace cts
