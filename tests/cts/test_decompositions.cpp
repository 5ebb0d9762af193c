// CTS: the decompositions and solvers (linalg_cholesky, linalg_inv, linalg_solve, linalg_det,
// linalg_slogdet, linalg_eigh, linalg_eigvalsh, linalg_eig, linalg_eigvals, linalg_qr,
// linalg_svd, linalg_svdvals, linalg_lstsq) and the diagonal view, in float32 and float64 on
// every backend (elsewhere than cpu through the CPU fallback). Results are checked by their
// identities in double (A X = B, Q R = A, U S Vh = A) and on matrices with known answers;
// failures must name the batch index.
#include <cmath>

#include "cts_util.hpp"

namespace cts {
namespace {

class Decompositions : public CtsTest {
 protected:
  /** The tolerance scale of an identity checked in double on this dtype's results (float64's
   *  tolerance is 1e-12 times it): LAPACK's backward error is a small multiple of epsilon. */
  double identity_scale() const { return dt() == KF_FLOAT32 ? 1e7 : 1e3; }
};

/** C[m,n] = A[m,k] B[k,n] of row-major batches (count of each), in double. */
Values ref_bmm(const Values& a, const Values& b, int64_t count, int64_t m, int64_t k, int64_t n) {
  Values c(static_cast<size_t>(count * m * n), 0.0);
  for (int64_t t = 0; t < count; ++t)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p)
          s += a[static_cast<size_t>(t * m * k + i * k + p)] *
               b[static_cast<size_t>(t * k * n + p * n + j)];
        c[static_cast<size_t>(t * m * n + i * n + j)] = s;
      }
  return c;
}

/** count n x n matrices in [-1, 1] plus n on the diagonal (far from singular). */
Values well_conditioned(int64_t count, int64_t n, uint32_t seed) {
  Values a = pseudo_random(static_cast<size_t>(count * n * n), -1, 1, seed);
  for (int64_t t = 0; t < count; ++t)
    for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(t * n * n + i * n + i)] += double(n);
  return a;
}

Values identities(int64_t count, int64_t n) {
  Values e(static_cast<size_t>(count * n * n), 0.0);
  for (int64_t t = 0; t < count; ++t)
    for (int64_t i = 0; i < n; ++i) e[static_cast<size_t>(t * n * n + i * n + i)] = 1.0;
  return e;
}

TEST_P(Decompositions, SolveAndInvAreTheirIdentities) {
  CTS_REQUIRE(dt(), "linalg_solve", "linalg_inv");
  const Values a = in(well_conditioned(3, 4, 1)), b = in(pseudo_random(3 * 4 * 2, -1, 1, 2));
  Tensor ta = make(a, {3, 4, 4}), tb = make(b, {3, 4, 2}), x, inv;
  CTS_ASSERT_OK(kf_linalg_solve(ta.get(), tb.get(), x.put()));
  EXPECT_TRUE(matches(make_tensor(ref_bmm(a, to_host_double(x), 3, 4, 4, 2), {3, 4, 2}, KF_FLOAT64,
                                  dev()), b, {3, 4, 2}, KF_FLOAT64, identity_scale()));
  CTS_ASSERT_OK(kf_linalg_inv(ta.get(), inv.put()));
  const Values product = ref_bmm(a, to_host_double(inv), 3, 4, 4, 4);
  const Tensor tp = make_tensor(product, {3, 4, 4}, KF_FLOAT64, dev());
  EXPECT_TRUE(matches(tp, identities(3, 4), {3, 4, 4}, KF_FLOAT64, identity_scale()));
}

TEST_P(Decompositions, SolveBroadcastsBatchesAndTakesAVector) {
  CTS_REQUIRE(dt(), "linalg_solve");
  const Values a = in(Values{2, 0, 0, 4, 1, 0, 0, 1});  // [2, 1, 2, 2]: diag(2, 4), I
  Tensor ta = make(a, {2, 1, 2, 2}), tb = make(in(Values{2, 4, 6, 8, 10, 12}), {3, 2, 1}), x;
  CTS_ASSERT_OK(kf_linalg_solve(ta.get(), tb.get(), x.put()));
  EXPECT_TRUE(matches(x, Values{1, 1, 3, 2, 5, 3, 2, 4, 6, 8, 10, 12}, {2, 3, 2, 1}, dt()));
  Tensor v = make(in(Values{2, 4}), {2}), xv;
  CTS_ASSERT_OK(kf_linalg_solve(ta.get(), v.get(), xv.put()));
  EXPECT_TRUE(matches(xv, Values{1, 1, 2, 4}, {2, 1, 2}, dt()));
}

