// CTS: reductions (sum, mean, amax, argmax).
#include "cts_util.hpp"

namespace cts {
namespace {

class Reduce : public CtsTest {};       // backend x {f32, f64, i32, i64}
class ReduceFloat : public CtsTest {};  // backend x {f32, f64}
class ReduceAny : public CtsTest {};    // backend only

/** Reference reduction over `dims` (all when empty), in double. */
Values ref_reduce(const Values& v, const Shape& shape, std::vector<int64_t> dims, double init,
                  const std::function<double(double, double)>& f, bool keepdim,
                  Shape* out_shape) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  std::vector<bool> red(shape.size(), dims.empty());
  for (int64_t d : dims) red[static_cast<size_t>(d < 0 ? d + nd : d)] = true;
  Shape os, full;  // full: the output shape with reduced dims as 1
  for (size_t d = 0; d < shape.size(); ++d) {
    full.push_back(red[d] ? 1 : shape[d]);
    if (!red[d] || keepdim) os.push_back(red[d] ? 1 : shape[d]);
  }
  Values out(static_cast<size_t>(numel_of(full)), init);
  const Shape fst = contiguous_strides(full);
  for (int64_t i = 0; i < numel_of(shape); ++i) {
    int64_t rem = i, o = 0;
    for (size_t d = shape.size(); d-- > 0;) {
      const int64_t idx = rem % shape[d];
      rem /= shape[d];
      if (!red[d]) o += idx * fst[d];
    }
    out[static_cast<size_t>(o)] = f(out[static_cast<size_t>(o)], v[static_cast<size_t>(i)]);
  }
  if (out_shape) *out_shape = os;
  return out;
}

const auto kPlus = [](double a, double b) { return a + b; };
const auto kMax = [](double a, double b) { return b > a ? b : a; };

kf_dtype_t sum_dtype(kf_dtype_t d) { return is_float(d) ? d : KF_INT64; }

const Shape kS{2, 3, 4};
Values input24(kf_dtype_t d) {  // representable in d, so the reference sees the same input
  Values v = is_float(d) ? pseudo_random(24, -4, 4, 7) : pseudo_random(24, -9, 9, 7, true);
  for (double& x : v) x = round_to(d, x);
  return v;
}

TEST_P(Reduce, SumAll) {
  const Values v = input24(dt());
  Tensor t = make(v, kS), r;
  CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  Shape os;
  const Values want = ref_reduce(v, kS, {}, 0, kPlus, false, &os);
  EXPECT_EQ(os, Shape{});
  EXPECT_TRUE(matches(r, want, {}, sum_dtype(dt()), 16));
}

TEST_P(Reduce, SumDims) {
  const Values v = input24(dt());
  Tensor t = make(v, kS);
  const std::vector<std::pair<std::vector<int64_t>, bool>> cases = {
      {{1}, false}, {{-1}, false}, {{0, 2}, false}, {{1}, true}, {{-3, -1}, true}, {{0, 1, 2}, false}};
  for (const auto& [dims, keep] : cases) {
    SCOPED_TRACE("dims " + shape_str(dims) + (keep ? " keepdim" : ""));
    Tensor r;
    CTS_ASSERT_OK(kf_sum(t.get(), dims.data(), static_cast<int32_t>(dims.size()), keep,
                         KF_DTYPE_UNDEFINED, r.put()));
    Shape os;
    const Values want = ref_reduce(v, kS, dims, 0, kPlus, keep, &os);
    EXPECT_TRUE(matches(r, want, os, sum_dtype(dt()), 16));
  }
}

TEST_P(Reduce, SumDtypeFloat64) {
  const Values v = input24(dt());
  Tensor t = make(v, kS), r, r2;
  CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, KF_FLOAT64, r.put()));
  EXPECT_TRUE(matches(r, ref_reduce(v, kS, {}, 0, kPlus, false, nullptr), {}, KF_FLOAT64, 1e4));
  const int64_t d = 2;
  CTS_ASSERT_OK(kf_sum(t.get(), &d, 1, false, KF_FLOAT64, r2.put()));
  EXPECT_TRUE(matches(r2, ref_reduce(v, kS, {2}, 0, kPlus, false, nullptr), {2, 3}, KF_FLOAT64,
                      1e4));
}

