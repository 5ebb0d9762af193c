// CTS: reductions (sum, mean, amax, argmax).
#include "cts_util.hpp"

namespace cts {
namespace {

class Reduce : public CtsTest {};       // backend x every dtype but bool
class ReduceFloat : public CtsTest {};  // backend x {f32, f64, f16, bf16}
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

kf_dtype_t sum_dtype(kf_dtype_t d) { return is_float(d) ? d : integer_accumulation(d); }

const Shape kS{2, 3, 4};
Values input24(kf_dtype_t d) {  // representable in d, so the reference sees the same input
  return representable(d, is_float(d) ? pseudo_random(24, -4, 4, 7)
                                      : pseudo_random(24, -9, 9, 7, true));
}

TEST_P(Reduce, SumAll) {
  CTS_REQUIRE(sum_dtype(dt()), "sum");
  const Values v = input24(dt());
  Tensor t = make(v, kS), r;
  CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  Shape os;
  const Values want = ref_reduce(v, kS, {}, 0, kPlus, false, &os);
  EXPECT_EQ(os, Shape{});
  EXPECT_TRUE(matches(r, want, {}, sum_dtype(dt()), 16));
}

TEST_P(Reduce, SumDims) {
  CTS_REQUIRE(sum_dtype(dt()), "sum");
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
  CTS_REQUIRE(KF_FLOAT64, "sum");
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
  CTS_REQUIRE(sum_dtype(dt()), "sum");
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
  CTS_REQUIRE(dt(), "amax");
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
  // Ties: the first maximum wins (uint8 takes the magnitudes: the same answers).
  CTS_REQUIRE(dt(), "argmax");
  const Values v = in({1, 5, 5, 2, 7, 7, 0, 7, -1, 3, 3, -1});
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
  CTS_REQUIRE(dt(), "argmax");
  const Values v = in({1, 5, 5, 2, 7, 7, 0, 7, -1, 3, 3, -1});
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
  CTS_REQUIRE(dt(), "mean");
  CTS_REQUIRE(KF_FLOAT64, "mean");
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
  CTS_REQUIRE(dt(), "mean");
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

TEST_P(ReduceAny, MeanOfNarrowIntegersNeedsAFloatDtype) {
  // PyTorch: mean of an integer or bool tensor needs dtype=; with it, the input is converted.
  const Values v{100, 120, 127, 1};
  for (kf_dtype_t d : {KF_INT8, KF_UINT8, KF_INT16, KF_BOOL}) {
    SCOPED_TRACE(dtype_str(d));
    Tensor t = make(v, {4}, d), bad, r;
    EXPECT_EQ(kf_mean(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, bad.put()),
              KF_INVALID_ARGUMENT);
    const std::string msg = kf_last_error_message();
    EXPECT_NE(msg.find("mean"), std::string::npos) << msg;
    EXPECT_NE(msg.find(kf_dtype_name(d)), std::string::npos) << msg;
    EXPECT_FALSE(bad) << "no result on failure";
    for (kf_dtype_t f : {KF_FLOAT32, KF_FLOAT16, KF_BFLOAT16}) {
      SCOPED_TRACE(std::string("dtype=") + dtype_str(f));
      CTS_ASSERT_OK(kf_mean(t.get(), nullptr, 0, false, f, r.put()));
      const Values x = representable(d, v);
      EXPECT_TRUE(matches(r, Values{(x[0] + x[1] + x[2] + x[3]) / 4}, {}, f));
    }
  }
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
  // The total (3145778) overflows float16 to inf, as PyTorch's float16 sum does.
  CTS_REQUIRE(sum_dtype(dt()), "sum");
  CTS_REQUIRE(dt(), "amax", "argmax");
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

// ------------------------------------------------------------------ layouts and sizes
// Large enough that device kernels split each output's reduction over many work-items (and the
// CPU over threads); small integers, so float sums are exact and the comparison is tight.

/** i % m with spikes of `peak` at `at` (ties, so argmax must pick the first). */
Values periodic(int64_t n, int64_t m, std::vector<int64_t> at, double peak) {
  Values v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i % m);
  for (int64_t i : at) v[static_cast<size_t>(i)] = peak;
  return v;
}

/** First index of the maximum (NaN greatest) of each output's reduction over `dim`. */
Values ref_argmax(const Values& v, const Shape& shape, int64_t dim) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  Shape os;
  for (int64_t d = 0; d < nd; ++d) os.push_back(d == dim ? 1 : shape[static_cast<size_t>(d)]);
  const Shape ost = contiguous_strides(os);
  const Shape ist = contiguous_strides(shape);
  Values best(static_cast<size_t>(numel_of(os)), -1), val(best.size(), 0);
  for (int64_t i = 0; i < numel_of(shape); ++i) {
    int64_t o = 0, pos = 0;
    for (int64_t d = 0; d < nd; ++d) {
      const int64_t idx = i / ist[static_cast<size_t>(d)] % shape[static_cast<size_t>(d)];
      if (d == dim) pos = idx; else o += idx * ost[static_cast<size_t>(d)];
    }
    const double x = v[static_cast<size_t>(i)], b = val[static_cast<size_t>(o)];
    const bool better = best[static_cast<size_t>(o)] < 0 || x > b ||
                        (std::isnan(x) && !std::isnan(b));
    if (better) {
      best[static_cast<size_t>(o)] = static_cast<double>(pos);
      val[static_cast<size_t>(o)] = x;
    }
  }
  return best;
}

TEST_P(Reduce, LargeTransposedNonLastDim) {
  CTS_REQUIRE(sum_dtype(dt()), "sum");
  CTS_REQUIRE(dt(), "amax", "argmax");
  // [512, 384] transposed to [384, 512] (strides 1, 384): each dim reduced, then all of it.
  const Shape base{512, 384}, ts{384, 512}, tst{1, 384};
  const Values v = periodic(512 * 384, 13, {384 * 7 + 5, 384 * 300 + 5, 384 * 9 + 200}, 40);
  Tensor t = make(v, base), tt;
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 1, tt.put()));
  const Values tv = gather_strided(v, 0, ts, tst);
  for (int64_t d : {0, 1}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    Tensor s, m, a;
    CTS_ASSERT_OK(kf_sum(tt.get(), &d, 1, false, KF_DTYPE_UNDEFINED, s.put()));
    Shape os;
    const Values want = ref_reduce(tv, ts, {d}, 0, kPlus, false, &os);
    EXPECT_TRUE(matches(s, want, os, sum_dtype(dt())));
    CTS_ASSERT_OK(kf_amax(tt.get(), &d, 1, true, m.put()));
    Shape ms;
    EXPECT_TRUE(matches(m, ref_reduce(tv, ts, {d}, -INFINITY, kMax, true, &ms), ms, dt()));
    CTS_ASSERT_OK(kf_argmax(tt.get(), &d, false, a.put()));
    EXPECT_TRUE(matches(a, ref_argmax(tv, ts, d), os, KF_INT64));
  }
  Tensor all, arg;
  CTS_ASSERT_OK(kf_sum(tt.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, all.put()));
  EXPECT_TRUE(matches(all, ref_reduce(tv, ts, {}, 0, kPlus, false, nullptr), {},
                      sum_dtype(dt())));
  // Flattened in the view's order: the 40 at [5, 7] (position 5 * 512 + 7) comes first.
  CTS_ASSERT_OK(kf_argmax(tt.get(), nullptr, false, arg.put()));
  EXPECT_TRUE(matches(arg, Values{5 * 512 + 7}, {}, KF_INT64));
}

