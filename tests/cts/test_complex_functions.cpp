// CTS: the standard's elementwise functions on the complex dtypes: tan, asin, acos, atan, sinh,
// cosh, asinh, acosh, atanh, expm1, log1p, log2, log10 and square against
// std::complex<long double> (wide.hpp), expm1 and log1p near zero where 1 + z would round the
// answer away, conj, real and imag (the parts in their real dtype; of a real tensor a copy and
// zeros), and the bool predicates (isnan, isinf, isfinite, logical_not) of either part.
#include "cts_pointwise.hpp"
#include "wide.hpp"

namespace cts {
namespace {

using wide::ComplexValues;
using wide::Wide;
using wide::WideC;
using wide::close_complex;

class ComplexFunctions : public wide::ComplexTest {
 protected:
  kf_dtype_t part_dtype() const { return dt() == KF_COMPLEX64 ? KF_FLOAT32 : KF_FLOAT64; }
};
class ComplexPartsOfReals : public CtsTest {};

using UnaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t*);

struct Case {
  const char* op;
  UnaryFn fn;
  WideC (*ref)(const WideC&);
};

const WideC kOne(1, 0);
const Case kCases[] = {
    {"sin", kf_sin, [](const WideC& z) { return std::sin(z); }},
    {"cos", kf_cos, [](const WideC& z) { return std::cos(z); }},
    {"tanh", kf_tanh, [](const WideC& z) { return std::tanh(z); }},
    {"tan", kf_tan, [](const WideC& z) { return std::tan(z); }},
    {"asin", kf_asin, [](const WideC& z) { return std::asin(z); }},
    {"acos", kf_acos, [](const WideC& z) { return std::acos(z); }},
    {"atan", kf_atan, [](const WideC& z) { return std::atan(z); }},
    {"sinh", kf_sinh, [](const WideC& z) { return std::sinh(z); }},
    {"cosh", kf_cosh, [](const WideC& z) { return std::cosh(z); }},
    {"asinh", kf_asinh, [](const WideC& z) { return std::asinh(z); }},
    {"acosh", kf_acosh, [](const WideC& z) { return std::acosh(z); }},
    {"atanh", kf_atanh, [](const WideC& z) { return std::atanh(z); }},
    {"expm1", kf_expm1, [](const WideC& z) { return std::exp(z) - kOne; }},
    {"log1p", kf_log1p, [](const WideC& z) { return std::log(kOne + z); }},
    {"log2", kf_log2, [](const WideC& z) { return std::log(z) / std::log(Wide(2)); }},
    {"log10", kf_log10, [](const WideC& z) { return std::log10(z); }},
    {"square", kf_square, [](const WideC& z) { return z * z; }},
    {"sign", kf_sign, [](const WideC& z) { return z == WideC(0) ? z : z / std::abs(z); }},
};

TEST_P(ComplexFunctions, AgainstLongDouble) {
  const ComplexValues a = wide::stored(wide::pseudo_complex(16, -1.5, 1.5, 11), dt());
  Tensor x = make_c(a, {4, 4}), r;
  for (const Case& c : kCases) {
    CTS_REQUIRE_IN_LOOP(dt(), c.op);
    SCOPED_TRACE(c.op);
    ComplexValues want(a.size());
    for (size_t i = 0; i < a.size(); ++i) want[i] = c.ref(a[i]);
    CTS_ASSERT_OK(c.fn(x.get(), r.put()));
    EXPECT_TRUE(close_complex(r, want, dt(), 16));
  }
}

TEST_P(ComplexFunctions, Expm1AndLog1pNearZero) {
  CTS_REQUIRE(dt(), "expm1", "log1p");
  // Parts of 1e-5: 1 + z holds about two digits of them in complex64; the answer has all.
  const ComplexValues a{WideC(1e-5L, 2e-5L), WideC(-3e-5L, 1e-6L), WideC(0, 1e-5L)};
  const ComplexValues z = wide::stored(a, dt());
  ComplexValues e(z.size()), l(z.size());
  for (size_t i = 0; i < z.size(); ++i) {
    e[i] = std::exp(z[i]) - kOne;  // exact enough in long double at this size
    l[i] = std::log(kOne + z[i]);
  }
  Tensor x = make_c(z, {3}), r;
  // Relative to the answer's own size (|answer| ~ 1e-5), not to 1.
  auto close_small = [&](const ComplexValues& want) {
    const ComplexValues got = wide::host_complex(r);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_LE(std::abs(got[i] - want[i]), wide::complex_tol(dt(), 8) * std::abs(want[i])) << i;
    }
  };
  CTS_ASSERT_OK(kf_expm1(x.get(), r.put()));
  close_small(e);
  CTS_ASSERT_OK(kf_log1p(x.get(), r.put()));
  close_small(l);
}

