// CTS helpers for the dtypes of C ABI 2.0 (uint16, uint32, uint64, complex64, complex128): their
// references are computed in `long double` and `std::complex<long double>` (x87's 64-bit
// significand holds every uint64 exactly, and complex128's products with a few bits to spare),
// not in the double of the older cases (cts_util.hpp). Values cross the C ABI as raw bytes of
// the dtype, never through a double.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "cts_util.hpp"

namespace cts::wide {

using Wide = long double;
using WideC = std::complex<long double>;
using WideValues = std::vector<Wide>;
using ComplexValues = std::vector<WideC>;

inline bool is_unsigned(kf_dtype_t d) { return kf_dtype_kind(d) == 'u'; }
inline bool is_complex(kf_dtype_t d) { return kf_dtype_kind(d) == 'c'; }

/// The largest value of an unsigned dtype.
inline uint64_t max_of(kf_dtype_t d) {
  const size_t bits = 8 * kf_dtype_size(d);
  return bits >= 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
}

/// x modulo 2^bits of unsigned dtype d (the dtype's wrapping).
inline uint64_t wrap(kf_dtype_t d, uint64_t x) { return x & max_of(d); }

// ------------------------------------------------------------------ unsigned integers

inline std::vector<unsigned char> encode_unsigned(const std::vector<uint64_t>& v, kf_dtype_t d) {
  const size_t sz = kf_dtype_size(d);
  std::vector<unsigned char> out(v.size() * sz);
  for (size_t i = 0; i < v.size(); ++i) {
    const uint64_t x = wrap(d, v[i]);
    std::memcpy(out.data() + i * sz, &x, sz);  // little-endian: the low bytes
  }
  return out;
}

inline Tensor make_unsigned(const std::vector<uint64_t>& v, const Shape& s, kf_dtype_t d,
                            kf_device_t dev) {
  const std::vector<unsigned char> bytes = encode_unsigned(v, d);
  Tensor t;
  CTS_EXPECT_OK(kf_tensor_from_data(bytes.empty() ? nullptr : bytes.data(),
                                    s.empty() ? nullptr : s.data(),
                                    static_cast<int32_t>(s.size()), d, dev, t.put()));
  return t;
}

/// The tensor's raw bytes on the host.
inline std::vector<unsigned char> host_bytes(const Tensor& t) {
  const int64_t n = t.numel();
  std::vector<unsigned char> bytes(static_cast<size_t>(n < 0 ? 0 : n) * kf_dtype_size(t.dtype()));
  CTS_EXPECT_OK(kf_tensor_copy_to_host(t.get(), bytes.data(), bytes.size()));
  return bytes;
}

inline std::vector<uint64_t> host_unsigned(const Tensor& t) {
  const std::vector<unsigned char> bytes = host_bytes(t);
  const size_t sz = kf_dtype_size(t.dtype());
  std::vector<uint64_t> out(sz == 0 ? 0 : bytes.size() / sz);
  for (size_t i = 0; i < out.size(); ++i) std::memcpy(&out[i], bytes.data() + i * sz, sz);
  return out;
}

/// Exact comparison of unsigned results, with the first differences listed.
inline ::testing::AssertionResult same_unsigned(const Tensor& t, const std::vector<uint64_t>& want,
                                                kf_dtype_t d) {
  if (!t) return ::testing::AssertionFailure() << "no tensor";
  if (t.dtype() != d) {
    return ::testing::AssertionFailure() << "dtype " << kf_dtype_name(t.dtype()) << ", expected "
                                         << kf_dtype_name(d);
  }
  const std::vector<uint64_t> got = host_unsigned(t);
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " values, expected " << want.size();
  }
  std::ostringstream os;
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != wrap(d, want[i]) && bad++ < 6) {
      os << "\n  [" << i << "] got " << got[i] << ", expected " << wrap(d, want[i]);
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << got.size() << " differ ("
                                       << kf_dtype_name(d) << "):" << os.str();
}

// ------------------------------------------------------------------ complex numbers

inline std::vector<unsigned char> encode_complex(const ComplexValues& v, kf_dtype_t d) {
  const size_t sz = kf_dtype_size(d);
  std::vector<unsigned char> out(v.size() * sz);
  for (size_t i = 0; i < v.size(); ++i) {
    if (sz == 8) {
      const std::complex<float> z(static_cast<float>(v[i].real()), static_cast<float>(v[i].imag()));
      std::memcpy(out.data() + i * sz, &z, sz);
    } else {
      const std::complex<double> z(static_cast<double>(v[i].real()),
                                   static_cast<double>(v[i].imag()));
      std::memcpy(out.data() + i * sz, &z, sz);
    }
  }
  return out;
}