TEST_P(Reduce, LargePermutedReducedDimsThatDoNotMerge) {
  CTS_REQUIRE(sum_dtype(dt()), "sum");
  CTS_REQUIRE(dt(), "amax", "argmax");
  // [40, 12, 130] permuted to [130, 40, 12] (strides 1, 1560, 130); dims 0 and 1 reduced: the
  // reduced dims cannot merge into one, and each of the 12 outputs has 5200 elements.
  const Shape base{40, 12, 130}, ps{130, 40, 12}, pst{1, 1560, 130};
  const Values v = periodic(40 * 12 * 130, 11, {1560 * 3 + 130 * 4 + 17}, 30);
  Tensor t = make(v, base), p;
  const int64_t perm[3] = {2, 0, 1};
  CTS_ASSERT_OK(kf_permute(t.get(), perm, 3, p.put()));
  const Values pv = gather_strided(v, 0, ps, pst);
  const std::vector<int64_t> dims{0, 1};
  for (bool keep : {false, true}) {
    SCOPED_TRACE(keep ? "keepdim" : "no keepdim");
    Tensor s, m;
    CTS_ASSERT_OK(kf_sum(p.get(), dims.data(), 2, keep, KF_DTYPE_UNDEFINED, s.put()));
    Shape os;
    EXPECT_TRUE(matches(s, ref_reduce(pv, ps, dims, 0, kPlus, keep, &os), os, sum_dtype(dt())));
    CTS_ASSERT_OK(kf_amax(p.get(), dims.data(), 2, keep, m.put()));
    EXPECT_TRUE(matches(m, ref_reduce(pv, ps, dims, -INFINITY, kMax, keep, &os), os, dt()));
  }
  Tensor a;
  const int64_t d0 = 0;
  CTS_ASSERT_OK(kf_argmax(p.get(), &d0, false, a.put()));
  EXPECT_TRUE(matches(a, ref_argmax(pv, ps, 0), {40, 12}, KF_INT64));
}