TEST_P(ComplexFunctions, ConjRealImag) {
  CTS_REQUIRE(dt(), "conj", "real", "imag");
  const ComplexValues a = wide::stored(wide::pseudo_complex(6, -4, 4, 5), dt());
  Tensor x = make_c(a, {2, 3}), r;
  ComplexValues conj(a.size());
  Values re(a.size()), im(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    conj[i] = std::conj(a[i]);
    re[i] = static_cast<double>(a[i].real());
    im[i] = static_cast<double>(a[i].imag());
  }
  CTS_ASSERT_OK(kf_conj(x.get(), r.put()));
  EXPECT_TRUE(close_complex(r, conj, dt()));
  CTS_ASSERT_OK(kf_real(x.get(), r.put()));
  EXPECT_TRUE(matches(r, re, {2, 3}, part_dtype()));
  CTS_ASSERT_OK(kf_imag(x.get(), r.put()));
  EXPECT_TRUE(matches(r, im, {2, 3}, part_dtype()));
  // Of a transposed view, into the part dtype's out= view.
  Tensor t, base, out;
  CTS_ASSERT_OK(kf_transpose(x.get(), 0, 1, t.put()));
  CTS_ASSERT_OK(kf_zeros(Shape{2, 3}.data(), 2, part_dtype(), dev(), base.put()));
  CTS_ASSERT_OK(kf_transpose(base.get(), 0, 1, out.put()));
  CTS_ASSERT_OK(kf_imag_out(t.get(), out.get()));
  EXPECT_TRUE(matches(out, gather_strided(im, 0, {3, 2}, {1, 3}), {3, 2}, part_dtype()));
}

TEST_P(ComplexFunctions, PredicatesOfEitherPart) {
  CTS_REQUIRE(dt(), "isnan", "isinf", "isfinite", "logical_not");
  const Wide inf = INFINITY, nan = NAN;
  const ComplexValues a{WideC(1, 2), WideC(nan, 0), WideC(0, nan), WideC(inf, nan),
                        WideC(0, -inf), WideC(0, 0), WideC(-0.0L, 1e-50L)};
  Tensor x = make_c(a, {7}), r;
  CTS_ASSERT_OK(kf_isnan(x.get(), r.put()));
  EXPECT_TRUE(matches(r, {0, 1, 1, 1, 0, 0, 0}, {7}, KF_BOOL));
  CTS_ASSERT_OK(kf_isinf(x.get(), r.put()));
  EXPECT_TRUE(matches(r, {0, 0, 0, 1, 1, 0, 0}, {7}, KF_BOOL));
  CTS_ASSERT_OK(kf_isfinite(x.get(), r.put()));
  EXPECT_TRUE(matches(r, {1, 0, 0, 0, 0, 1, 1}, {7}, KF_BOOL));
  CTS_ASSERT_OK(kf_logical_not(x.get(), r.put()));
  EXPECT_TRUE(matches(r, {0, 0, 0, 0, 0, 1, dt() == KF_COMPLEX64 ? 1.0 : 0.0}, {7}, KF_BOOL))
      << "1e-50j is zero in complex64 only";
  // No sign bit, no order.
  EXPECT_TRUE(is_invalid(kf_signbit(x.get(), r.put()), "signbit"));
}

