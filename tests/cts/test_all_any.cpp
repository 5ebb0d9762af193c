// CTS: the truth reductions over every dtype: all and any (nonzero is true, NaN is true; empty
// all is true, empty any false; the result is bool, uint8 for a uint8 input as PyTorch), and
// count_nonzero (int64 counts).
#include "reduce_ref.hpp"
#include "wide.hpp"

namespace cts {
namespace {

using red::Dims;

class AllAny : public CtsTest {};     // backend x every dtype
class AllAnyAny : public CtsTest {};  // backend only

kf_dtype_t logical_dtype(kf_dtype_t d) { return d == KF_UINT8 ? KF_UINT8 : KF_BOOL; }
double all_of(const Values& g) {
  for (double x : g)
    if (x == 0) return 0;
  return 1;
}
double any_of(const Values& g) {
  for (double x : g)
    if (x != 0) return 1;
  return 0;
}

kf_status_t call(bool all, kf_tensor_t t, const Dims& dims, bool keep, Tensor& r) {
  const int64_t* d = dims.empty() ? nullptr : dims.data();
  const int32_t n = static_cast<int32_t>(dims.size());
  return all ? kf_all(t, d, n, keep, r.put()) : kf_any(t, d, n, keep, r.put());
}

/** Mostly nonzero values with zeros in places, so that both results occur. */
Values sparse_zeros(kf_dtype_t d, size_t n, uint32_t seed, double zero_frac) {
  Values v = pseudo_random(n, 0, 1, seed);
  const Values w = red::input(d, n, seed + 1);
  for (size_t i = 0; i < n; ++i) v[i] = v[i] < zero_frac ? 0 : (w[i] == 0 ? 1 : w[i]);
  return v;
}

TEST_P(AllAny, Dims) {
  const Shape s{2, 3, 4};
  for (double frac : {0.1, 0.9}) {
    const Values v = sparse_zeros(dt(), 24, 31, frac);
    Tensor t = make(v, s);
    for (bool all : {true, false}) {
      for (const auto& [dims, keep] : red::dim_cases()) {
        SCOPED_TRACE(std::string(all ? "all " : "any ") + red::dims_str(dims, keep));
        Tensor r;
        CTS_ASSERT_OK(call(all, t.get(), dims, keep, r));
        Shape os;
        const Values want = red::reduce(v, s, dims, keep, &os, all ? all_of : any_of);
        EXPECT_TRUE(matches(r, want, os, logical_dtype(dt())));
      }
    }
  }
}

TEST_P(AllAny, StridedOutLargeAndEmpty) {
  const Shape base{300, 400}, ts{400, 300};
  Values v = sparse_zeros(dt(), 120000, 37, 0.002);
  Tensor t = make(v, base), tt;
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 1, tt.put()));
  const Values tv = gather_strided(v, 0, ts, {1, 400});
  for (bool all : {true, false}) {
    for (int64_t d : {0, 1}) {
      SCOPED_TRACE(std::string(all ? "all" : "any") + " dim " + std::to_string(d));
      Tensor r, out;
      CTS_ASSERT_OK(call(all, tt.get(), {d}, false, r));
      Shape os;
      const Values want = red::reduce(tv, ts, {d}, false, &os, all ? all_of : any_of);
      EXPECT_TRUE(matches(r, want, os, logical_dtype(dt())));
      CTS_ASSERT_OK(kf_empty(os.data(), 1, logical_dtype(dt()), dev(), out.put()));
      const int64_t dd = d;
      CTS_ASSERT_OK(all ? kf_all_out(tt.get(), &dd, 1, false, out.get())
                        : kf_any_out(tt.get(), &dd, 1, false, out.get()));
      EXPECT_TRUE(matches(out, want, os, logical_dtype(dt())));
    }
    Tensor whole;
    CTS_ASSERT_OK(call(all, t.get(), {}, false, whole));
    EXPECT_TRUE(matches(whole, Values{all ? all_of(v) : any_of(v)}, {}, logical_dtype(dt())));
  }
  // A large all-nonzero input (all true) and an all-zero one (any false), over threads.
  Values ones(1 << 18, 1.0), zeros(1 << 18, 0.0);
  Tensor o = make(ones, {1 << 18}), z = make(zeros, {1 << 18}), ao, az;
  CTS_ASSERT_OK(call(true, o.get(), {}, false, ao));
  EXPECT_TRUE(matches(ao, Values{1}, {}, logical_dtype(dt())));
  CTS_ASSERT_OK(call(false, z.get(), {}, false, az));
  EXPECT_TRUE(matches(az, Values{0}, {}, logical_dtype(dt())));
  Tensor e = make(Values{}, {0, 3}), ea, ey, ed, ez, s = make(Values{0}, {}), sa;
  CTS_ASSERT_OK(call(true, e.get(), {}, false, ea));
  EXPECT_TRUE(matches(ea, Values{1}, {}, logical_dtype(dt())));
  CTS_ASSERT_OK(call(false, e.get(), {0}, false, ey));
  EXPECT_TRUE(matches(ey, Values{0, 0, 0}, {3}, logical_dtype(dt())));
  CTS_ASSERT_OK(call(true, e.get(), {1}, true, ed));
  EXPECT_TRUE(matches(ed, Values{}, {0, 1}, logical_dtype(dt())));
  CTS_ASSERT_OK(call(false, s.get(), {-1}, false, sa));
  EXPECT_TRUE(matches(sa, Values{0}, {}, logical_dtype(dt())));
}