TEST_P(Decompositions, DetAndSlogdetOfKnownMatrices) {
  CTS_REQUIRE(dt(), "linalg_det", "linalg_slogdet");
  // det 18, det -1 (a swap), det 0 (singular).
  Tensor a = make(in(Values{4, 1, 0, 1, 3, 1, 0, 1, 2, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 2, 3, 2, 4,
                            6, 0, 0, 1}), {3, 3, 3});
  Tensor det, sign, logabs;
  CTS_ASSERT_OK(kf_linalg_det(a.get(), det.put()));
  EXPECT_TRUE(matches(det, Values{18, -1, 0}, {3}, dt(), 20));
  CTS_ASSERT_OK(kf_linalg_slogdet(a.get(), sign.put(), logabs.put()));
  EXPECT_TRUE(matches(sign, Values{1, -1, 0}, {3}, dt()));
  const Values l = to_host_double(logabs);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_NEAR(l[0], std::log(18.0), 1e-5);
  EXPECT_NEAR(l[1], 0.0, 1e-6);
  EXPECT_TRUE(std::isinf(l[2]) && l[2] < 0);
  Tensor empty = make(Values{}, {0, 0}), d0;
  CTS_ASSERT_OK(kf_linalg_det(empty.get(), d0.put()));
  EXPECT_TRUE(matches(d0, Values{1}, {}, dt()));
}

TEST_P(Decompositions, CholeskyLowerAndUpper) {
  CTS_REQUIRE(dt(), "linalg_cholesky");
  Tensor a = make(in(Values{4, 2, 2, 3}), {2, 2}), l, u;
  CTS_ASSERT_OK(kf_linalg_cholesky(a.get(), false, l.put()));
  EXPECT_TRUE(matches(l, Values{2, 0, 1, std::sqrt(2.0)}, {2, 2}, dt(), 4));
  CTS_ASSERT_OK(kf_linalg_cholesky(a.get(), true, u.put()));
  EXPECT_TRUE(matches(u, Values{2, 1, 0, std::sqrt(2.0)}, {2, 2}, dt(), 4));
}

TEST_P(Decompositions, FailuresNameTheBatchIndex) {
  CTS_REQUIRE(dt(), "linalg_cholesky", "linalg_inv");
  Tensor not_pd = make(in(Values{1, 0, 0, 1, 1, 0, 0, -1}), {2, 2, 2}), out;
  expect_invalid_argument(kf_linalg_cholesky(not_pd.get(), false, out.put()),
                          {"linalg_cholesky", "batch index 1", "leading minor of order 2"});
  Tensor singular = make(in(Values{1, 0, 0, 1, 1, 1, 1, 1}), {2, 2, 2});
  expect_invalid_argument(kf_linalg_inv(singular.get(), out.put()),
                          {"linalg_inv", "batch index 1", "singular"});
  Tensor ints;
  CTS_ASSERT_OK(kf_to_dtype(singular.get(), KF_INT32, ints.put()));
  expect_invalid_argument(kf_linalg_inv(ints.get(), out.put()),
                          {"int32 input is not supported", "float32, float64"});
}

TEST_P(Decompositions, EighOfAKnownMatrix) {
  CTS_REQUIRE(dt(), "linalg_eigh", "linalg_eigvalsh");
  // Only the lower triangle is read: the 9 above the diagonal is ignored.
  Tensor a = make(in(Values{2, 9, 1, 2}), {2, 2}), w, v, w2;
  CTS_ASSERT_OK(kf_linalg_eigh(a.get(), w.put(), v.put()));
  EXPECT_TRUE(matches(w, Values{1, 3}, {2}, dt(), 4));
  const Values vv = to_host_double(v);  // columns: (1, -1)/sqrt2 and (1, 1)/sqrt2, up to sign
  EXPECT_NEAR(std::fabs(vv[0]), std::sqrt(0.5), 1e-5);
  EXPECT_NEAR(vv[0] + vv[2], 0.0, 1e-5);
  EXPECT_NEAR(vv[1] - vv[3], 0.0, 1e-5);
  CTS_ASSERT_OK(kf_linalg_eigvalsh(a.get(), w2.put()));
  EXPECT_TRUE(matches(w2, Values{1, 3}, {2}, dt(), 4));
}