/// The values as complex dtype d stores them (each part rounded to its float type).
inline ComplexValues stored(const ComplexValues& v, kf_dtype_t d) {
  ComplexValues out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (kf_dtype_size(d) == 8) {
      out[i] = WideC(static_cast<float>(v[i].real()), static_cast<float>(v[i].imag()));
    } else {
      out[i] = WideC(static_cast<double>(v[i].real()), static_cast<double>(v[i].imag()));
    }
  }
  return out;
}

inline Tensor make_complex(const ComplexValues& v, const Shape& s, kf_dtype_t d,
                           kf_device_t dev) {
  const std::vector<unsigned char> bytes = encode_complex(v, d);
  Tensor t;
  CTS_EXPECT_OK(kf_tensor_from_data(bytes.empty() ? nullptr : bytes.data(),
                                    s.empty() ? nullptr : s.data(),
                                    static_cast<int32_t>(s.size()), d, dev, t.put()));
  return t;
}

inline ComplexValues host_complex(const Tensor& t) {
  const std::vector<unsigned char> bytes = host_bytes(t);
  const size_t sz = kf_dtype_size(t.dtype());
  ComplexValues out(sz == 0 ? 0 : bytes.size() / sz);
  for (size_t i = 0; i < out.size(); ++i) {
    if (sz == 8) {
      std::complex<float> z;
      std::memcpy(&z, bytes.data() + i * sz, sz);
      out[i] = WideC(z.real(), z.imag());
    } else {
      std::complex<double> z;
      std::memcpy(&z, bytes.data() + i * sz, sz);
      out[i] = WideC(z.real(), z.imag());
    }
  }
  return out;
}

/// The relative error allowed per unit of `scale` for complex dtype d (its parts' epsilon).
inline Wide complex_tol(kf_dtype_t d, double scale) {
  return (kf_dtype_size(d) == 8 ? 2e-6L : 1e-14L) * static_cast<Wide>(scale);
}

/// |got - want| <= tol * max(|want|, 1) for each element, NaN parts matching NaN parts.
inline ::testing::AssertionResult close_complex(const Tensor& t, const ComplexValues& want,
                                                kf_dtype_t d, double scale = 1.0) {
  if (!t) return ::testing::AssertionFailure() << "no tensor";
  if (t.dtype() != d) {
    return ::testing::AssertionFailure() << "dtype " << kf_dtype_name(t.dtype()) << ", expected "
                                         << kf_dtype_name(d);
  }
  const ComplexValues got = host_complex(t);
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " values, expected " << want.size();
  }
  const Wide tol = complex_tol(d, scale);
  std::ostringstream os;
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const WideC g = got[i], w = want[i];
    bool ok;
    if (std::isnan(w.real()) || std::isnan(w.imag())) {
      ok = std::isnan(g.real()) || std::isnan(g.imag());
    } else {
      const Wide mag = std::abs(w) > 1 ? std::abs(w) : Wide(1);
      ok = std::abs(g - w) <= tol * mag;
    }
    if (!ok && bad++ < 6) {
      os << "\n  [" << i << "] got (" << static_cast<double>(g.real()) << ", "
         << static_cast<double>(g.imag()) << "), expected (" << static_cast<double>(w.real())
         << ", " << static_cast<double>(w.imag()) << ")";
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << got.size() << " differ ("
                                       << kf_dtype_name(d) << ", relative " << static_cast<double>(tol)
                                       << "):" << os.str();
}

/// A fixture of the complex suites: make_c, a tensor of this case's complex dtype and device.
class ComplexTest : public CtsTest {
 protected:
  Tensor make_c(const ComplexValues& v, const Shape& s) const {
    return make_complex(v, s, dt(), dev());
  }
};

/// n complex values with parts in [lo, hi), repeatable from `seed`.
inline ComplexValues pseudo_complex(size_t n, double lo, double hi, uint32_t seed) {
  const Values re = pseudo_random(n, lo, hi, seed), im = pseudo_random(n, lo, hi, seed + 101);
  ComplexValues out(n);
  for (size_t i = 0; i < n; ++i) out[i] = WideC(re[i], im[i]);
  return out;
}

}  // namespace cts::wide