TEST_P(ComplexFunctions, SignedZerosAndInfinitiesOfTheStandard) {
  CTS_REQUIRE(dt(), "tanh", "tan", "expm1", "sign", "round");
  const Wide inf = INFINITY, nan = NAN;
  // tanh(±inf + iy) = ±1 + i·copysign(0, y); tan(z) = -i·tanh(iz) carries it to x + i·inf.
  Tensor t = make_c({WideC(inf, 2), WideC(-inf, -2)}, {2}), r;
  CTS_ASSERT_OK(kf_tanh(t.get(), r.put()));
  ComplexValues g = wide::host_complex(r);
  EXPECT_TRUE(g[0].real() == 1 && g[0].imag() == 0 && !std::signbit(g[0].imag()));
  EXPECT_TRUE(g[1].real() == -1 && g[1].imag() == 0 && std::signbit(g[1].imag()));
  Tensor u = make_c({WideC(2, inf)}, {1});
  CTS_ASSERT_OK(kf_tan(u.get(), r.put()));  // tan(2 + i·inf) = +0 + 1j
  g = wide::host_complex(r);
  EXPECT_TRUE(g[0].real() == 0 && !std::signbit(g[0].real()) && g[0].imag() == 1);
  Tensor z = make_c({WideC(-0.0L, 0)}, {1});
  CTS_ASSERT_OK(kf_expm1(z.get(), r.put()));  // expm1(-0 + 0j) = +0 + 0j
  g = wide::host_complex(r);
  EXPECT_TRUE(g[0].real() == 0 && !std::signbit(g[0].real()) && g[0].imag() == 0);
  Tensor s = make_c({WideC(0, -0.0L), WideC(nan, 1), WideC(3, -4)}, {3});
  CTS_ASSERT_OK(kf_sign(s.get(), r.put()));
  EXPECT_TRUE(close_complex(r, {WideC(0, 0), WideC(nan, nan), WideC(0.6L, -0.8L)}, dt()));
  Tensor h = make_c({WideC(2.5L, -1.5L), WideC(0.4L, 3.5L)}, {2});
  CTS_ASSERT_OK(kf_round(h.get(), 0, r.put()));  // each part half to even
  EXPECT_TRUE(close_complex(r, {WideC(2, -2), WideC(0, 4)}, dt()));
}

TEST_P(ComplexFunctions, PowIsExpOfYLogX) {
  CTS_REQUIRE(dt(), "pow");
  const ComplexValues x{WideC(1, 1), WideC(0, 0), WideC(0, 0), WideC(-2, 0.5L), WideC(3, -1)};
  const ComplexValues y{WideC(2, 0), WideC(0, 0), WideC(1.5L, 2), WideC(0.5L, -1),
                        WideC(-1, 0.25L)};
  ComplexValues want(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    want[i] = y[i] == WideC(0) ? WideC(1) : x[i] == WideC(0) ? WideC(0)
                                                               : std::exp(y[i] * std::log(x[i]));
  }
  Tensor a = make_c(wide::stored(x, dt()), {5}), b = make_c(wide::stored(y, dt()), {5}), r;
  CTS_ASSERT_OK(kf_pow(a.get(), b.get(), r.put()));
  EXPECT_TRUE(close_complex(r, want, dt(), 16));
  Tensor two = make_c({WideC(2, 0)}, {}), sq;  // one exponent: x * x
  CTS_ASSERT_OK(kf_pow(a.get(), two.get(), sq.put()));
  EXPECT_TRUE(close_complex(sq, {WideC(0, 2), WideC(0), WideC(0), WideC(3.75L, -2),
                                 WideC(8, -6)}, dt(), 16));
}

TEST_P(ComplexPartsOfReals, CopyAndZeros) {
  CTS_REQUIRE(dt(), "conj", "real", "imag");
  const Values v = cts::stored({1.5, -2, 0, 7}, dt());
  Tensor x = make(v, {4}), r;
  CTS_ASSERT_OK(kf_conj(x.get(), r.put()));
  EXPECT_TRUE(matches(r, v, {4}, dt()));
  CTS_ASSERT_OK(kf_real(x.get(), r.put()));
  EXPECT_TRUE(matches(r, v, {4}, dt()));
  CTS_ASSERT_OK(kf_imag(x.get(), r.put()));
  EXPECT_TRUE(matches(r, {0, 0, 0, 0}, {4}, dt()));
}

CTS_INSTANTIATE(ComplexFunctions, params({KF_COMPLEX64, KF_COMPLEX128}));
CTS_INSTANTIATE(ComplexPartsOfReals, params_all());

}  // namespace
}  // namespace cts