TEST_P(Reduce, SumStridedAndOut) {
  const Values v = input24(dt());
  Tensor t = make(v, kS), p, r, out;
  const int64_t perm[3] = {2, 0, 1};
  CTS_ASSERT_OK(kf_permute(t.get(), perm, 3, p.put()));  // [4,2,3]
  const Values pv = gather_strided(v, 0, {4, 2, 3}, {1, 12, 4});
  const int64_t d = 0;
  CTS_ASSERT_OK(kf_sum(p.get(), &d, 1, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, ref_reduce(pv, {4, 2, 3}, {0}, 0, kPlus, false, nullptr), {2, 3},
                      sum_dtype(dt()), 4));
  const Shape os{2, 3};
  CTS_ASSERT_OK(kf_empty(os.data(), 2, sum_dtype(dt()), dev(), out.put()));
  CTS_ASSERT_OK(kf_sum_out(p.get(), &d, 1, false, KF_DTYPE_UNDEFINED, out.get()));
  EXPECT_TRUE(matches(out, ref_reduce(pv, {4, 2, 3}, {0}, 0, kPlus, false, nullptr), os,
                      sum_dtype(dt()), 4));
}

TEST_P(Reduce, AmaxDims) {
  const Values v = input24(dt());
  Tensor t = make(v, kS);
  const std::vector<std::pair<std::vector<int64_t>, bool>> cases = {
      {{}, false}, {{1}, false}, {{-1}, false}, {{0, 2}, true}, {{0, 1, 2}, false}};
  for (const auto& [dims, keep] : cases) {
    SCOPED_TRACE("dims " + shape_str(dims) + (keep ? " keepdim" : ""));
    Tensor r;
    CTS_ASSERT_OK(kf_amax(t.get(), dims.empty() ? nullptr : dims.data(),
                          static_cast<int32_t>(dims.size()), keep, r.put()));
    Shape os;
    const Values want = ref_reduce(v, kS, dims, -INFINITY, kMax, keep, &os);
    EXPECT_TRUE(matches(r, want, os, dt()));
  }
}

TEST_P(Reduce, ArgmaxNoneAndDim) {
  // Ties: the first maximum wins.
  const Values v{1, 5, 5, 2, 7, 7, 0, 7, -1, 3, 3, -1};
  Tensor t = make(v, {3, 4}), all, d0, d1, d1k;
  CTS_ASSERT_OK(kf_argmax(t.get(), nullptr, false, all.put()));
  EXPECT_TRUE(matches(all, Values{4}, {}, KF_INT64));
  const int64_t zero = 0, one_ = 1, minus1 = -1;
  CTS_ASSERT_OK(kf_argmax(t.get(), &zero, false, d0.put()));
  EXPECT_TRUE(matches(d0, Values{1, 1, 0, 1}, {4}, KF_INT64));
  CTS_ASSERT_OK(kf_argmax(t.get(), &one_, false, d1.put()));
  EXPECT_TRUE(matches(d1, Values{1, 0, 1}, {3}, KF_INT64));
  CTS_ASSERT_OK(kf_argmax(t.get(), &minus1, true, d1k.put()));
  EXPECT_TRUE(matches(d1k, Values{1, 0, 1}, {3, 1}, KF_INT64));
}

TEST_P(Reduce, ArgmaxStrided) {
  const Values v{1, 5, 5, 2, 7, 7, 0, 7, -1, 3, 3, -1};
  Tensor t = make(v, {3, 4}), tt, r, all;
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 1, tt.put()));  // [4,3]
  const int64_t one_ = 1;
  CTS_ASSERT_OK(kf_argmax(tt.get(), &one_, false, r.put()));
  EXPECT_TRUE(matches(r, Values{1, 1, 0, 1}, {4}, KF_INT64));
  // Flattened in the view's row-major order: 1 7 -1 5 7 3 5 0 3 2 7 -1 -> first 7 at 1.
  CTS_ASSERT_OK(kf_argmax(tt.get(), nullptr, false, all.put()));
  EXPECT_TRUE(matches(all, Values{1}, {}, KF_INT64));
}

