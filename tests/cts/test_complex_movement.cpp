// CTS: the complex dtypes where a backend's complex kernels are easiest to get wrong: products and
// quotients of infinities, NaNs and zeros (C99 Annex G, as std::complex<long double> computes
// them), and the ops that move complex elements without arithmetic (flip, index_select, gather,
// masked_select, nonzero, where, eye, logical_and), whose results must be exact.
#include "wide.hpp"

namespace cts {
namespace {

using wide::ComplexValues;
using wide::WideC;

class ComplexMovement : public wide::ComplexTest {
 protected:
  /// Six values of distinct parts, exact in either complex dtype.
  static ComplexValues six() {
    return {WideC(1, -1), WideC(2.5L, 0), WideC(-3, 4), WideC(0, -0.5L), WideC(7, 8),
            WideC(-0.25L, 9)};
  }
};

/// Part by part: NaN where want is NaN, the same infinity, else within a few of d's epsilons.
::testing::AssertionResult same_parts(const ComplexValues& got, const ComplexValues& want,
                                      kf_dtype_t d) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " values, expected " << want.size();
  }
  const long double tol = d == KF_COMPLEX64 ? 1e-6L : 1e-14L;
  for (size_t i = 0; i < want.size(); ++i) {
    const long double g[2] = {got[i].real(), got[i].imag()};
    const long double w[2] = {want[i].real(), want[i].imag()};
    for (int p = 0; p < 2; ++p) {
      const bool ok = std::isnan(w[p])   ? std::isnan(g[p])
                      : std::isinf(w[p]) ? g[p] == w[p]
                                         : std::fabs(g[p] - w[p]) <= tol * (1 + std::fabs(w[p]));
      if (!ok) {
        return ::testing::AssertionFailure()
               << "element " << i << ": (" << got[i].real() << ", " << got[i].imag()
               << "), expected (" << want[i].real() << ", " << want[i].imag() << ")";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

TEST_P(ComplexMovement, MulAndDivOfInfinitiesNansAndZeros) {
  CTS_REQUIRE(dt(), "mul", "div");
  const long double inf = INFINITY, nan = NAN;
  // Where the textbook formulas give NaN in both parts, Annex G gives an infinity (an infinite
  // operand or product, a nonzero over zero) or a zero (a finite over an infinite).
  const ComplexValues a = {WideC(inf, nan), WideC(nan, inf), WideC(inf, 0), WideC(1, 1),
                           WideC(inf, 1),   WideC(1, 2),     WideC(nan, 1), WideC(3, -2)};
  const ComplexValues b = {WideC(1, 1),   WideC(2, -1),       WideC(0, 1), WideC(0, 0),
                           WideC(1, 1),   WideC(inf, -inf),   WideC(0, 0), WideC(0.5L, 4)};
  Tensor x = make_c(a, {8}), y = make_c(b, {8}), r;
  ComplexValues prod(8), quot(8);
  for (size_t i = 0; i < 8; ++i) {
    prod[i] = a[i] * b[i];
    quot[i] = a[i] / b[i];
  }
  CTS_ASSERT_OK(kf_mul(x.get(), y.get(), r.put()));
  EXPECT_TRUE(same_parts(wide::host_complex(r), prod, dt()));
  CTS_ASSERT_OK(kf_div(x.get(), y.get(), r.put()));
  EXPECT_TRUE(same_parts(wide::host_complex(r), quot, dt()));
}

TEST_P(ComplexMovement, FlipIndexSelectAndGatherAreExact) {
  CTS_REQUIRE(dt(), "flip", "index_select", "gather");
  const ComplexValues v = six();  // [2, 3]
  Tensor x = make_c(v, {2, 3}), r;
  const int64_t last = 1;
  CTS_ASSERT_OK(kf_flip(x.get(), &last, 1, r.put()));
  EXPECT_EQ(wide::host_complex(r), (ComplexValues{v[2], v[1], v[0], v[5], v[4], v[3]}));
  Tensor index = make_tensor({2, 0}, {2}, KF_INT64, dev());
  CTS_ASSERT_OK(kf_index_select(x.get(), 1, index.get(), r.put()));
  EXPECT_EQ(wide::host_complex(r), (ComplexValues{v[2], v[0], v[5], v[3]}));
  Tensor where = make_tensor({0, 0, 2, 1}, {2, 2}, KF_INT64, dev());
  CTS_ASSERT_OK(kf_gather(x.get(), 1, where.get(), r.put()));
  EXPECT_EQ(wide::host_complex(r), (ComplexValues{v[0], v[0], v[5], v[4]}));
}

TEST_P(ComplexMovement, MaskedSelectNonzeroAndWhereAreExact) {
  CTS_REQUIRE(dt(), "masked_select", "nonzero", "where");
  const ComplexValues v = six();
  Tensor x = make_c(v, {6}), r;
  Tensor mask = make_tensor({1, 0, 0, 1, 1, 0}, {6}, KF_BOOL, dev());
  CTS_ASSERT_OK(kf_masked_select(x.get(), mask.get(), r.put()));
  EXPECT_EQ(wide::host_complex(r), (ComplexValues{v[0], v[3], v[4]}));
  // Nonzero when either part is; -0 in both parts is zero.
  Tensor z = make_c({WideC(0, 0), WideC(0, 1), WideC(2, 0), WideC(-0.0L, -0.0L)}, {4});
  CTS_ASSERT_OK(kf_nonzero(z.get(), r.put()));
  EXPECT_EQ(r.shape(), (Shape{2, 1}));
  EXPECT_EQ(to_host_double(r), (Values{1, 2}));
  Tensor y = make_c({v[5], v[4], v[3], v[2], v[1], v[0]}, {6});
  CTS_ASSERT_OK(kf_where(mask.get(), x.get(), y.get(), r.put()));
  EXPECT_EQ(wide::host_complex(r), (ComplexValues{v[0], v[4], v[3], v[3], v[4], v[0]}));
}

TEST_P(ComplexMovement, EyeAndLogicalAndOfEitherPart) {
  CTS_REQUIRE(dt(), "eye", "logical_and");
  Tensor r;
  CTS_ASSERT_OK(kf_eye(2, nullptr, dt(), dev(), r.put()));
  EXPECT_EQ(wide::host_complex(r), (ComplexValues{WideC(1, 0), WideC(0, 0), WideC(0, 0),
                                                  WideC(1, 0)}));
  Tensor p = make_c({WideC(0, 1), WideC(0, 0), WideC(2, 0), WideC(0, 3)}, {4});
  Tensor q = make_c({WideC(5, 0), WideC(1, 1), WideC(0, 0), WideC(0, -1)}, {4});
  CTS_ASSERT_OK(kf_logical_and(p.get(), q.get(), r.put()));
  EXPECT_EQ(to_host_double(r), (Values{1, 0, 0, 1}));
}

CTS_INSTANTIATE(ComplexMovement, params({KF_COMPLEX64, KF_COMPLEX128}));

}  // namespace
}  // namespace cts
