#include "core/scalar_conversion.hpp"

#include <cfloat>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "core/dtype.hpp"
#include "core/error.hpp"

namespace kf {
namespace {

// The values of an integer dtype: [lo, hi], and `above` = hi + 1 exactly, as a double. hi is
// a uint64 so that uint64's 2^64 - 1 fits; lo an int64 (0 for the unsigned ones).
struct IntRange {
  int64_t lo;
  uint64_t hi;
  double lo_d;
  double above;
};

IntRange int_range(kf_dtype_t d) noexcept {
  const int bits = static_cast<int>(8 * itemsize(d));
  if (kf_dtype_kind(d) == 'u') {
    const uint64_t hi = bits >= 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
    return {0, hi, 0.0, std::ldexp(1.0, bits)};
  }
  const int64_t lo = bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
  const uint64_t hi = bits >= 64 ? uint64_t{INT64_MAX} : (uint64_t{1} << (bits - 1)) - 1;
  return {lo, hi, -std::ldexp(1.0, bits - 1), std::ldexp(1.0, bits - 1)};
}

/// An integer value as a scalar: int64 when it fits one, else uint64.
kf_scalar_t integer_scalar(uint64_t magnitude, bool negative) noexcept {
  if (negative) return kf_scalar_i64(static_cast<int64_t>(uint64_t{0} - magnitude));
  if (magnitude <= uint64_t{INT64_MAX}) return kf_scalar_i64(static_cast<int64_t>(magnitude));
  return kf_scalar_u64(magnitude);
}

ConvertedScalar float_to_integer(const kf_scalar_t& s, double v, const IntRange& r) noexcept {
  if (!std::isfinite(v)) return {ScalarFit::not_finite, s};
  const double t = std::trunc(v);
  if (t < r.lo_d || t >= r.above) return {ScalarFit::out_of_range, s};
  const bool negative = t < 0;
  const kf_scalar_t value = integer_scalar(static_cast<uint64_t>(std::fabs(t)), negative);
  return {t == v ? ScalarFit::fits : ScalarFit::truncated, value};
}

ConvertedScalar to_integer(const kf_scalar_t& s, kf_dtype_t d) noexcept {
  const IntRange r = int_range(d);
  switch (s.tag) {
    case KF_SCALAR_BOOL: return {ScalarFit::fits, kf_scalar_i64(s.v.b ? 1 : 0)};
    case KF_SCALAR_INT64: {
      const bool in = s.v.i64 >= r.lo && (s.v.i64 < 0 || static_cast<uint64_t>(s.v.i64) <= r.hi);
      return {in ? ScalarFit::fits : ScalarFit::out_of_range, s};
    }
    case KF_SCALAR_UINT64:
      return {s.v.u64 <= r.hi ? ScalarFit::fits : ScalarFit::out_of_range,
              integer_scalar(s.v.u64, false)};
    case KF_SCALAR_COMPLEX128:
      if (s.v.c128.im != 0.0) return {ScalarFit::complex_to_real, s};
      return float_to_integer(s, s.v.c128.re, r);
    default: return float_to_integer(s, s.v.f64, r);
  }
}

/// A finite part beyond the largest finite value of `part` (a real floating dtype).
bool beyond(double v, kf_dtype_t part) noexcept {
  return std::isfinite(v) && std::fabs(v) > float_dtype_max(part);
}

ConvertedScalar to_floating(const kf_scalar_t& s, kf_dtype_t d) noexcept {
  double v = scalar_as_double(s);
  if (s.tag == KF_SCALAR_COMPLEX128) {
    if (s.v.c128.im != 0.0) return {ScalarFit::complex_to_real, s};
    v = s.v.c128.re;
  }
  if (beyond(v, d)) return {ScalarFit::out_of_range, s};
  return {ScalarFit::fits, kf_scalar_f64(v)};
}

ConvertedScalar to_complex(const kf_scalar_t& s, kf_dtype_t d) noexcept {
  const kf_scalar_t z =
      s.tag == KF_SCALAR_COMPLEX128 ? s : kf_scalar_c128(scalar_as_double(s), 0.0);
  const kf_dtype_t part = complex_part_dtype(d);
  if (beyond(z.v.c128.re, part) || beyond(z.v.c128.im, part)) {
    return {ScalarFit::out_of_range, s};
  }
  return {ScalarFit::fits, z};
}

bool nonzero(const kf_scalar_t& s) noexcept {
  switch (s.tag) {
    case KF_SCALAR_BOOL: return s.v.b;
    case KF_SCALAR_INT64: return s.v.i64 != 0;
    case KF_SCALAR_UINT64: return s.v.u64 != 0;
    case KF_SCALAR_COMPLEX128: return s.v.c128.re != 0.0 || s.v.c128.im != 0.0;  // NaN is true
    default: return s.v.f64 != 0.0;  // NaN is true
  }
}

bool known_tag(int32_t tag) noexcept {
  return tag == KF_SCALAR_FLOAT64 || tag == KF_SCALAR_INT64 || tag == KF_SCALAR_BOOL ||
         tag == KF_SCALAR_UINT64 || tag == KF_SCALAR_COMPLEX128;
}

std::string value_text(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_BOOL: return s.v.b ? "True" : "False";
    case KF_SCALAR_INT64: return fmt::format("{}", s.v.i64);
    case KF_SCALAR_UINT64: return fmt::format("{}", s.v.u64);
    case KF_SCALAR_COMPLEX128:
      return fmt::format("({}{}{}j)", s.v.c128.re, std::signbit(s.v.c128.im) ? "" : "+",
                         s.v.c128.im);
    default: return fmt::format("{}", s.v.f64);
  }
}

std::string range_text(kf_dtype_t d) {
  if (is_integral(d, false)) return fmt::format("{}..{}", int_range(d).lo, int_range(d).hi);
  const kf_dtype_t part = is_complex_dtype(d) ? complex_part_dtype(d) : d;
  return fmt::format("largest finite {}value {}", is_complex_dtype(d) ? "part " : "",
                     float_dtype_max(part));
}

float f16_bits_to_float(uint16_t h) noexcept {
  const float sign = (h & 0x8000u) != 0 ? -1.0f : 1.0f;
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(static_cast<float>(mant), -24);
  if (exp == 31) return mant != 0 ? NAN : sign * INFINITY;
  return sign * std::ldexp(static_cast<float>(mant | 0x400), exp - 25);
}

template <class T>
struct is_complex_element : std::false_type {};
template <class F>
struct is_complex_element<std::complex<F>> : std::true_type {};

template <class T>
T read(const void* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

double scalar_as_double(const kf_scalar_t& s) noexcept {
  switch (s.tag) {
    case KF_SCALAR_BOOL: return s.v.b ? 1.0 : 0.0;
    case KF_SCALAR_INT64: return static_cast<double>(s.v.i64);
    case KF_SCALAR_UINT64: return static_cast<double>(s.v.u64);
    case KF_SCALAR_COMPLEX128: return s.v.c128.re;
    default: return s.v.f64;
  }
}

double float_dtype_max(kf_dtype_t dtype) noexcept {
  double max = 0.0;
  for_each_dtype([&](auto tag) {
    using T = typename decltype(tag)::type;
    if (tag.kDtype != dtype) return;
    if constexpr (std::is_same_v<T, Half>) {
      max = 65504.0;  // 0x7BFF: (2 - 2^-10) * 2^15
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      max = 3.3895313892515355e38;  // 0x7F7F: (2 - 2^-7) * 2^127
    } else if constexpr (std::is_floating_point_v<T>) {
      max = static_cast<double>(std::numeric_limits<T>::max());
    }
  });
  return max;
}

ConvertedScalar convert_scalar(const kf_scalar_t& s, kf_dtype_t dtype) noexcept {
  if (!known_tag(s.tag) || !is_valid_dtype(dtype)) return {ScalarFit::invalid, s};
  if (dtype == KF_BOOL) return {ScalarFit::fits, kf_scalar_bool(nonzero(s))};
  if (is_complex_dtype(dtype)) return to_complex(s, dtype);
  return is_floating(dtype) ? to_floating(s, dtype) : to_integer(s, dtype);
}

kf_scalar_t scalar_to_dtype(const kf_scalar_t& s, kf_dtype_t dtype, const char* op,
                            const char* what) {
  const ConvertedScalar c = convert_scalar(s, dtype);
  switch (c.fit) {
    case ScalarFit::fits:
    case ScalarFit::truncated:
      return c.value;
    case ScalarFit::out_of_range:
      fail(KF_INVALID_ARGUMENT, "{}: {} {} is out of range for {} ({})", op, what,
           value_text(s), dtype_name(dtype), range_text(dtype));
    case ScalarFit::not_finite:
      fail(KF_INVALID_ARGUMENT, "{}: {} {} cannot be converted to {}: an integer dtype holds "
           "no NaN or infinity", op, what, value_text(s), dtype_name(dtype));
    case ScalarFit::complex_to_real:
      fail(KF_INVALID_ARGUMENT, "{}: {} {} cannot be converted to {}: its imaginary part is not "
           "zero (use a complex dtype, or pass the real part)", op, what, value_text(s),
           dtype_name(dtype));
    case ScalarFit::invalid:
      break;
  }
  if (!is_valid_dtype(dtype)) {
    fail(KF_INVALID_ARGUMENT, "{}: {} cannot be converted to dtype {}, which is not a dtype", op,
         what, static_cast<int>(dtype));
  }
  fail(KF_INVALID_ARGUMENT, "{}: {} has scalar tag {}, which is not a kf_scalar_tag_t (0 float64, "
       "1 int64, 2 bool, 3 uint64, 4 complex128)", op, what, s.tag);
}

kf_scalar_t scalar_of_element(const void* p, kf_dtype_t dtype) noexcept {
  kf_scalar_t s = kf_scalar_i64(0);
  for_each_dtype([&](auto tag) {
    using T = typename decltype(tag)::type;
    if (tag.kDtype != dtype) return;
    if constexpr (std::is_same_v<T, bool>) {
      s = kf_scalar_bool(read<uint8_t>(p) != 0);  // Note [Bool bytes]: any byte != 0 is true
    } else if constexpr (std::is_same_v<T, Half>) {
      s = kf_scalar_f64(f16_bits_to_float(read<T>(p).bits));
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      const uint32_t bits = static_cast<uint32_t>(read<T>(p).bits) << 16;
      s = kf_scalar_f64(read<float>(&bits));
    } else if constexpr (std::is_floating_point_v<T>) {
      s = kf_scalar_f64(static_cast<double>(read<T>(p)));
    } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
      s = integer_scalar(static_cast<uint64_t>(read<T>(p)), false);
    } else if constexpr (std::is_integral_v<T>) {
      s = kf_scalar_i64(static_cast<int64_t>(read<T>(p)));
    } else if constexpr (is_complex_element<T>::value) {
      const T z = read<T>(p);
      s = kf_scalar_c128(static_cast<double>(z.real()), static_cast<double>(z.imag()));
    } else {
      static_assert(!sizeof(T), "a dtype kf_scalar_t cannot hold: decide here");
    }
  });
  return s;
}

}  // namespace kf
