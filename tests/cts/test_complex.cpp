// CTS: the complex dtypes of C ABI 2.0 (complex64, complex128): arithmetic, abs (real), the
// transcendental functions, reductions, cumulative sums and products, matrix products (the
// engine's cgemm/zgemm on the CPU), conversions to and from real dtypes, complex fill values and
// the promotion of complex with float. References in std::complex<long double> (wide.hpp); a
// backend without complex kernels runs them on the CPU fallback (CTS_REQUIRE says when neither
// serves).
#include "wide.hpp"

namespace cts {
namespace {

using wide::ComplexValues;
using wide::Wide;
using wide::WideC;
using wide::close_complex;

class Complex : public wide::ComplexTest {
 protected:
  ComplexValues input(size_t n, uint32_t seed, double lo = -2, double hi = 2) const {
    return wide::stored(wide::pseudo_complex(n, lo, hi, seed), dt());
  }
};

TEST_P(Complex, Arithmetic) {
  CTS_REQUIRE(dt(), "add", "sub", "mul", "div");
  const ComplexValues a = input(12, 1), b = input(12, 2);
  Tensor x = make_c(a, {3, 4}), y = make_c(b, {3, 4}), r;
  ComplexValues sum(12), diff(12), prod(12), quot(12);
  for (size_t i = 0; i < 12; ++i) {
    sum[i] = a[i] + b[i];
    diff[i] = a[i] - b[i];
    prod[i] = a[i] * b[i];
    quot[i] = a[i] / b[i];
  }
  CTS_ASSERT_OK(kf_add(x.get(), y.get(), one(), r.put()));
  EXPECT_TRUE(close_complex(r, sum, dt()));
  CTS_ASSERT_OK(kf_sub(x.get(), y.get(), one(), r.put()));
  EXPECT_TRUE(close_complex(r, diff, dt()));
  CTS_ASSERT_OK(kf_mul(x.get(), y.get(), r.put()));
  EXPECT_TRUE(close_complex(r, prod, dt(), 4));
  CTS_ASSERT_OK(kf_div(x.get(), y.get(), r.put()));
  EXPECT_TRUE(close_complex(r, quot, dt(), 8));
  // alpha as a complex scalar: x + (0.5 - 2i) * y
  const WideC alpha(0.5L, -2.0L);
  ComplexValues axpy(12);
  for (size_t i = 0; i < 12; ++i) axpy[i] = a[i] + alpha * b[i];
  CTS_ASSERT_OK(kf_add(x.get(), y.get(), kf_scalar_c128(0.5, -2.0), r.put()));
  EXPECT_TRUE(close_complex(r, axpy, dt(), 8));
}

TEST_P(Complex, NegExpLogSqrtTanh) {
  const ComplexValues a = input(16, 3);
  Tensor x = make_c(a, {16}), r;
  struct Case {
    const char* op;
    kf_status_t (*fn)(kf_tensor_t, kf_tensor_t*);
    WideC (*ref)(const WideC&);
  } cases[] = {
      {"neg", kf_neg, [](const WideC& z) { return -z; }},
      {"exp", kf_exp, [](const WideC& z) { return std::exp(z); }},
      {"log", kf_log, [](const WideC& z) { return std::log(z); }},
      {"sqrt", kf_sqrt, [](const WideC& z) { return std::sqrt(z); }},
      {"tanh", kf_tanh, [](const WideC& z) { return std::tanh(z); }},
  };
  for (const Case& c : cases) {
    CTS_REQUIRE_IN_LOOP(dt(), c.op);
    SCOPED_TRACE(c.op);
    ComplexValues want(a.size());
    for (size_t i = 0; i < a.size(); ++i) want[i] = c.ref(a[i]);
    CTS_ASSERT_OK(c.fn(x.get(), r.put()));
    EXPECT_TRUE(close_complex(r, want, dt(), 16));
  }
}

TEST_P(Complex, AbsIsRealInThePartsDtype) {
  // |z| of a complex dtype is its parts' real dtype (float32 for complex64): the standard and
  // numpy. An infinite part gives +inf even beside a NaN; a NaN with finite parts gives NaN.
  CTS_REQUIRE(dt(), "abs");
  const double inf = INFINITY, nan = NAN;
  ComplexValues a = input(10, 9, -3, 3);
  a.push_back(WideC(3, -4));
  a.push_back(WideC(-inf, nan));
  a.push_back(WideC(nan, inf));
  a.push_back(WideC(nan, 1));
  a.push_back(WideC(0, -0.0L));
  Tensor x = make_c(a, {static_cast<int64_t>(a.size())}), r;
  CTS_ASSERT_OK(kf_abs(x.get(), r.put()));
  const kf_dtype_t real = kf_dtype_size(dt()) == 8 ? KF_FLOAT32 : KF_FLOAT64;
  ASSERT_EQ(r.dtype(), real);
  const Values got = to_host_double(r);
  ASSERT_EQ(got.size(), a.size());
  const Wide tol = wide::complex_tol(dt(), 2);
  for (size_t i = 0; i < a.size(); ++i) {
    const Wide want = std::abs(a[i]);
    if (std::isinf(a[i].real()) || std::isinf(a[i].imag())) {
      EXPECT_EQ(got[i], inf) << i;
    } else if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got[i])) << i << ": " << got[i];
    } else {
      EXPECT_LE(std::fabs(static_cast<Wide>(got[i]) - want), tol * (want > 1 ? want : 1)) << i;
    }
  }
  // In place, the magnitude goes back into the complex tensor with a zero imaginary part.
  CTS_ASSERT_OK(kf_abs_(x.get()));
  const ComplexValues back = wide::host_complex(x);
  EXPECT_EQ(static_cast<double>(back[10].real()), 5.0);
  EXPECT_EQ(static_cast<double>(back[10].imag()), 0.0);
}