TEST_P(Decompositions, EigOfARotationIsComplex) {
  CTS_REQUIRE(dt(), "linalg_eig", "linalg_eigvals");
  Tensor a = make(in(Values{0, -1, 1, 0}), {2, 2}), w, v, w2;
  CTS_ASSERT_OK(kf_linalg_eig(a.get(), w.put(), v.put()));
  EXPECT_EQ(w.dtype(), dt() == KF_FLOAT32 ? KF_COMPLEX64 : KF_COMPLEX128);
  Tensor im;
  CTS_ASSERT_OK(kf_imag(w.get(), im.put()));
  const Values parts = to_host_double(im);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_NEAR(std::fabs(parts[0]), 1.0, 1e-5);
  EXPECT_NEAR(parts[0] + parts[1], 0.0, 1e-5);
  CTS_ASSERT_OK(kf_linalg_eigvals(a.get(), w2.put()));
  EXPECT_EQ(w2.dtype(), w.dtype());
}

TEST_P(Decompositions, SvdReconstructsAndQrReconstructs) {
  CTS_REQUIRE(dt(), "linalg_svd", "linalg_svdvals", "linalg_qr");
  Tensor diag = make(in(Values{3, 0, 0, -2}), {2, 2}), s;
  CTS_ASSERT_OK(kf_linalg_svdvals(diag.get(), s.put()));
  EXPECT_TRUE(matches(s, Values{3, 2}, {2}, dt(), 4));
  const Values a = in(pseudo_random(4 * 3, -1, 1, 7));
  Tensor ta = make(a, {4, 3}), u, sv, vh, q, r;
  CTS_ASSERT_OK(kf_linalg_svd(ta.get(), false, u.put(), sv.put(), vh.put()));
  Values us = to_host_double(u);
  const Values sd = to_host_double(sv);
  for (size_t i = 0; i < us.size(); ++i) us[i] *= sd[i % 3];
  const Values back = ref_bmm(us, to_host_double(vh), 1, 4, 3, 3);
  EXPECT_TRUE(matches(make_tensor(back, {4, 3}, KF_FLOAT64, dev()), a, {4, 3}, KF_FLOAT64,
                      identity_scale()));
  CTS_ASSERT_OK(kf_linalg_qr(ta.get(), false, q.put(), r.put()));
  EXPECT_EQ(q.shape(), (Shape{4, 3}));
  const Values qr = ref_bmm(to_host_double(q), to_host_double(r), 1, 4, 3, 3);
  EXPECT_TRUE(matches(make_tensor(qr, {4, 3}, KF_FLOAT64, dev()), a, {4, 3}, KF_FLOAT64,
                      identity_scale()));
}

TEST_P(Decompositions, LstsqFitsALine) {
  CTS_REQUIRE(dt(), "linalg_lstsq");
  // y = 1 + 2 x at x = 0..3: the columns 1 and x.
  Tensor a = make(in(Values{1, 0, 1, 1, 1, 2, 1, 3}), {4, 2}), y = make(in(Values{1, 3, 5, 7}), {4});
  Tensor x, res, rank, sv;
  CTS_ASSERT_OK(kf_linalg_lstsq(a.get(), y.get(), nullptr, x.put(), res.put(), rank.put(),
                                sv.put()));
  EXPECT_TRUE(matches(x, Values{1, 2}, {2}, dt(), 50));
  EXPECT_EQ(to_host_double(rank), (Values{2}));
  EXPECT_EQ(res.shape(), (Shape{1}));
  EXPECT_LT(std::fabs(to_host_double(res)[0]), 1e-3);
  EXPECT_EQ(sv.shape(), (Shape{2}));
}

TEST_P(Decompositions, DiagonalIsAView) {
  CTS_REQUIRE(dt(), "diagonal");
  Tensor a = make(in(counting(6, dt())), {2, 3}), d, dn;
  CTS_ASSERT_OK(kf_diagonal(a.get(), 1, 0, 1, d.put()));
  EXPECT_TRUE(matches(d, Values{2, 6}, {2}, dt()));
  CTS_ASSERT_OK(kf_diagonal(a.get(), -1, 0, 1, dn.put()));
  EXPECT_TRUE(matches(dn, Values{4}, {1}, dt()));
  Tensor far;
  CTS_ASSERT_OK(kf_diagonal(a.get(), 5, 0, 1, far.put()));
  EXPECT_EQ(far.shape(), (Shape{0}));
  Tensor bad;
  expect_invalid_argument(kf_diagonal(a.get(), 0, 1, -1, bad.put()), {"diagonal", "dim1 and dim2"});
}

CTS_INSTANTIATE(Decompositions, params_float());

}  // namespace
}  // namespace cts
