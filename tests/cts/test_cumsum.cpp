// CTS: cumsum along one dim (negative dims, 0-dim inputs; bool and integers give int64 unless
// dtype= is given; integer sums wrap in the result's width).
#include "reduce_ref.hpp"

namespace cts {
namespace {

class Cumsum : public CtsTest {};     // backend x every dtype
class CumsumAny : public CtsTest {};  // backend only

kf_dtype_t cum_dtype(kf_dtype_t d) { return is_float(d) ? d : integer_accumulation(d); }

Values cum_of(const Values& line) {
  Values out;
  double acc = 0;
  for (double x : line) out.push_back(acc += x);
  return out;
}

TEST_P(Cumsum, EachDim) {
  const Shape s{3, 4, 5};
  const Values v = red::input(dt(), 60, 51);
  Tensor t = make(v, s);
  for (int64_t d : {0, 1, 2, -1, -3}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    Tensor r;
    CTS_ASSERT_OK(kf_cumsum(t.get(), d, KF_DTYPE_UNDEFINED, r.put()));
    EXPECT_TRUE(matches(r, red::map_lines(v, s, d, cum_of), s, cum_dtype(dt()), 8));
  }
}

TEST_P(Cumsum, StridedOutDtypeAndLarge) {
  // [300, 200] transposed to [200, 300]: lines along both dims, strided and adjacent.
  const Shape base{300, 200}, ts{200, 300};
  const Values v = red::input(dt(), 60000, 53);
  Tensor t = make(v, base), tt;
  CTS_ASSERT_OK(kf_transpose(t.get(), 0, 1, tt.put()));
  const Values tv = gather_strided(v, 0, ts, {1, 200});
  for (int64_t d : {0, 1}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    Tensor r, out, f64;
    CTS_ASSERT_OK(kf_cumsum(tt.get(), d, KF_DTYPE_UNDEFINED, r.put()));
    const Values want = red::map_lines(tv, ts, d, cum_of);
    EXPECT_TRUE(matches(r, want, ts, cum_dtype(dt()), 64));
    CTS_ASSERT_OK(kf_empty(ts.data(), 2, cum_dtype(dt()), dev(), out.put()));
    CTS_ASSERT_OK(kf_cumsum_out(tt.get(), d, KF_DTYPE_UNDEFINED, out.get()));
    EXPECT_TRUE(matches(out, want, ts, cum_dtype(dt()), 64));
    CTS_ASSERT_OK(kf_cumsum(tt.get(), d, KF_FLOAT64, f64.put()));
    EXPECT_TRUE(matches(f64, want, ts, KF_FLOAT64));
  }
  // Contiguous rows and columns of the base tensor too.
  for (int64_t d : {0, 1}) {
    Tensor r;
    CTS_ASSERT_OK(kf_cumsum(t.get(), d, KF_DTYPE_UNDEFINED, r.put()));
    EXPECT_TRUE(matches(r, red::map_lines(v, base, d, cum_of), base, cum_dtype(dt()), 64));
  }
}

TEST_P(Cumsum, EmptyAndZeroDim) {
  Tensor e = make(Values{}, {0, 3}), r0, r1, z = make(Values{1}, {}), zr, zr2;
  CTS_ASSERT_OK(kf_cumsum(e.get(), 0, KF_DTYPE_UNDEFINED, r0.put()));
  EXPECT_TRUE(matches(r0, Values{}, {0, 3}, cum_dtype(dt())));
  CTS_ASSERT_OK(kf_cumsum(e.get(), -1, KF_DTYPE_UNDEFINED, r1.put()));
  EXPECT_TRUE(matches(r1, Values{}, {0, 3}, cum_dtype(dt())));
  CTS_ASSERT_OK(kf_cumsum(z.get(), 0, KF_DTYPE_UNDEFINED, zr.put()));
  EXPECT_TRUE(matches(zr, Values{1}, {}, cum_dtype(dt())));
  CTS_ASSERT_OK(kf_cumsum(z.get(), -1, KF_DTYPE_UNDEFINED, zr2.put()));
  EXPECT_TRUE(matches(zr2, Values{1}, {}, cum_dtype(dt())));
}

TEST_P(CumsumAny, IntegerOverflowAndDtypes) {
  // int8 gives int64 (no wrap); with dtype=int8 the sums wrap; int64 wraps.
  Tensor i8 = make(Values{100, 100, 100, -128}, {4}, KF_INT8), r, w;
  CTS_ASSERT_OK(kf_cumsum(i8.get(), 0, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{100, 200, 300, 172}, {4}, KF_INT64));
  CTS_ASSERT_OK(kf_cumsum(i8.get(), 0, KF_INT8, w.put()));
  EXPECT_TRUE(matches(w, Values{100, -56, 44, -84}, {4}, KF_INT8));
  Tensor u8 = make(Values{200, 100}, {2}, KF_UINT8), wu;
  CTS_ASSERT_OK(kf_cumsum(u8.get(), 0, KF_UINT8, wu.put()));
  EXPECT_TRUE(matches(wu, Values{200, 44}, {2}, KF_UINT8));
  Tensor i64 = make(Values{9223372036854775807.0, 1}, {2}, KF_INT64), w64;
  CTS_ASSERT_OK(kf_cumsum(i64.get(), 0, KF_DTYPE_UNDEFINED, w64.put()));
  const Values got = to_host_double(w64);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1], -9223372036854775808.0);
  Tensor b = make(Values{1, 0, 1, 1}, {2, 2}, KF_BOOL), rb, rf;
  CTS_ASSERT_OK(kf_cumsum(b.get(), 1, KF_DTYPE_UNDEFINED, rb.put()));
  EXPECT_TRUE(matches(rb, Values{1, 1, 1, 2}, {2, 2}, KF_INT64));
  CTS_ASSERT_OK(kf_cumsum(b.get(), 0, KF_FLOAT32, rf.put()));
  EXPECT_TRUE(matches(rf, Values{1, 0, 2, 1}, {2, 2}, KF_FLOAT32));
}

