// Fuzz target for the one rule by which a scalar becomes a value of a dtype (Note [Scalars to
// dtypes], runtime/core/scalar_conversion.hpp): random (dtype, tag, 8 value bytes) through
// convert_scalar and scalar_to_dtype, checked against an independent model in exact integer
// arithmetic: a float's integer part is taken as a sign and a uint64 magnitude (or "at least
// 2^64"), compared with each dtype's range written out by hand; a floating dtype's largest
// finite value is built from its significand and exponent. Representable means exact or
// truncated toward zero; anything else must be refused with KF_INVALID_ARGUMENT naming the
// dtype. Two more bytes check scalar_of_element's reading of float16, bfloat16 and bool.
//
// Input: byte 0 the dtype (mod KF_DTYPE_COUNT + 2: the last two are not dtypes), byte 1 the
// tag (mod 6: 5 is not a tag), bytes 2..9 the int64, uint64 or float64 payload (a complex
// scalar's real part), bytes 10..11 an element's bits, bytes 12..19 a complex scalar's
// imaginary part.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "core/scalar_conversion.hpp"

namespace {

using kf::ScalarFit;

struct Range {
  bool is_int;
  bool is_bool;
  uint64_t neg_mag;  // integers: the largest magnitude below zero (0 for unsigned)
  uint64_t pos;      // integers: the largest value
  double max;        // floats: the largest finite value (complex: of each part)
  bool is_complex;
};

bool range_of(int32_t d, Range& r) {
  r = Range{};
  switch (d) {
    case KF_INT8: r = {true, false, 128, 127, 0, false}; return true;
    case KF_UINT8: r = {true, false, 0, 255, 0, false}; return true;
    case KF_INT16: r = {true, false, 32768, 32767, 0, false}; return true;
    case KF_INT32: r = {true, false, 2147483648u, 2147483647u, 0, false}; return true;
    case KF_INT64:
      r = {true, false, 9223372036854775808u, 9223372036854775807u, 0, false};
      return true;
    case KF_UINT16: r = {true, false, 0, 65535, 0, false}; return true;
    case KF_UINT32: r = {true, false, 0, 4294967295u, 0, false}; return true;
    case KF_UINT64: r = {true, false, 0, 18446744073709551615u, 0, false}; return true;
    case KF_COMPLEX64: r.max = std::ldexp(16777215.0, 104); r.is_complex = true; return true;
    case KF_COMPLEX128:
      r.max = std::ldexp(9007199254740991.0, 971);
      r.is_complex = true;
      return true;
    case KF_BOOL: r.is_bool = true; return true;
    case KF_FLOAT16: r.max = std::ldexp(2047.0, 5); return true;              // 65504
    case KF_BFLOAT16: r.max = std::ldexp(255.0, 120); return true;            // 0x7F7F
    case KF_FLOAT32: r.max = std::ldexp(16777215.0, 104); return true;        // FLT_MAX
    case KF_FLOAT64: r.max = std::ldexp(9007199254740991.0, 971); return true;  // DBL_MAX
    default: return false;
  }
}

struct Expected {
  ScalarFit fit;
  kf_scalar_t value;
};

// An integer given as sign and magnitude, into an integer range: an int64 scalar, or a uint64
// one above int64's maximum.
Expected int_model(bool neg, uint64_t mag, const Range& r, ScalarFit fits) {
  const bool in = neg ? mag <= r.neg_mag : mag <= r.pos;
  if (!in) return {ScalarFit::out_of_range, {}};
  if (!neg && mag > 9223372036854775807u) return {fits, kf_scalar_u64(mag)};
  const uint64_t bits = neg ? uint64_t{0} - mag : mag;
  int64_t v;
  std::memcpy(&v, &bits, sizeof v);
  return {fits, kf_scalar_i64(v)};
}

bool is_nan_or_inf(double f) { return f != f || f == INFINITY || f == -INFINITY; }

// A double into a float or complex part's range: NaN and the infinities fit.
bool part_fits(double f, const Range& r) { return is_nan_or_inf(f) || std::fabs(f) <= r.max; }

// A real value as a double: integers rounded to nearest (as a C++ conversion).
double real_of(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_BOOL: return s.v.b ? 1.0 : 0.0;
    case KF_SCALAR_INT64: return static_cast<double>(s.v.i64);
    case KF_SCALAR_UINT64: return static_cast<double>(s.v.u64);
    case KF_SCALAR_COMPLEX128: return s.v.c128.re;
    default: return s.v.f64;
  }
}

