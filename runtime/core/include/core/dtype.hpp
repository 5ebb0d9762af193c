// Dtype facts (all derived from KF_DTYPE_LIST in kernforge/types.h, through the SDK's
// kernforge/dtypes.hpp) and PyTorch's type promotion, used by the meta functions.
#pragma once

#include <cstddef>

#include "kernforge/dtypes.hpp"
#include "kernforge/types.h"

namespace kf {

inline bool is_valid_dtype(kf_dtype_t d) noexcept { return d >= 0 && d < KF_DTYPE_COUNT; }
inline bool is_floating(kf_dtype_t d) noexcept { return is_floating_dtype(d); }
/// Floating point or complex (numpy's "inexact"): the dtypes that hold a fraction.
inline bool is_inexact(kf_dtype_t d) noexcept {
  return is_floating_dtype(d) || is_complex_dtype(d);
}
inline bool is_integral(kf_dtype_t d, bool include_bool) noexcept {
  return is_integer_dtype(d) || (include_bool && dtype_kind(d) == 'b');
}
/// Bytes per element (0 for an invalid dtype). Inline: it is on every tensor's hot path.
inline size_t itemsize(kf_dtype_t d) noexcept { return dtype_bytes(d); }
/// "float32", ... or "undefined".
inline const char* dtype_name(kf_dtype_t d) noexcept { return dtype_text(d); }

/// The dtype named `name` ("float32" or "f32"), or KF_DTYPE_UNDEFINED.
kf_dtype_t dtype_from_name(const char* name) noexcept;
/// "float32, float64, ..." (for messages).
const char* dtype_names() noexcept;

/// PyTorch's promote_types for two dtypes (the standard's table where it has one), by the rule
/// in dtype.cpp over the dtypes' kinds and bytes; KF_DTYPE_UNDEFINED when no dtype holds both.
/// An undefined operand is the identity.
kf_dtype_t promote(kf_dtype_t a, kf_dtype_t b) noexcept;

/// Whether a value of `from` may be written to `to` (PyTorch's can_cast: no float -> integral,
/// no non-bool -> bool).
bool can_cast(kf_dtype_t from, kf_dtype_t to) noexcept;

/// The dtype a Scalar takes when it decides the dtype: bool, int64, uint64 (an integer beyond
/// int64), float32 or complex64 (the defaults' complex).
kf_dtype_t scalar_default_dtype(const kf_scalar_t& s) noexcept;

/// The real floating dtype of a complex dtype's parts (float32 for complex64), or
/// KF_DTYPE_UNDEFINED when `complex` is not a complex dtype.
kf_dtype_t complex_part_dtype(kf_dtype_t complex) noexcept;

/// Category order used by result_type: bool < integral < floating < complex.
int dtype_category(kf_dtype_t d) noexcept;

}  // namespace kf
