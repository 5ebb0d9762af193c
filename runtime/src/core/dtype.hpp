// Dtype facts and PyTorch's type promotion, used by the meta functions.
#pragma once

#include <cstddef>

#include "kernforge/types.h"

namespace kf {

bool is_valid_dtype(kf_dtype_t d) noexcept;
bool is_floating(kf_dtype_t d) noexcept;
bool is_integral(kf_dtype_t d, bool include_bool) noexcept;
/// Bytes per element (0 for an invalid dtype). Inline: it is on every tensor's hot path.
inline size_t itemsize(kf_dtype_t d) noexcept {
  static constexpr unsigned char kSizes[KF_DTYPE_COUNT] = {4, 8, 2, 2, 1, 1, 2, 4, 8, 1};
  return d >= 0 && d < KF_DTYPE_COUNT ? kSizes[d] : 0;
}
const char* dtype_name(kf_dtype_t d) noexcept;

/// PyTorch's promote_types for two dtypes.
kf_dtype_t promote(kf_dtype_t a, kf_dtype_t b) noexcept;

/// Whether a value of `from` may be written to `to` (PyTorch's can_cast: no float -> integral,
/// no non-bool -> bool).
bool can_cast(kf_dtype_t from, kf_dtype_t to) noexcept;

/// The dtype a Scalar takes when it decides the dtype (bool, int64, float32).
kf_dtype_t scalar_default_dtype(const kf_scalar_t& s) noexcept;

/// Category order used by result_type: bool < integral < floating.
int dtype_category(kf_dtype_t d) noexcept;

}  // namespace kf
