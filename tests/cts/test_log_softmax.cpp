// CTS: log_softmax along one dim (stable; every floating dtype; dtype= converts first; integer
// inputs need a floating dtype=).
#include "reduce_ref.hpp"

namespace cts {
namespace {

class LogSoftmax : public CtsTest {};     // backend x every floating dtype
class LogSoftmaxAny : public CtsTest {};  // backend only

Values log_softmax_of(const Values& line) {
  double m = -INFINITY;
  for (double x : line) m = std::isnan(x) ? x : std::max(m, x);
  double s = 0;
  for (double x : line) s += std::exp(x - m);
  Values out;
  for (double x : line) out.push_back(x - m - std::log(s));
  return out;
}

TEST_P(LogSoftmax, EachDim) {
  const Shape s{3, 4, 5};
  const Values v = red::input(dt(), 60, 61);
  Tensor t = make(v, s);
  for (int64_t d : {0, 1, 2, -1, -2}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    Tensor r;
    CTS_ASSERT_OK(kf_log_softmax(t.get(), d, KF_DTYPE_UNDEFINED, r.put()));
    EXPECT_TRUE(matches(r, red::map_lines(v, s, d, log_softmax_of), s, dt(), 8));
  }
}

TEST_P(LogSoftmax, LargeStridedAndStable) {
  // Values near 1000 (exp overflows without the shift): long rows (split over threads), many
  // rows, adjacent rows (the column schedule) and a transposed input.
  Values v = pseudo_random(1 << 18, 990, 1000, 67);
  for (double& x : v) x = round_to(dt(), x);
  const Shape row{1, 1 << 18}, sq{512, 512};
  Tensor t = make(v, row), r, m, r0, r1, tt, rt;
  CTS_ASSERT_OK(kf_log_softmax(t.get(), 1, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, red::map_lines(v, row, 1, log_softmax_of), row, dt(), 8));
  CTS_ASSERT_OK(kf_reshape(t.get(), sq.data(), 2, m.put()));
  CTS_ASSERT_OK(kf_log_softmax(m.get(), 0, KF_DTYPE_UNDEFINED, r0.put()));
  EXPECT_TRUE(matches(r0, red::map_lines(v, sq, 0, log_softmax_of), sq, dt(), 8));
  CTS_ASSERT_OK(kf_log_softmax(m.get(), 1, KF_DTYPE_UNDEFINED, r1.put()));
  EXPECT_TRUE(matches(r1, red::map_lines(v, sq, 1, log_softmax_of), sq, dt(), 8));
  CTS_ASSERT_OK(kf_transpose(m.get(), 0, 1, tt.put()));
  const Values tv = gather_strided(v, 0, sq, {1, 512});
  CTS_ASSERT_OK(kf_log_softmax(tt.get(), 1, KF_DTYPE_UNDEFINED, rt.put()));
  EXPECT_TRUE(matches(rt, red::map_lines(tv, sq, 1, log_softmax_of), sq, dt(), 8));
}

TEST_P(LogSoftmax, LongRowsWithMaskedStretches) {
  CTS_REQUIRE(dt(), "log_softmax");
  const Shape sh{6, 3000};
  const Values v = red::masked_long_rows(dt(), 3000, 68);
  Tensor t = make(v, sh), r;
  CTS_ASSERT_OK(kf_log_softmax(t.get(), 1, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(matches(r, red::map_lines(v, sh, 1, log_softmax_of), sh, dt(), 8));
}

TEST_P(LogSoftmax, SpecialValuesAndShapes) {
  // Rows: -inf beside finite; NaN; +inf; all -inf.
  const double ninf = -INFINITY, inf = INFINITY;
  Tensor t = make(Values{ninf, 0, 1, 2, NAN, 3, inf, 1, 1, ninf, ninf, ninf}, {4, 3}), r;
  CTS_ASSERT_OK(kf_log_softmax(t.get(), 1, KF_DTYPE_UNDEFINED, r.put()));
  const Values a = log_softmax_of({0, 1});
  EXPECT_TRUE(matches(r, Values{ninf, a[0], a[1], NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN},
                      {4, 3}, dt(), 4));
  Tensor z = make(Values{3}, {}), zr, e = make(Values{}, {0, 4}), er,
         s1 = make(Values{5, 6}, {2, 1}), sr;
  CTS_ASSERT_OK(kf_log_softmax(z.get(), 0, KF_DTYPE_UNDEFINED, zr.put()));
  EXPECT_TRUE(matches(zr, Values{0}, {}, dt()));
  CTS_ASSERT_OK(kf_log_softmax(e.get(), 1, KF_DTYPE_UNDEFINED, er.put()));
  EXPECT_TRUE(matches(er, Values{}, {0, 4}, dt()));
  CTS_ASSERT_OK(kf_log_softmax(s1.get(), -1, KF_DTYPE_UNDEFINED, sr.put()));
  EXPECT_TRUE(matches(sr, Values{0, 0}, {2, 1}, dt()));
}

TEST_P(LogSoftmax, DtypeArgument) {
  const Values v = red::input(dt(), 12, 71);
  Tensor t = make(v, {3, 4}), r;
  CTS_ASSERT_OK(kf_log_softmax(t.get(), 1, KF_FLOAT64, r.put()));
  EXPECT_TRUE(matches(r, red::map_lines(v, {3, 4}, 1, log_softmax_of), {3, 4}, KF_FLOAT64));
}

TEST_P(LogSoftmaxAny, IntegerInputsAndErrors) {
  Tensor i = make(Values{1, 2, 3, 4}, {2, 2}, KF_INT32), r, bad, bad2, bad3;
  CTS_ASSERT_OK(kf_log_softmax(i.get(), 1, KF_FLOAT32, r.put()));
  const Values a = log_softmax_of({1, 2});
  EXPECT_TRUE(matches(r, Values{a[0], a[1], a[0], a[1]}, {2, 2}, KF_FLOAT32));
  EXPECT_TRUE(
      red::refused(kf_log_softmax(i.get(), 1, KF_DTYPE_UNDEFINED, bad.put()), "log_softmax"));
  EXPECT_TRUE(red::refused(kf_log_softmax(i.get(), 1, KF_INT64, bad2.put()), "log_softmax"));
  EXPECT_TRUE(red::refused(kf_log_softmax(i.get(), 2, KF_FLOAT32, bad3.put()), "log_softmax"));
}

CTS_INSTANTIATE(LogSoftmax, params_all_float());
CTS_INSTANTIATE(LogSoftmaxAny, params_any());

}  // namespace
}  // namespace cts
