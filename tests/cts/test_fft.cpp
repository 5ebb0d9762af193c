// CTS: the discrete Fourier transforms (fft_r2c, fft_c2c, fft_c2r) in float32 and float64 on
// every backend (elsewhere than cpu through the CPU fallback), against a direct O(n^2) DFT in
// double: lengths of small factors, primes and 2 * prime, over a middle dim and two dims at
// once, and the round trips r2c -> c2c -> c2r; complex transforms of a transposed input both
// ways; long lengths (over 4096, primes) against a pure tone; and c2r's disregard of the
// imaginary parts of the zero and Nyquist frequencies.
#include <algorithm>
#include <cmath>
#include <complex>

#include "cts_util.hpp"
#include "wide.hpp"

namespace cts {
namespace {

using Complex = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;  // M_PI is not standard C++ (MinGW lacks it)

class Fft : public CtsTest {
 protected:
  kf_dtype_t complex_dt() const { return dt() == KF_FLOAT32 ? KF_COMPLEX64 : KF_COMPLEX128; }
  /** The tolerance scale of a transform's values (the error grows with log n). */
  double scale() const { return dt() == KF_FLOAT32 ? 200 : 2000; }

  /** The real and imaginary parts of a complex tensor, in double. */
  static void parts(const Tensor& t, Values& re, Values& im) {
    Tensor r, i;
    CTS_EXPECT_OK(kf_real(t.get(), r.put()));
    CTS_EXPECT_OK(kf_imag(t.get(), i.put()));
    re = to_host_double(r);
    im = to_host_double(i);
  }
};

/** The DFT along dim 1 of x [outer, n, inner] (complex, row-major), sign -1 forward. */
std::vector<Complex> ref_dft(const std::vector<Complex>& x, int64_t outer, int64_t n,
                             int64_t inner, double sign) {
  std::vector<Complex> y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      for (int64_t k = 0; k < n; ++k) {
        Complex s = 0;
        for (int64_t j = 0; j < n; ++j) {
          const double a = sign * 2 * kPi * double((j * k) % n) / double(n);
          s += x[static_cast<size_t>((o * n + j) * inner + i)] * std::polar(1.0, a);
        }
        y[static_cast<size_t>((o * n + k) * inner + i)] = s;
      }
  return y;
}

std::vector<Complex> as_complex(const Values& re) {
  return std::vector<Complex>(re.begin(), re.end());
}

/** The first `keep` entries of dim 1 of y [outer, n, inner]: its real and imaginary parts. */
void first_bins(const std::vector<Complex>& y, int64_t outer, int64_t n, int64_t inner,
                int64_t keep, Values& re, Values& im) {
  re.clear();
  im.clear();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < keep; ++k)
      for (int64_t i = 0; i < inner; ++i) {
        const Complex v = y[static_cast<size_t>((o * n + k) * inner + i)];
        re.push_back(v.real());
        im.push_back(v.imag());
      }
}

TEST_P(Fft, RealToComplexMatchesTheDftForEveryPlanKind) {
  CTS_REQUIRE(dt(), "fft_r2c");
  for (int64_t n : {1, 2, 7, 12, 17, 22, 97, 128, 202}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Values x = in(pseudo_random(static_cast<size_t>(3 * n), -1, 1, uint32_t(n)));
    Tensor t = make(x, {3, n}), y;
    const int64_t dim[] = {-1};
    CTS_ASSERT_OK(kf_fft_r2c(t.get(), dim, 1, 1.0, y.put()));
    ASSERT_EQ(y.dtype(), complex_dt());
    Values re, im, got_re, got_im;
    first_bins(ref_dft(as_complex(x), 3, n, 1, -1), 3, n, 1, n / 2 + 1, re, im);
    parts(y, got_re, got_im);
    EXPECT_EQ(y.shape(), (Shape{3, n / 2 + 1}));
    EXPECT_TRUE(all_close(got_re, re, dt(), scale()));
    EXPECT_TRUE(all_close(got_im, im, dt(), scale()));
  }
}

TEST_P(Fft, AMiddleDimIsTransformedWithTheScale) {
  CTS_REQUIRE(dt(), "fft_r2c");
  const int64_t outer = 2, n = 11, inner = 5;
  const Values x = in(pseudo_random(static_cast<size_t>(outer * n * inner), -1, 1, 3));
  Tensor t = make(x, {outer, n, inner}), y;
  const int64_t dim[] = {1};
  CTS_ASSERT_OK(kf_fft_r2c(t.get(), dim, 1, 0.5, y.put()));
  std::vector<Complex> ref = ref_dft(as_complex(x), outer, n, inner, -1);
  for (Complex& v : ref) v *= 0.5;
  Values re, im, got_re, got_im;
  first_bins(ref, outer, n, inner, n / 2 + 1, re, im);
  parts(y, got_re, got_im);
  EXPECT_EQ(y.shape(), (Shape{outer, n / 2 + 1, inner}));
  EXPECT_TRUE(all_close(got_re, re, dt(), scale()));
  EXPECT_TRUE(all_close(got_im, im, dt(), scale()));
}

TEST_P(Fft, TwoDimsRoundTripThroughComplexAndBack) {
  CTS_REQUIRE(dt(), "fft_r2c");
  CTS_REQUIRE(complex_dt(), "fft_c2c", "fft_c2r");
  for (int64_t n : {6, 9}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Values x = in(pseudo_random(static_cast<size_t>(4 * 5 * n), -1, 1, 7));
    Tensor t = make(x, {4, 5, n}), spectrum, there, back, restored;
    const int64_t dims[] = {0, 2}, first[] = {0};
    CTS_ASSERT_OK(kf_fft_r2c(t.get(), dims, 2, 1.0, spectrum.put()));
    EXPECT_EQ(spectrum.shape(), (Shape{4, 5, n / 2 + 1}));
    // a forward and an inverse complex pass over dim 0 leave 4 times the spectrum
    CTS_ASSERT_OK(kf_fft_c2c(spectrum.get(), first, 1, true, 1.0, there.put()));
    CTS_ASSERT_OK(kf_fft_c2c(there.get(), first, 1, false, 0.25, back.put()));
    CTS_ASSERT_OK(kf_fft_c2r(back.get(), dims, 2, n, 1.0 / double(4 * n), restored.put()));
    EXPECT_TRUE(matches(restored, x, {4, 5, n}, dt(), scale()));
  }
}

TEST_P(Fft, BadArgumentsAreInvalidArguments) {
  CTS_REQUIRE(dt(), "fft_r2c");
  CTS_REQUIRE(complex_dt(), "fft_c2r");
  Tensor t = make(in(Values{1, 2, 3, 4}), {4}), spectrum, out;
  const int64_t dim[] = {0}, repeated[] = {0, -1};
  expect_invalid_argument(kf_fft_c2c(t.get(), dim, 1, true, 1.0, out.put()),
                          {"fft_c2c", "complex64 or complex128"});
  expect_invalid_argument(kf_fft_r2c(t.get(), repeated, 2, 1.0, out.put()), {"fft_r2c"});
  expect_invalid_argument(kf_fft_r2c(t.get(), nullptr, 0, 1.0, out.put()),
                          {"fft_r2c", "at least one"});
  CTS_ASSERT_OK(kf_fft_r2c(t.get(), dim, 1, 1.0, spectrum.put()));
  expect_invalid_argument(kf_fft_c2r(spectrum.get(), dim, 1, 7, 1.0, out.put()),
                          {"fft_c2r", "last_dim_size 7"});
  expect_invalid_argument(kf_fft_c2r(spectrum.get(), dim, 1, 0, 1.0, out.put()),
                          {"fft_c2r", "at least 1"});
}

std::vector<Complex> as_double(const wide::ComplexValues& v) {
  std::vector<Complex> out;
  for (const wide::WideC& z : v) out.emplace_back(double(z.real()), double(z.imag()));
  return out;
}

wide::ComplexValues as_wide(const std::vector<Complex>& v) {
  wide::ComplexValues out;
  for (const Complex& z : v) out.emplace_back(z.real(), z.imag());
  return out;
}

TEST_P(Fft, ComplexOverBothDimsOfATransposedInputBothWays) {
  CTS_REQUIRE(complex_dt(), "fft_c2c", "transpose");
  const wide::ComplexValues base = wide::stored(wide::pseudo_complex(15, -1, 1, 11), complex_dt());
  Tensor b = wide::make_complex(base, {5, 3}, complex_dt(), dev()), t, y, back;
  CTS_ASSERT_OK(kf_transpose(b.get(), 0, 1, t.put()));  // [3, 5], strides (1, 3)
  std::vector<Complex> x(15);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 5; ++j) x[size_t(i * 5 + j)] = as_double({base[size_t(j * 3 + i)]})[0];
  std::vector<Complex> want = ref_dft(ref_dft(x, 1, 3, 5, -1), 3, 5, 1, -1);
  for (Complex& v : want) v *= 0.5;
  const int64_t dims[] = {-1, 0};
  CTS_ASSERT_OK(kf_fft_c2c(t.get(), dims, 2, true, 0.5, y.put()));
  EXPECT_EQ(y.shape(), (Shape{3, 5}));
  EXPECT_TRUE(wide::close_complex(y, as_wide(want), complex_dt(), 20));
  CTS_ASSERT_OK(kf_fft_c2c(y.get(), dims, 2, false, 2.0 / 15, back.put()));
  EXPECT_TRUE(wide::close_complex(back, as_wide(x), complex_dt(), 20));
}

