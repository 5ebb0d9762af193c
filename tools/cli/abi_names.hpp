// abi_names.hpp — the words the CLI prints for values of the C ABI (backend states, kernel
// kinds, dtypes). Dtype names come from kf_dtype_name, so no dtype list is kept here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace kf::cli {

/// "loaded", "unavailable", "rejected", "shadowed".
const char* backend_state_name(int32_t state);
/// "backend", "composite", "view", "fallback", "none".
const char* kernel_kind_name(int32_t kind);
/// The short name of a dtype: float32 -> f32, bfloat16 -> bf16, uint8 -> u8, bool -> bool.
std::string dtype_short_name(kf_dtype_t dtype);
/// The short names of the dtypes whose bit (1u << dtype) is set in `mask`, in enum order.
std::vector<std::string> dtype_short_names(uint32_t mask);
/// Joins `parts` with `sep`.
std::string join(const std::vector<std::string>& parts, const std::string& sep);

}  // namespace kf::cli