TEST_P(Complex, EqualityOnly) {
  CTS_REQUIRE(dt(), "eq", "ne");
  ComplexValues a = input(6, 4), b = a;
  b[1] = WideC(b[1].real(), b[1].imag() + 1);  // differs in the imaginary part only
  b[4] = WideC(b[4].real() + 1, b[4].imag());
  Tensor x = make_c(a, {6}), y = make_c(b, {6}), r;
  CTS_ASSERT_OK(kf_eq(x.get(), y.get(), r.put()));
  const std::vector<unsigned char> eq = wide::host_bytes(r);
  const std::vector<unsigned char> want_eq = {1, 0, 1, 1, 0, 1};
  EXPECT_EQ(eq, want_eq);
  CTS_ASSERT_OK(kf_ne(x.get(), y.get(), r.put()));
  const std::vector<unsigned char> ne = wide::host_bytes(r);
  const std::vector<unsigned char> want_ne = {0, 1, 0, 0, 1, 0};
  EXPECT_EQ(ne, want_ne);
  // Complex numbers have no order: lt is refused, naming the dtype.
  EXPECT_NE(kf_lt(x.get(), y.get(), r.put()), KF_OK);
  EXPECT_NE(std::string(kf_last_error_message()).find(kf_dtype_name(dt())), std::string::npos)
      << kf_last_error_message();
}