TEST_P(Reduce, ExpandedInput) {
  CTS_REQUIRE(sum_dtype(dt()), "sum");
  // A row expanded (stride 0) to [3000, 300]: 900000 elements over 300 stored ones.
  const Values row = periodic(300, 9, {}, 0);
  Tensor r = make(row, {1, 300}), e, all, d0, d1;
  const Shape es{3000, 300};
  CTS_ASSERT_OK(kf_expand(r.get(), es.data(), 2, e.put()));
  const Values ev = expand_to(row, {1, 300}, es);
  CTS_ASSERT_OK(kf_sum(e.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, all.put()));
  EXPECT_TRUE(matches(all, ref_reduce(ev, es, {}, 0, kPlus, false, nullptr), {}, sum_dtype(dt())));
  const int64_t zero = 0, one_ = 1;
  CTS_ASSERT_OK(kf_sum(e.get(), &zero, 1, false, KF_DTYPE_UNDEFINED, d0.put()));
  EXPECT_TRUE(matches(d0, ref_reduce(ev, es, {0}, 0, kPlus, false, nullptr), {300},
                      sum_dtype(dt())));
  CTS_ASSERT_OK(kf_sum(e.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, d1.put()));
  EXPECT_TRUE(matches(d1, ref_reduce(ev, es, {1}, 0, kPlus, false, nullptr), {3000},
                      sum_dtype(dt())));
}

TEST_P(Reduce, ManyShortRowsAndColumns) {
  CTS_REQUIRE(sum_dtype(dt()), "sum");
  CTS_REQUIRE(dt(), "amax", "argmax");
  // Many outputs with short reductions (work-groups serve several outputs), and a reduction
  // over dim 0 whose outputs are neighbours in memory.
  const Shape rs{20000, 3}, cs{48, 2000};
  const Values rv = periodic(60000, 7, {5, 59999}, 20), cv = periodic(96000, 17, {2000 * 30 + 1}, 30);
  Tensor rt = make(rv, rs), ct = make(cv, cs), s1, m1, a1, s0, a0;
  const int64_t zero = 0, one_ = 1;
  CTS_ASSERT_OK(kf_sum(rt.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, s1.put()));
  EXPECT_TRUE(matches(s1, ref_reduce(rv, rs, {1}, 0, kPlus, false, nullptr), {20000},
                      sum_dtype(dt())));
  CTS_ASSERT_OK(kf_amax(rt.get(), &one_, 1, false, m1.put()));
  EXPECT_TRUE(matches(m1, ref_reduce(rv, rs, {1}, -INFINITY, kMax, false, nullptr), {20000},
                      dt()));
  CTS_ASSERT_OK(kf_argmax(rt.get(), &one_, false, a1.put()));
  EXPECT_TRUE(matches(a1, ref_argmax(rv, rs, 1), {20000}, KF_INT64));
  CTS_ASSERT_OK(kf_sum(ct.get(), &zero, 1, false, KF_DTYPE_UNDEFINED, s0.put()));
  EXPECT_TRUE(matches(s0, ref_reduce(cv, cs, {0}, 0, kPlus, false, nullptr), {2000},
                      sum_dtype(dt())));
  CTS_ASSERT_OK(kf_argmax(ct.get(), &zero, false, a0.put()));
  EXPECT_TRUE(matches(a0, ref_argmax(cv, cs, 0), {2000}, KF_INT64));
}