// ------------------------------------------------------------------ mean (floating point)

TEST_P(ReduceFloat, Mean) {
  const Values v = input24(dt());
  Tensor t = make(v, kS);
  const auto mean_of = [&](const std::vector<int64_t>& dims, bool keep, Shape* os) {
    Values s = ref_reduce(v, kS, dims, 0, kPlus, keep, os);
    int64_t count = 1;
    if (dims.empty()) count = 24;
    for (int64_t d : dims) count *= kS[static_cast<size_t>(d < 0 ? d + 3 : d)];
    for (double& x : s) x /= static_cast<double>(count);
    return s;
  };
  Tensor all;
  CTS_ASSERT_OK(kf_mean(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, all.put()));
  EXPECT_TRUE(matches(all, mean_of({}, false, nullptr), {}, dt(), 8));
  const std::vector<std::pair<std::vector<int64_t>, bool>> cases = {
      {{1}, false}, {{-1}, true}, {{0, 2}, false}};
  for (const auto& [dims, keep] : cases) {
    SCOPED_TRACE("dims " + shape_str(dims));
    Tensor r;
    CTS_ASSERT_OK(kf_mean(t.get(), dims.data(), static_cast<int32_t>(dims.size()), keep,
                          KF_DTYPE_UNDEFINED, r.put()));
    Shape os;
    const Values want = mean_of(dims, keep, &os);
    EXPECT_TRUE(matches(r, want, os, dt(), 4));
  }
  Tensor f64;
  CTS_ASSERT_OK(kf_mean(t.get(), nullptr, 0, false, KF_FLOAT64, f64.put()));
  EXPECT_TRUE(matches(f64, mean_of({}, false, nullptr), {}, KF_FLOAT64, 1e4));
}

TEST_P(ReduceFloat, MeanOfEmptyIsNan) {
  Tensor e = make(Values{}, {0}), r;
  CTS_ASSERT_OK(kf_mean(e.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  const Values got = to_host_double(r);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(std::isnan(got[0])) << "mean of an empty tensor is nan (PyTorch); got " << got[0];
}

// ------------------------------------------------------------------ dtype rules

TEST_P(ReduceAny, SumOfBoolIsInt64) {
  Tensor b = make(Values{1, 0, 1, 1, 0, 1}, {2, 3}, KF_BOOL), r, rd;
  CTS_ASSERT_OK(kf_sum(b.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{4}, {}, KF_INT64));
  const int64_t d = 0;
  CTS_ASSERT_OK(kf_sum(b.get(), &d, 1, false, KF_DTYPE_UNDEFINED, rd.put()));
  EXPECT_TRUE(matches(rd, Values{2, 0, 2}, {3}, KF_INT64));
}

TEST_P(ReduceAny, SumOfInt32IsInt64) {
  // 3 * 2^30 overflows int32 but not int64: the accumulation must be int64.
  const double big = 1073741824.0;
  Tensor t = make(Values{big, big, big}, {3}, KF_INT32), r;
  CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{3 * big}, {}, KF_INT64));
}

TEST_P(ReduceAny, SumWithIntDtype) {
  Tensor t = make(Values{1, 2, 3, 4}, {2, 2}, KF_INT32), r, b, rb;
  CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, KF_INT32, r.put()));
  EXPECT_TRUE(matches(r, Values{10}, {}, KF_INT32));
  b = make(Values{1, 1, 0}, {3}, KF_BOOL);
  CTS_ASSERT_OK(kf_sum(b.get(), nullptr, 0, false, KF_FLOAT32, rb.put()));
  EXPECT_TRUE(matches(rb, Values{2}, {}, KF_FLOAT32));
}