TEST_P(AllAnyAny, NanNegativeZeroAndErrors) {
  Tensor f = make(Values{NAN, 1, -0.0, 0, INFINITY, 2}, {3, 2}, KF_FLOAT32), a, y;
  CTS_ASSERT_OK(call(true, f.get(), {1}, false, a));
  EXPECT_TRUE(matches(a, Values{1, 0, 1}, {3}, KF_BOOL));
  CTS_ASSERT_OK(call(false, f.get(), {1}, false, y));
  EXPECT_TRUE(matches(y, Values{1, 0, 1}, {3}, KF_BOOL));
  Tensor t = make(Values{1, 2}, {2}, KF_INT32), r1, r2;
  const Dims bad{3}, dup{0, 0};
  EXPECT_TRUE(red::refused(call(true, t.get(), bad, false, r1), "all"));
  EXPECT_TRUE(red::refused(call(false, t.get(), dup, false, r2), "any"));
}

double count_of(const Values& g) {
  double k = 0;
  for (double x : g) k += x != 0 ? 1 : 0;
  return k;
}

kf_status_t count(kf_tensor_t t, const Dims& dims, bool keep, Tensor& r) {
  return kf_count_nonzero(t, dims.empty() ? nullptr : dims.data(),
                          static_cast<int32_t>(dims.size()), keep, r.put());
}

TEST_P(AllAny, CountNonzeroDimsStridedAndLong) {
  const Shape s{2, 3, 4};
  const Values v = sparse_zeros(dt(), 24, 51, 0.4);
  Tensor t = make(v, s);
  for (const auto& [dims, keep] : red::dim_cases()) {
    SCOPED_TRACE("count_nonzero " + red::dims_str(dims, keep));
    Tensor r;
    CTS_ASSERT_OK(count(t.get(), dims, keep, r));
    Shape os;
    EXPECT_TRUE(matches(r, red::reduce(v, s, dims, keep, &os, count_of), os, KF_INT64));
  }
  const Shape base{300, 400}, ts{400, 300};
  const Values w = sparse_zeros(dt(), 120000, 53, 0.3);
  Tensor b = make(w, base), tt, rt, whole;
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 1, tt.put()));
  CTS_ASSERT_OK(count(tt.get(), {0}, false, rt));
  Shape os;
  const Values want = red::reduce(gather_strided(w, 0, ts, {1, 400}), ts, {0}, false, &os,
                                  count_of);
  EXPECT_TRUE(matches(rt, want, os, KF_INT64));
  CTS_ASSERT_OK(count(b.get(), {}, false, whole));  // one long contiguous run
  EXPECT_TRUE(matches(whole, Values{count_of(w)}, {}, KF_INT64));
  Tensor e = make(Values{}, {0, 3}), ec;
  CTS_ASSERT_OK(count(e.get(), {0}, false, ec));
  EXPECT_TRUE(matches(ec, Values{0, 0, 0}, {3}, KF_INT64));
}

TEST_P(AllAnyAny, CountNonzeroNanComplexAndErrors) {
  Tensor f = make(Values{NAN, 1, -0.0, 0, INFINITY, 2}, {3, 2}, KF_FLOAT32), c;
  CTS_ASSERT_OK(count(f.get(), {1}, false, c));
  EXPECT_TRUE(matches(c, Values{2, 0, 2}, {3}, KF_INT64));
  const wide::ComplexValues parts{{0, 0}, {0, -1}, {2, 0}, {-0.0L, -0.0L}};
  for (kf_dtype_t d : {KF_COMPLEX64, KF_COMPLEX128}) {
    Tensor z = wide::make_complex(parts, {4}, d, dev()), zc;
    CTS_ASSERT_OK(count(z.get(), {}, false, zc));
    EXPECT_TRUE(matches(zc, Values{2}, {}, KF_INT64));
  }
  Tensor t = make(Values{1, 2}, {2}, KF_INT32), r;
  EXPECT_TRUE(red::refused(count(t.get(), Dims{3}, false, r), "count_nonzero"));
}

CTS_INSTANTIATE(AllAny, params_all());
CTS_INSTANTIATE(AllAnyAny, params_any());

}  // namespace
}  // namespace cts