TEST_P(Reduce, MiddleDimOfThree) {
  CTS_REQUIRE(sum_dtype(dt()), "sum");
  CTS_REQUIRE(dt(), "amax", "argmax");
  // [3, 500, 100] over dim 1: 300 outputs in 3 runs of 100 neighbours, 500 elements apart.
  const Shape sh{3, 500, 100};
  const Values v = periodic(150000, 23, {100 * 17 + 3, 50000 + 100 * 480 + 99}, 50);
  Tensor t = make(v, sh), s, m, a;
  const int64_t one_ = 1;
  CTS_ASSERT_OK(kf_sum(t.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, s.put()));
  EXPECT_TRUE(matches(s, ref_reduce(v, sh, {1}, 0, kPlus, false, nullptr), {3, 100},
                      sum_dtype(dt())));
  CTS_ASSERT_OK(kf_amax(t.get(), &one_, 1, true, m.put()));
  EXPECT_TRUE(matches(m, ref_reduce(v, sh, {1}, -INFINITY, kMax, true, nullptr), {3, 1, 100},
                      dt()));
  CTS_ASSERT_OK(kf_argmax(t.get(), &one_, false, a.put()));
  EXPECT_TRUE(matches(a, ref_argmax(v, sh, 1), {3, 100}, KF_INT64));
}

// ------------------------------------------------------------------ floats: NaN, determinism

TEST_P(ReduceFloat, NanIsTheMaximum) {
  CTS_REQUIRE(dt(), "amax", "argmax");
  Values v = pseudo_random(1 << 20, -8, 8, 11);
  for (double& x : v) x = round_to(dt(), x);
  v[700000] = NAN;
  v[800001] = NAN;
  v[900000] = INFINITY;
  Tensor t = make(v, {1 << 20}), m, a, rows, rowsa;
  CTS_ASSERT_OK(kf_amax(t.get(), nullptr, 0, false, m.put()));
  EXPECT_TRUE(matches(m, Values{NAN}, {}, dt()));
  CTS_ASSERT_OK(kf_argmax(t.get(), nullptr, false, a.put()));
  EXPECT_TRUE(matches(a, Values{700000}, {}, KF_INT64));
  // Per row of [1024, 1024]: rows 683 and 781 hold a NaN, row 878 the infinity.
  Tensor m2;
  const Shape ms{1024, 1024};
  CTS_ASSERT_OK(kf_reshape(t.get(), ms.data(), 2, m2.put()));
  const int64_t one_ = 1;
  CTS_ASSERT_OK(kf_amax(m2.get(), &one_, 1, false, rows.put()));
  Values want(1024);
  for (size_t r = 0; r < 1024; ++r) {
    double best = -INFINITY;
    for (size_t c = 0; c < 1024; ++c) {
      const double x = v[r * 1024 + c];
      if (x > best || std::isnan(x)) best = x;
      if (std::isnan(x)) break;
    }
    want[r] = best;
  }
  EXPECT_TRUE(matches(rows, want, {1024}, dt()));
  CTS_ASSERT_OK(kf_argmax(m2.get(), &one_, false, rowsa.put()));
  EXPECT_TRUE(matches(rowsa, ref_argmax(v, ms, 1), {1024}, KF_INT64));
}

/** The tensor's bytes on the host. */
std::vector<unsigned char> host_bytes(const Tensor& t) {
  std::vector<unsigned char> b(static_cast<size_t>(t.numel()) * kf_dtype_size(t.dtype()));
  EXPECT_EQ(kf_tensor_copy_to_host(t.get(), b.data(), b.size()), KF_OK);
  return b;
}

TEST_P(ReduceFloat, SameSumTwiceHasTheSameBits) {
  CTS_REQUIRE(dt(), "sum", "mean");
  // Values whose sums round: the order of additions shows in the last bits. Each backend must
  // add in the same order every time (no atomics, no timing-dependent splits).
  const Values v = pseudo_random(1 << 20, -1, 1, 3);
  Tensor t = make(v, {1 << 20}), m;
  const Shape ms{1024, 1024};
  CTS_ASSERT_OK(kf_reshape(t.get(), ms.data(), 2, m.put()));
  const int64_t zero = 0, one_ = 1;
  const auto run = [&](int which, Tensor& out) {
    switch (which) {
      case 0: return kf_sum(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, out.put());
      case 1: return kf_sum(m.get(), &zero, 1, false, KF_DTYPE_UNDEFINED, out.put());
      case 2: return kf_sum(m.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, out.put());
      default: return kf_mean(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, out.put());
    }
  };
  for (int which = 0; which < 4; ++which) {
    SCOPED_TRACE("case " + std::to_string(which));
    Tensor first;
    CTS_ASSERT_OK(run(which, first));
    const std::vector<unsigned char> bits = host_bytes(first);
    for (int again = 0; again < 3; ++again) {
      Tensor next;
      CTS_ASSERT_OK(run(which, next));
      EXPECT_TRUE(host_bytes(next) == bits) << "run " << again + 2 << " differs from run 1";
    }
  }
  Tensor s;
  CTS_ASSERT_OK(run(0, s));
  double want = 0;
  for (double x : v) want += round_to(dt(), x);
  EXPECT_TRUE(matches(s, Values{want}, {}, dt(), 64));
}

