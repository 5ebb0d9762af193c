// Scalars and the values of dtypes: the one rule by which a scalar (kf_scalar_t, a Python or C
// number) becomes a value of a dtype, and one element of a dtype read back as a scalar.
//
// Note [Scalars to dtypes]
// Every op that takes a scalar converts it here, at meta time, so every backend gets the same
// answer and no kernel ever sees a scalar its dtype cannot hold:
//   - bool: any number is `!= 0` (NaN is true); a bool scalar is 0 or 1 in any other dtype;
//   - an integer dtype holds an int64 or uint64 scalar within its range exactly; a float scalar
//     that is finite and whose value truncated toward zero is within the range is truncated
//     (2.75 -> 2, -1.5 -> -1); NaN and the infinities are refused, and so is anything out of
//     range (300 for int8, -1 for uint8, 2^63 for int64, 2^64 for uint64);
//   - a floating dtype holds NaN, the infinities and every finite value up to its largest
//     finite value in magnitude, rounded to nearest by the kernel; a larger finite value (1e10
//     for float16, 1e300 for float32, the int64 100000 for float16) is refused;
//   - a complex dtype holds any real scalar as (x, 0) and a complex one when each part is within
//     the range of its parts' floating dtype (float32 for complex64);
//   - a complex scalar whose imaginary part is not zero is refused by every real dtype but bool
//     (numpy would drop the imaginary part with a warning); with a zero imaginary part it is its
//     real part.
// A refusal is KF_INVALID_ARGUMENT naming the op, the argument, the value and the dtype's range,
// e.g. "full: fill_value 300 is out of range for int8 (-128..127)". The fuzz target
// tests/fuzz/fuzz_scalars.cpp checks convert_scalar against a model in exact arithmetic.
#pragma once

#include <cstdint>

#include "kernforge/types.h"

namespace kf {

/// What convert_scalar made of a scalar; the first two are values of the dtype.
enum class ScalarFit : int32_t {
  fits = 0,      // held as it is (rounded to nearest for a floating dtype, != 0 for bool)
  truncated,     // a float with a fraction, for an integer dtype: truncated toward zero
  out_of_range,  // beyond the dtype's range: refused
  not_finite,    // NaN or an infinity for an integer dtype: refused
  complex_to_real,  // a complex value whose imaginary part is not zero, for a real dtype: refused
  invalid,       // not a scalar tag kernforge defines, or not a dtype: refused
};

struct ConvertedScalar {
  ScalarFit fit = ScalarFit::invalid;
  /// The dtype's value when it fits: an int64 scalar for an integer dtype (a uint64 one above
  /// int64's maximum), a float64 one for a floating dtype (before the dtype's rounding), a
  /// complex128 one for a complex dtype, a bool one for bool. Otherwise the input.
  kf_scalar_t value{};
};

inline bool representable(ScalarFit f) noexcept {
  return f == ScalarFit::fits || f == ScalarFit::truncated;
}

/// Note [Scalars to dtypes]: `s` as a value of `dtype`, or why it is not one. Pure, no throw.
ConvertedScalar convert_scalar(const kf_scalar_t& s, kf_dtype_t dtype) noexcept;

/// convert_scalar's value, or kf::Error(KF_INVALID_ARGUMENT) "<op>: <what> <value> is out of
/// range for <dtype> (<range>)" (or cannot be converted, for NaN and infinities).
kf_scalar_t scalar_to_dtype(const kf_scalar_t& s, kf_dtype_t dtype, const char* op,
                            const char* what);

/// A scalar's value as a double: int64 and uint64 rounded to nearest, bool 0 or 1, a complex
/// one's real part (callers that must not drop an imaginary part check the tag first).
double scalar_as_double(const kf_scalar_t& s) noexcept;

/// The largest finite value of a floating dtype (0 for any other).
double float_dtype_max(kf_dtype_t dtype) noexcept;

/// One element of `dtype` at `p` as a scalar: float64 for floating dtypes, complex128 for
/// complex ones, int64 for integer ones (uint64 above int64's maximum), and bool for bool, read
/// as a byte `!= 0` (Note [Bool bytes]).
kf_scalar_t scalar_of_element(const void* p, kf_dtype_t dtype) noexcept;

}  // namespace kf