TEST_P(CumsumAny, OutIsSelf) {
  // out= the input itself (exact alias): each element is read before it is written.
  for (int64_t d : {0, 1}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    const Values v = pseudo_random(60, -50, 50, 57, true);
    Tensor t = make(v, {6, 10}, KF_INT64);
    CTS_ASSERT_OK(kf_cumsum_out(t.get(), d, KF_DTYPE_UNDEFINED, t.get()));
    EXPECT_TRUE(matches(t, red::map_lines(v, {6, 10}, d, cum_of), {6, 10}, KF_INT64));
  }
  Values big = pseudo_random(1 << 16, -2, 2, 59);
  for (double& x : big) x = round_to(KF_FLOAT32, x);
  Tensor f = make(big, {256, 256}, KF_FLOAT32);
  CTS_ASSERT_OK(kf_cumsum_out(f.get(), 0, KF_DTYPE_UNDEFINED, f.get()));
  EXPECT_TRUE(matches(f, red::map_lines(big, {256, 256}, 0, cum_of), {256, 256}, KF_FLOAT32, 64));
}

TEST_P(CumsumAny, NanInfAndErrors) {
  Tensor f = make(Values{1, NAN, 2, INFINITY, -INFINITY, 3}, {2, 3}, KF_FLOAT32), r;
  CTS_ASSERT_OK(kf_cumsum(f.get(), 1, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, Values{1, NAN, NAN, INFINITY, NAN, NAN}, {2, 3}, KF_FLOAT32));
  Tensor r2, r3;
  EXPECT_TRUE(red::refused(kf_cumsum(f.get(), 2, KF_DTYPE_UNDEFINED, r2.put()), "cumsum"));
  EXPECT_TRUE(red::refused(kf_cumsum(f.get(), -3, KF_DTYPE_UNDEFINED, r3.put()), "cumsum"));
}

CTS_INSTANTIATE(Cumsum, params_all());
CTS_INSTANTIATE(CumsumAny, params_any());

}  // namespace
}  // namespace cts