TEST_P(Fft, LongLengthsFindTheirTone) {
  CTS_REQUIRE(complex_dt(), "fft_c2c");
  const double eps = dt() == KF_FLOAT32 ? 1.2e-7 : 2.3e-16;
  for (int64_t n : {8192, 1009, 8198, 65537}) {  // 2^13, primes, 2 * 4099
    SCOPED_TRACE("n = " + std::to_string(n));
    const int64_t f = 5;  // x[j] = exp(2 pi i f j / n): X[k] = n at k = f, 0 elsewhere
    std::vector<Complex> x(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      x[size_t(j)] = std::polar(1.0, 2 * kPi * double((f * j) % n) / double(n));
    }
    Tensor t = wide::make_complex(as_wide(x), {n}, complex_dt(), dev()), y;
    const int64_t dim[] = {0};
    CTS_ASSERT_OK(kf_fft_c2c(t.get(), dim, 1, true, 1.0, y.put()));
    const std::vector<Complex> got = as_double(wide::host_complex(y));
    ASSERT_EQ(got.size(), x.size());
    double worst = 0;
    for (int64_t k = 0; k < n; ++k) {
      worst = std::max(worst, std::abs(got[size_t(k)] - Complex(k == f ? double(n) : 0, 0)));
    }
    EXPECT_LE(worst, 20 * eps * double(n)) << "largest error of " << n << " bins";
  }
}