TEST_P(Complex, SumProdMean) {
  CTS_REQUIRE(dt(), "sum", "prod", "mean");
  const ComplexValues a = input(24, 5, -1.2, 1.2);
  Tensor x = make_c(a, {4, 6}), r;
  ComplexValues rows(4, WideC(0)), prods(4, WideC(1));
  WideC total(0);
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = 0; j < 6; ++j) {
      rows[i] += a[i * 6 + j];
      prods[i] *= a[i * 6 + j];
      total += a[i * 6 + j];
    }
  }
  const int64_t dim1[1] = {1};
  CTS_ASSERT_OK(kf_sum(x.get(), dim1, 1, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(close_complex(r, rows, dt(), 8));
  CTS_ASSERT_OK(kf_prod(x.get(), dim1, 1, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(close_complex(r, prods, dt(), 16));
  CTS_ASSERT_OK(kf_mean(x.get(), nullptr, 0, false, KF_DTYPE_UNDEFINED, r.put()));
  EXPECT_TRUE(close_complex(r, {total / WideC(24)}, dt(), 16));
}

TEST_P(Complex, CumsumCumprodEachDim) {
  // [5, 12]: along dim 0 the twelve lines lie side by side (one pass over the rows), along
  // dim 1 each line is a row.
  CTS_REQUIRE(dt(), "cumsum", "cumprod");
  const ComplexValues a = input(60, 7, -1.2, 1.2);
  Tensor x = make_c(a, {5, 12}), r;
  for (int64_t d : {0, 1, -1}) {
    SCOPED_TRACE("dim " + std::to_string(d));
    const size_t along = d == 0 ? 5 : 12, across = d == 0 ? 12 : 5;
    const size_t step = d == 0 ? 12 : 1, line_step = d == 0 ? 1 : 12;
    ComplexValues sums(60), prods(60);
    for (size_t l = 0; l < across; ++l) {
      WideC sum(0), prod(1);
      for (size_t k = 0; k < along; ++k) {
        const size_t i = l * line_step + k * step;
        sums[i] = sum += a[i];
        prods[i] = prod *= a[i];
      }
    }
    CTS_ASSERT_OK(kf_cumsum(x.get(), d, KF_DTYPE_UNDEFINED, r.put()));
    EXPECT_TRUE(close_complex(r, sums, dt(), 16));
    CTS_ASSERT_OK(kf_cumprod(x.get(), d, KF_DTYPE_UNDEFINED, r.put()));
    EXPECT_TRUE(close_complex(r, prods, dt(), 32));
  }
}

TEST_P(Complex, MatrixProduct) {
  CTS_REQUIRE(dt(), "mm");
  const int64_t m = 5, k = 7, n = 3;
  const ComplexValues a = input(m * k, 6), b = input(k * n, 7);
  Tensor x = make_c(a, {m, k}), y = make_c(b, {k, n}), r, xt, yt;
  ComplexValues want(m * n, WideC(0));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t p = 0; p < k; ++p) want[i * n + j] += a[i * k + p] * b[p * n + j];
    }
  }
  CTS_ASSERT_OK(kf_mm(x.get(), y.get(), r.put()));
  EXPECT_TRUE(close_complex(r, want, dt(), 4.0 * k));
  // The same product through transposed views (the engine's transposed operands).
  const int64_t perm[2] = {1, 0};
  ComplexValues a_t(a.size()), b_t(b.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) a_t[p * m + i] = a[i * k + p];
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j) b_t[j * k + p] = b[p * n + j];
  Tensor at = make_c(a_t, {k, m}), bt = make_c(b_t, {n, k});
  CTS_ASSERT_OK(kf_permute(at.get(), perm, 2, xt.put()));
  CTS_ASSERT_OK(kf_permute(bt.get(), perm, 2, yt.put()));
  CTS_ASSERT_OK(kf_mm(xt.get(), yt.get(), r.put()));
  EXPECT_TRUE(close_complex(r, want, dt(), 4.0 * k));
  // A contiguous copy of the transposed view holds a's elements again (a raw copy of complex
  // elements, 16 bytes each for complex128).
  Tensor c;
  CTS_ASSERT_OK(kf_contiguous(xt.get(), c.put()));
  EXPECT_TRUE(close_complex(c, a, dt()));
}