TEST_P(ReduceAny, SumOfEmptyIsZero) {
  Tensor e = make(Values{}, {0, 3}, KF_FLOAT32), r, rd;
  CTS_ASSERT_OK(kf_sum(e.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{0}, {}, KF_FLOAT32));
  const int64_t d = 0;
  CTS_ASSERT_OK(kf_sum(e.get(), &d, 1, false, KF_DTYPE_UNDEFINED, rd.put()));
  EXPECT_TRUE(matches(rd, Values{0, 0, 0}, {3}, KF_FLOAT32));
}

TEST_P(ReduceAny, SumOfZeroDim) {
  Tensor s = make(Values{2.5}, {}, KF_FLOAT32), r;
  CTS_ASSERT_OK(kf_sum(s.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{2.5}, {}, KF_FLOAT32));
}

TEST_P(ReduceAny, MeanWithDtypeOfInt) {
  Tensor t = make(Values{1, 2, 4}, {3}, KF_INT32), r;
  CTS_ASSERT_OK(kf_mean(t.get(), nullptr, 0, false, KF_FLOAT64, r.put()));
  EXPECT_TRUE(matches(r, Values{7.0 / 3.0}, {}, KF_FLOAT64));
}

TEST_P(ReduceAny, ArgmaxTiesAndIntAmax) {
  Tensor f = make(Values{-1, 3.5, 3.5, 0}, {4}, KF_FLOAT32), a;
  CTS_ASSERT_OK(kf_argmax(f.get(), nullptr, false, a.put()));
  EXPECT_TRUE(matches(a, Values{1}, {}, KF_INT64));
  Tensor i = make(Values{-5, -5, -7}, {3}, KF_INT64), ai, m;
  CTS_ASSERT_OK(kf_argmax(i.get(), nullptr, false, ai.put()));
  EXPECT_TRUE(matches(ai, Values{0}, {}, KF_INT64));
  CTS_ASSERT_OK(kf_amax(i.get(), nullptr, 0, false, m.put()));
  EXPECT_TRUE(matches(m, Values{-5}, {}, KF_INT64));
}

TEST_P(Reduce, LargeInputsAcrossThreadChunks) {
  // Big enough for the kernels to split the work: the ties must still give the first index.
  const int64_t n = 1 << 20;
  Values v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i % 7);
  v[70001] = 50;
  v[900001] = 50;
  Tensor t = make(v, {n}), s, am, ax;
  CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s.put()));
  double want = 0;
  for (double x : v) want += x;
  EXPECT_TRUE(matches(s, Values{want}, {}, sum_dtype(dt()), 64));
  CTS_ASSERT_OK(kf_argmax(t.get(), nullptr, false, ax.put()));
  EXPECT_TRUE(matches(ax, Values{70001}, {}, KF_INT64));
  CTS_ASSERT_OK(kf_amax(t.get(), nullptr, 0, false, am.put()));
  EXPECT_TRUE(matches(am, Values{50}, {}, dt()));
  // A [1024,1024] sum over the strided dim 0 and over dim 1.
  Tensor m, c0, c1;
  const Shape ms{1024, 1024};
  CTS_ASSERT_OK(kf_reshape(t.get(), ms.data(), 2, m.put()));
  const int64_t d0 = 0, d1 = 1;
  CTS_ASSERT_OK(kf_sum(m.get(), &d0, 1, false, KF_DTYPE_UNDEFINED, c0.put()));
  CTS_ASSERT_OK(kf_sum(m.get(), &d1, 1, false, KF_DTYPE_UNDEFINED, c1.put()));
  EXPECT_TRUE(matches(c0, ref_reduce(v, ms, {0}, 0, kPlus, false, nullptr), {1024},
                      sum_dtype(dt()), 64));
  EXPECT_TRUE(matches(c1, ref_reduce(v, ms, {1}, 0, kPlus, false, nullptr), {1024},
                      sum_dtype(dt()), 64));
}

CTS_INSTANTIATE(Reduce, params_numeric());
CTS_INSTANTIATE(ReduceFloat, params_float());
CTS_INSTANTIATE(ReduceAny, params_any());

}  // namespace
}  // namespace cts