TEST_P(Fft, ComplexToRealIgnoresTheImaginaryPartsOfZeroAndNyquist) {
  CTS_REQUIRE(complex_dt(), "fft_c2r");
  for (int64_t length : {8, 7}) {
    SCOPED_TRACE("last_dim_size = " + std::to_string(length));
    const int64_t h = length / 2 + 1, rows = 3;
    const wide::ComplexValues spectrum =
        wide::stored(wide::pseudo_complex(size_t(rows * h), -1, 1, 5), complex_dt());
    wide::ComplexValues real_ends = spectrum;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t k : {int64_t{0}, length % 2 == 0 ? length / 2 : int64_t{0}}) {
        wide::WideC& z = real_ends[size_t(r * h + k)];
        z = wide::WideC(z.real(), 0);
      }
    }
    Tensor a = wide::make_complex(spectrum, {rows, h}, complex_dt(), dev());
    Tensor b = wide::make_complex(real_ends, {rows, h}, complex_dt(), dev()), ya, yb;
    const int64_t dim[] = {1};
    CTS_ASSERT_OK(kf_fft_c2r(a.get(), dim, 1, length, 1.0, ya.put()));
    CTS_ASSERT_OK(kf_fft_c2r(b.get(), dim, 1, length, 1.0, yb.put()));
    EXPECT_EQ(ya.shape(), (Shape{rows, length}));
    EXPECT_TRUE(all_close(to_host_double(ya), to_host_double(yb), dt(), scale()));
  }
}

CTS_INSTANTIATE(Fft, params_float());

}  // namespace
}  // namespace cts