// ------------------------------------------------------------------ the other dtypes

TEST_P(ReduceAny, HalfFloatsSmallIntsAndBool) {
  const Shape sh{3, 50};
  const Values fv = [] {  // quarters in [-4, 4]: exact in float16 and bfloat16
    Values v = pseudo_random(150, -16, 16, 5, true);
    for (double& x : v) x /= 4;
    return v;
  }();
  const int64_t zero = 0, one_ = 1;
  for (kf_dtype_t d : {KF_FLOAT16, KF_BFLOAT16}) {
    SCOPED_TRACE(dtype_str(d));
    Tensor t = make(fv, sh, d), s, mean, m, a;
    CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, s.put()));
    EXPECT_TRUE(matches(s, ref_reduce(fv, sh, {}, 0, kPlus, false, nullptr), {}, d));
    CTS_ASSERT_OK(kf_mean(t.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, mean.put()));
    Values mw = ref_reduce(fv, sh, {1}, 0, kPlus, false, nullptr);
    for (double& x : mw) x /= 50;
    EXPECT_TRUE(matches(mean, mw, {3}, d));
    CTS_ASSERT_OK(kf_amax(t.get(), &one_, 1, false, m.put()));
    EXPECT_TRUE(matches(m, ref_reduce(fv, sh, {1}, -INFINITY, kMax, false, nullptr), {3}, d));
    CTS_ASSERT_OK(kf_argmax(t.get(), &zero, false, a.put()));
    EXPECT_TRUE(matches(a, ref_argmax(fv, sh, 0), {50}, KF_INT64));
  }
  const Values iv = pseudo_random(150, 0, 100, 9, true);
  for (kf_dtype_t d : {KF_INT8, KF_UINT8, KF_INT16, KF_BOOL}) {
    SCOPED_TRACE(dtype_str(d));
    Values v = iv;
    if (d == KF_BOOL) for (double& x : v) x = std::fmod(x, 3) == 0 ? 1 : 0;
    Tensor t = make(v, sh, d), m, a, af;
    CTS_ASSERT_OK(kf_amax(t.get(), &one_, 1, false, m.put()));
    EXPECT_TRUE(matches(m, ref_reduce(v, sh, {1}, -INFINITY, kMax, false, nullptr), {3}, d));
    CTS_ASSERT_OK(kf_argmax(t.get(), &zero, false, a.put()));
    EXPECT_TRUE(matches(a, ref_argmax(v, sh, 0), {50}, KF_INT64));
    CTS_ASSERT_OK(kf_argmax(t.get(), nullptr, false, af.put()));
    EXPECT_TRUE(matches(af, ref_argmax(v, {150}, 0), {}, KF_INT64));
  }
}

TEST_P(ReduceAny, IntegerSumsWrapInTheirDtype) {
  // sum(dtype=d) accumulates in 64 bits and stores modulo 2^bits (the CPU backend's rule).
  const struct { kf_dtype_t d; Values v; double want; } cases[] = {
      {KF_INT8, {100, 100, 100}, 44},
      {KF_UINT8, {200, 100}, 44},
      {KF_INT16, {30000, 30000}, -5536},
      {KF_INT32, {2147483647, 2147483647, 2}, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(dtype_str(c.d));
    Tensor t = make(c.v, {static_cast<int64_t>(c.v.size())}, c.d), s;
    CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, c.d, s.put()));
    EXPECT_TRUE(matches(s, Values{c.want}, {}, c.d));
  }
}

