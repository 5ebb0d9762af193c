// Fuzz target for the one rule by which a scalar becomes a value of a dtype (Note [Scalars to
// dtypes], runtime/core/scalar_conversion.hpp): random (dtype, tag, 8 value bytes) through
// convert_scalar and scalar_to_dtype, checked against an independent model in exact integer
// arithmetic: a float's integer part is taken as a sign and a uint64 magnitude (or "at least
// 2^64"), compared with each dtype's range written out by hand; a floating dtype's largest
// finite value is built from its significand and exponent. Representable means exact or
// truncated toward zero; anything else must be refused with KF_INVALID_ARGUMENT naming the
// dtype. Two more bytes check scalar_of_element's reading of float16, bfloat16 and bool.
//
// Input: byte 0 the dtype (mod 12: 10 and 11 are not dtypes), byte 1 the tag (mod 4: 3 is not
// a tag), bytes 2..9 the int64 or float64 payload, bytes 10..11 an element's bits.
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
  double max;        // floats: the largest finite value
};

bool range_of(int32_t d, Range& r) {
  r = Range{};
  switch (d) {
    case KF_INT8: r = {true, false, 128, 127, 0}; return true;
    case KF_UINT8: r = {true, false, 0, 255, 0}; return true;
    case KF_INT16: r = {true, false, 32768, 32767, 0}; return true;
    case KF_INT32: r = {true, false, 2147483648u, 2147483647u, 0}; return true;
    case KF_INT64: r = {true, false, 9223372036854775808u, 9223372036854775807u, 0}; return true;
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

// An integer given as sign and magnitude, into an integer range.
Expected int_model(bool neg, uint64_t mag, const Range& r, ScalarFit fits) {
  const bool in = neg ? mag <= r.neg_mag : mag <= r.pos;
  if (!in) return {ScalarFit::out_of_range, {}};
  const uint64_t bits = neg ? uint64_t{0} - mag : mag;
  int64_t v;
  std::memcpy(&v, &bits, sizeof v);
  return {fits, kf_scalar_i64(v)};
}

Expected model(const kf_scalar_t& s, int32_t d) {
  Range r;
  if (s.tag < 0 || s.tag > 2 || !range_of(d, r)) return {ScalarFit::invalid, {}};
  if (r.is_bool) {
    const bool b = s.tag == KF_SCALAR_BOOL ? s.v.b : s.tag == KF_SCALAR_INT64 ? s.v.i64 != 0
                                                    : !(s.v.f64 == 0.0);
    return {ScalarFit::fits, kf_scalar_bool(b)};
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
  if (!r.is_int) {
    if (f != f || f == INFINITY || f == -INFINITY) return {ScalarFit::fits, s};
    return {std::fabs(f) <= r.max ? ScalarFit::fits : ScalarFit::out_of_range, s};
  }
  if (f != f || f == INFINITY || f == -INFINITY) return {ScalarFit::not_finite, {}};
  double whole = 0;
  const double frac = std::modf(f, &whole);
  const double a = std::fabs(whole);
  if (a >= 18446744073709551616.0) return {ScalarFit::out_of_range, {}};  // 2^64
  return int_model(whole < 0, static_cast<uint64_t>(a), r,
                   frac != 0.0 ? ScalarFit::truncated : ScalarFit::fits);
}

bool same_value(const kf_scalar_t& a, const kf_scalar_t& b) {
  if (a.tag != b.tag) return false;
  if (a.tag == KF_SCALAR_BOOL) return a.v.b == b.v.b;
  if (a.tag == KF_SCALAR_INT64) return a.v.i64 == b.v.i64;
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
    if (s.tag <= 2 && d < KF_DTYPE_COUNT && !named) __builtin_trap();
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
  uint8_t in[12] = {};
  // The empty input arrives as a null pointer: memcpy's source must not be null, even for 0 bytes.
  if (size != 0) std::memcpy(in, data, size < sizeof in ? size : sizeof in);
  const int32_t d = in[0] % 12;
  kf_scalar_t s{};
  s.tag = in[1] % 4;
  if (s.tag == KF_SCALAR_BOOL) {
    s.v.b = (in[2] & 1) != 0;
  } else {
    std::memcpy(&s.v.i64, in + 2, 8);  // the float64's bits for a float64 tag
  }
  check_rule(s, d);
  uint16_t bits;
  std::memcpy(&bits, in + 10, 2);
  check_elements(bits);
  return 0;
}