// A double into an integer range: truncated toward zero, NaN and infinities refused.
Expected float_int_model(double f, const Range& r) {
  if (is_nan_or_inf(f)) return {ScalarFit::not_finite, {}};
  double whole = 0;
  const double frac = std::modf(f, &whole);
  const double a = std::fabs(whole);
  if (a >= 18446744073709551616.0) return {ScalarFit::out_of_range, {}};  // 2^64
  return int_model(whole < 0, static_cast<uint64_t>(a), r,
                   frac != 0.0 ? ScalarFit::truncated : ScalarFit::fits);
}

Expected model(const kf_scalar_t& s, int32_t d) {
  Range r;
  if (s.tag < 0 || s.tag > 4 || !range_of(d, r)) return {ScalarFit::invalid, {}};
  if (r.is_bool) {
    bool b = false;
    switch (s.tag) {
      case KF_SCALAR_BOOL: b = s.v.b; break;
      case KF_SCALAR_INT64: b = s.v.i64 != 0; break;
      case KF_SCALAR_UINT64: b = s.v.u64 != 0; break;
      case KF_SCALAR_COMPLEX128: b = !(s.v.c128.re == 0.0) || !(s.v.c128.im == 0.0); break;
      default: b = !(s.v.f64 == 0.0); break;
    }
    return {ScalarFit::fits, kf_scalar_bool(b)};
  }
  if (r.is_complex) {
    const double re = real_of(s), im = s.tag == KF_SCALAR_COMPLEX128 ? s.v.c128.im : 0.0;
    if (!part_fits(re, r) || !part_fits(im, r)) return {ScalarFit::out_of_range, {}};
    return {ScalarFit::fits, kf_scalar_c128(re, im)};
  }
  if (s.tag == KF_SCALAR_COMPLEX128) {
    if (s.v.c128.im != 0.0) return {ScalarFit::complex_to_real, {}};
    if (r.is_int) return float_int_model(s.v.c128.re, r);
    return {part_fits(s.v.c128.re, r) ? ScalarFit::fits : ScalarFit::out_of_range,
            kf_scalar_f64(s.v.c128.re)};
  }
  if (s.tag == KF_SCALAR_UINT64) {
    if (r.is_int) return int_model(false, s.v.u64, r, ScalarFit::fits);
    if (r.max < 65536.0 && s.v.u64 > 65504u) return {ScalarFit::out_of_range, {}};
    return {ScalarFit::fits, kf_scalar_f64(static_cast<double>(s.v.u64))};
  }
  if (s.tag == KF_SCALAR_BOOL) {
    return {ScalarFit::fits, r.is_int ? kf_scalar_i64(s.v.b ? 1 : 0) : kf_scalar_f64(s.v.b)};
  }
  if (s.tag == KF_SCALAR_INT64) {
    const bool neg = s.v.i64 < 0;
    const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(s.v.i64)
                             : static_cast<uint64_t>(s.v.i64);
    if (r.is_int) return int_model(neg, mag, r, ScalarFit::fits);
    // Every integer up to 2^64 is below the smallest largest-finite-value but float16's.
    if (r.max < 65536.0 && mag > 65504u) return {ScalarFit::out_of_range, {}};
    return {ScalarFit::fits, kf_scalar_f64(static_cast<double>(s.v.i64))};
  }
  const double f = s.v.f64;
  if (!r.is_int) return {part_fits(f, r) ? ScalarFit::fits : ScalarFit::out_of_range, s};
  return float_int_model(f, r);
}

