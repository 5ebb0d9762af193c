#include "core/scalar_conversion.hpp"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "core/dtype.hpp"
#include "core/error.hpp"

namespace kf {
namespace {

// No dtype is an unsigned integer of 64 bits, whose maximum an int64 could not hold: the ranges
// below are int64s.
#define KF_NO_UINT64_(suffix, value, name, short_name, bytes, kind) &&!(kind == 'u' && bytes >= 8)
static_assert(true KF_DTYPE_LIST(KF_NO_UINT64_), "an unsigned 64-bit dtype needs a uint64 range");
#undef KF_NO_UINT64_

// The values of an integer dtype: [lo, hi], and `above` = hi + 1 exactly, as a double.
struct IntRange {
  int64_t lo;
  int64_t hi;
  double lo_d;
  double above;
};

IntRange int_range(kf_dtype_t d) noexcept {
  const int bits = static_cast<int>(8 * itemsize(d));
  if (kf_dtype_kind(d) == 'u') {
    return {0, (int64_t{1} << bits) - 1, 0.0, std::ldexp(1.0, bits)};
  }
  const int64_t lo = bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
  const int64_t hi = bits >= 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
  return {lo, hi, -std::ldexp(1.0, bits - 1), std::ldexp(1.0, bits - 1)};
}

ConvertedScalar to_integer(const kf_scalar_t& s, kf_dtype_t d) noexcept {
  const IntRange r = int_range(d);
  if (s.tag == KF_SCALAR_BOOL) return {ScalarFit::fits, kf_scalar_i64(s.v.b ? 1 : 0)};
  if (s.tag == KF_SCALAR_INT64) {
    const bool in = s.v.i64 >= r.lo && s.v.i64 <= r.hi;
    return {in ? ScalarFit::fits : ScalarFit::out_of_range, s};
  }
  const double v = s.v.f64;
  if (!std::isfinite(v)) return {ScalarFit::not_finite, s};
  const double t = std::trunc(v);
  if (t < r.lo_d || t >= r.above) return {ScalarFit::out_of_range, s};
  return {t == v ? ScalarFit::fits : ScalarFit::truncated,
          kf_scalar_i64(static_cast<int64_t>(t))};
}

ConvertedScalar to_floating(const kf_scalar_t& s, kf_dtype_t d) noexcept {
  if (s.tag == KF_SCALAR_BOOL) return {ScalarFit::fits, kf_scalar_f64(s.v.b ? 1.0 : 0.0)};
  const double v = s.tag == KF_SCALAR_INT64 ? static_cast<double>(s.v.i64) : s.v.f64;
  if (std::isfinite(v) && std::fabs(v) > float_dtype_max(d)) {
    return {ScalarFit::out_of_range, s};
  }
  return {ScalarFit::fits, kf_scalar_f64(v)};
}

std::string value_text(const kf_scalar_t& s) {
  if (s.tag == KF_SCALAR_BOOL) return s.v.b ? "True" : "False";
  if (s.tag == KF_SCALAR_INT64) return fmt::format("{}", s.v.i64);
  return fmt::format("{}", s.v.f64);
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
T read(const void* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

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
  if (s.tag != KF_SCALAR_BOOL && s.tag != KF_SCALAR_INT64 && s.tag != KF_SCALAR_FLOAT64) {
    return {ScalarFit::invalid, s};
  }
  if (!is_valid_dtype(dtype)) return {ScalarFit::invalid, s};
  if (dtype == KF_BOOL) {
    const bool b = s.tag == KF_SCALAR_BOOL    ? s.v.b
                   : s.tag == KF_SCALAR_INT64 ? s.v.i64 != 0
                                              : s.v.f64 != 0.0;  // NaN is true
    return {ScalarFit::fits, kf_scalar_bool(b)};
  }
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
      if (is_floating(dtype)) {
        fail(KF_INVALID_ARGUMENT, "{}: {} {} is out of range for {} (largest finite value {})",
             op, what, value_text(s), dtype_name(dtype), float_dtype_max(dtype));
      }
      fail(KF_INVALID_ARGUMENT, "{}: {} {} is out of range for {} ({}..{})", op, what,
           value_text(s), dtype_name(dtype), int_range(dtype).lo, int_range(dtype).hi);
    case ScalarFit::not_finite:
      fail(KF_INVALID_ARGUMENT, "{}: {} {} cannot be converted to {}: an integer dtype holds "
           "no NaN or infinity", op, what, value_text(s), dtype_name(dtype));
    case ScalarFit::invalid:
      break;
  }
  if (!is_valid_dtype(dtype)) {
    fail(KF_INVALID_ARGUMENT, "{}: {} cannot be converted to dtype {}, which is not a dtype", op,
         what, static_cast<int>(dtype));
  }
  fail(KF_INVALID_ARGUMENT, "{}: {} has scalar tag {}, which is not a kf_scalar_tag_t (0 float64, "
       "1 int64, 2 bool)", op, what, s.tag);
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
    } else if constexpr (std::is_integral_v<T>) {
      s = kf_scalar_i64(static_cast<int64_t>(read<T>(p)));
    } else {
      static_assert(!sizeof(T), "a dtype kf_scalar_t cannot hold: decide here");
    }
  });
  return s;
}

}  // namespace kf