TEST_P(Complex, ConversionsWithRealDtypes) {
  CTS_REQUIRE(dt(), "to_dtype");
  const ComplexValues a = input(6, 8);
  Tensor x = make_c(a, {6}), f, back;
  // To float64: the real part (numpy and PyTorch drop the imaginary part).
  CTS_ASSERT_OK(kf_to_dtype(x.get(), KF_FLOAT64, f.put()));
  Values re(6);
  for (size_t i = 0; i < 6; ++i) re[i] = static_cast<double>(a[i].real());
  EXPECT_TRUE(matches(f, re, {6}, KF_FLOAT64));
  // From float64: an imaginary part of zero.
  CTS_ASSERT_OK(kf_to_dtype(f.get(), dt(), back.put()));
  ComplexValues real_only(6);
  for (size_t i = 0; i < 6; ++i) real_only[i] = WideC(a[i].real(), 0);
  EXPECT_TRUE(close_complex(back, real_only, dt()));
  // To bool: nonzero when either part is.
  const ComplexValues z = {WideC(0, 0), WideC(0, 1), WideC(2, 0), WideC(0, -0.0L)};
  Tensor zt = make_c(z, {4}), b;
  CTS_ASSERT_OK(kf_to_dtype(zt.get(), KF_BOOL, b.put()));
  const std::vector<unsigned char> want_b = {0, 1, 1, 0};
  EXPECT_EQ(wide::host_bytes(b), want_b);
  // Between the complex dtypes: each part rounded.
  const kf_dtype_t other = dt() == KF_COMPLEX64 ? KF_COMPLEX128 : KF_COMPLEX64;
  CTS_ASSERT_OK(kf_to_dtype(x.get(), other, back.put()));
  EXPECT_TRUE(close_complex(back, wide::stored(a, other), other));
}

TEST_P(Complex, FillWithComplexScalars) {
  CTS_REQUIRE(dt(), "full");
  const int64_t shape[1] = {2};
  Tensor r;
  CTS_ASSERT_OK(kf_full(shape, 1, kf_scalar_c128(1.5, -2.25), dt(), dev(), r.put()));
  EXPECT_TRUE(close_complex(r, {WideC(1.5, -2.25), WideC(1.5, -2.25)}, dt()));
  CTS_ASSERT_OK(kf_full(shape, 1, kf_scalar_i64(3), dt(), dev(), r.put()));
  EXPECT_TRUE(close_complex(r, {WideC(3, 0), WideC(3, 0)}, dt()));
}

class ComplexAny : public CtsTest {};

TEST_P(ComplexAny, RealDtypesRefuseAnImaginaryPart) {
  CTS_REQUIRE(KF_FLOAT32, "full");
  const int64_t shape[1] = {2};
  Tensor r;
  EXPECT_EQ(kf_full(shape, 1, kf_scalar_c128(1, 2), KF_FLOAT32, dev(), r.put()),
            KF_INVALID_ARGUMENT);
  const std::string msg = kf_last_error_message();
  EXPECT_NE(msg.find("imaginary"), std::string::npos) << msg;
  EXPECT_NE(msg.find("float32"), std::string::npos) << msg;
  CTS_ASSERT_OK(kf_full(shape, 1, kf_scalar_c128(1, 0), KF_FLOAT32, dev(), r.put()));
  EXPECT_TRUE(matches(r, {1, 1}, {2}, KF_FLOAT32));
}

TEST_P(ComplexAny, FloatWithComplexPromotesToTheWiderParts) {
  CTS_REQUIRE(KF_COMPLEX128, "add");
  Tensor f64 = make_tensor({1, 2}, {2}, KF_FLOAT64, dev());
  Tensor c64 = wide::make_complex({WideC(1, 1), WideC(0, -1)}, {2}, KF_COMPLEX64, dev());
  Tensor r;
  CTS_ASSERT_OK(kf_add(f64.get(), c64.get(), one(), r.put()));
  EXPECT_TRUE(close_complex(r, {WideC(2, 1), WideC(2, -1)}, KF_COMPLEX128));
}

CTS_INSTANTIATE(Complex, params({KF_COMPLEX64, KF_COMPLEX128}));
CTS_INSTANTIATE(ComplexAny, params_any());

}  // namespace
}  // namespace cts