bool same_value(const kf_scalar_t& a, const kf_scalar_t& b) {
  if (a.tag != b.tag) return false;
  if (a.tag == KF_SCALAR_BOOL) return a.v.b == b.v.b;
  if (a.tag == KF_SCALAR_INT64) return a.v.i64 == b.v.i64;
  if (a.tag == KF_SCALAR_UINT64) return a.v.u64 == b.v.u64;
  if (a.tag == KF_SCALAR_COMPLEX128) return std::memcmp(&a.v.c128, &b.v.c128, 16) == 0;
  return std::memcmp(&a.v.f64, &b.v.f64, sizeof(double)) == 0;
}

void check_rule(const kf_scalar_t& s, int32_t d) {
  const Expected want = model(s, d);
  const kf::ConvertedScalar got = kf::convert_scalar(s, static_cast<kf_dtype_t>(d));
  if (got.fit != want.fit) __builtin_trap();
  const bool ok = want.fit == ScalarFit::fits || want.fit == ScalarFit::truncated;
  if (ok != kf::representable(got.fit)) __builtin_trap();
  if (ok && !same_value(got.value, want.value)) __builtin_trap();
  try {
    const kf_scalar_t v = kf::scalar_to_dtype(s, static_cast<kf_dtype_t>(d), "fuzz", "value");
    if (!ok || !same_value(v, want.value)) __builtin_trap();
  } catch (const kf::Error& e) {
    if (ok || e.status() != KF_INVALID_ARGUMENT) __builtin_trap();
    const std::string msg = e.what();
    if (msg.rfind("fuzz: value", 0) != 0) __builtin_trap();
    const bool named = msg.find(kf_dtype_string(d)) != std::string::npos;
    if (s.tag <= 4 && d < KF_DTYPE_COUNT && !named) __builtin_trap();
  }
}

// float16 bits decoded by hand: sign, 5-bit exponent, 10-bit significand.
double f16_model(uint16_t h) {
  const double sign = (h & 0x8000u) != 0 ? -1.0 : 1.0;
  const int e = (h >> 10) & 31, m = h & 1023;
  if (e == 31) return m != 0 ? NAN : sign * INFINITY;
  return e == 0 ? sign * std::ldexp(m, -24) : sign * std::ldexp(m + 1024, e - 25);
}

void check_elements(uint16_t bits) {
  const kf_scalar_t h = kf::scalar_of_element(&bits, KF_FLOAT16);
  const double want = f16_model(bits);
  if (h.tag != KF_SCALAR_FLOAT64 || !(h.v.f64 == want || (want != want && h.v.f64 != h.v.f64))) {
    __builtin_trap();
  }
  const kf_scalar_t bf = kf::scalar_of_element(&bits, KF_BFLOAT16);
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof f);
  if (!(bf.v.f64 == static_cast<double>(f) || (f != f && bf.v.f64 != bf.v.f64))) __builtin_trap();
  const unsigned char byte = static_cast<unsigned char>(bits);
  const kf_scalar_t b = kf::scalar_of_element(&byte, KF_BOOL);
  if (b.tag != KF_SCALAR_BOOL || b.v.b != (byte != 0)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t in[20] = {};
  // The empty input arrives as a null pointer: memcpy's source must not be null, even for 0 bytes.
  if (size != 0) std::memcpy(in, data, size < sizeof in ? size : sizeof in);
  const int32_t d = in[0] % (KF_DTYPE_COUNT + 2);
  kf_scalar_t s{};
  s.tag = in[1] % 6;
  if (s.tag == KF_SCALAR_BOOL) {
    s.v.b = (in[2] & 1) != 0;
  } else {
    std::memcpy(&s.v.i64, in + 2, 8);  // the float64's bits for a float64 tag, the real part's
    if (s.tag == KF_SCALAR_COMPLEX128) std::memcpy(&s.v.c128.im, in + 12, 8);
  }
  check_rule(s, d);
  uint16_t bits;
  std::memcpy(&bits, in + 10, 2);
  check_elements(bits);
  return 0;
}