TEST_P(ReduceAny, EmptyReductions) {
  // amax/argmax of an empty dim have no identity: refused; over a non-empty dim of an empty
  // tensor they give an empty result. sum over it gives zeros, mean NaNs.
  Tensor e = make(Values{}, {0, 3}, KF_FLOAT32), m0, m1, a, s1, mean0;
  const int64_t zero = 0, one_ = 1;
  EXPECT_EQ(kf_amax(e.get(), &zero, 1, false, m0.put()), KF_INVALID_ARGUMENT);
  EXPECT_EQ(kf_argmax(e.get(), &one_, false, a.put()), KF_INVALID_ARGUMENT);
  CTS_ASSERT_OK(kf_amax(e.get(), &one_, 1, false, m1.put()));
  EXPECT_TRUE(matches(m1, Values{}, {0}, KF_FLOAT32));
  CTS_ASSERT_OK(kf_sum(e.get(), &one_, 1, true, KF_DTYPE_UNDEFINED, s1.put()));
  EXPECT_TRUE(matches(s1, Values{}, {0, 1}, KF_FLOAT32));
  CTS_ASSERT_OK(kf_mean(e.get(), &zero, 1, false, KF_DTYPE_UNDEFINED, mean0.put()));
  EXPECT_TRUE(matches(mean0, Values{NAN, NAN, NAN}, {3}, KF_FLOAT32));
}

TEST_P(Reduce, NarrowIntegerSumsAccumulateWithoutWrapping) {
  // PyTorch: sum of a signed integer tensor is int64 and never wraps in the input's dtype; an
  // unsigned one's is uint64 (numpy and the array API standard).
  if (is_float(dt())) GTEST_SKIP() << "integer inputs only";
  const kf_dtype_t acc = integer_accumulation(dt());
  CTS_REQUIRE(acc, "sum");
  // uint8 values above 127 must not sign-extend; int8's negatives must.
  const Values v = dt() == KF_UINT8 ? Values{200, 255, 130, 127, 1, 0}
                                    : in({100, -100, 100, 127, -128, 110});
  Tensor t = make(v, {2, 3}), all, rows;
  CTS_ASSERT_OK(kf_sum(t.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, all.put()));
  EXPECT_TRUE(matches(all, ref_reduce(v, {2, 3}, {}, 0, kPlus, false, nullptr), {}, acc));
  const int64_t one_ = 1;
  CTS_ASSERT_OK(kf_sum(t.get(), &one_, 1, false, KF_DTYPE_UNDEFINED, rows.put()));
  EXPECT_TRUE(matches(rows, ref_reduce(v, {2, 3}, {1}, 0, kPlus, false, nullptr), {2}, acc));
  const Values want = to_host_double(all);
  ASSERT_EQ(want.size(), 1u);
  EXPECT_EQ(want[0], v[0] + v[1] + v[2] + v[3] + v[4] + v[5]) << "no wrap in the input dtype";
}

TEST_P(Reduce, ExtremesOfTheDtype) {
  // amax/argmax at the ends of the dtype's range: int8 -128 and 127, uint8 255, float -inf.
  CTS_REQUIRE(dt(), "amax", "argmax");
  double lo = -INFINITY, hi = INFINITY;
  switch (dt()) {
    case KF_INT8: lo = -128; hi = 127; break;
    case KF_UINT8: lo = 0; hi = 255; break;
    case KF_INT16: lo = -32768; hi = 32767; break;
    case KF_INT32: lo = -2147483648.0; hi = 2147483647; break;
    case KF_INT64: lo = -4611686018427387904.0; hi = 4611686018427387904.0; break;
    default: break;
  }
  const Values v{lo, lo, hi, lo, hi, lo};
  Tensor t = make(v, {2, 3}), m, a, mr;
  CTS_ASSERT_OK(kf_amax(t.get(), nullptr, 0, false, m.put()));
  EXPECT_TRUE(matches(m, Values{hi}, {}, dt()));
  CTS_ASSERT_OK(kf_argmax(t.get(), nullptr, false, a.put()));
  EXPECT_TRUE(matches(a, Values{2}, {}, KF_INT64));
  const int64_t zero = 0;
  CTS_ASSERT_OK(kf_amax(t.get(), &zero, 1, false, mr.put()));
  EXPECT_TRUE(matches(mr, Values{lo, hi, hi}, {3}, dt()));
}

CTS_INSTANTIATE(Reduce, params_all_numeric());
CTS_INSTANTIATE(ReduceFloat, params_all_float());
CTS_INSTANTIATE(ReduceAny, params_any());

}  // namespace
}  // namespace cts
