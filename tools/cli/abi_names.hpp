// abi_names.hpp — the words the CLI prints for values of the C ABI. Backend states and kernel
// kinds are named by the C ABI itself (kf_backend_state_name, kf_kernel_kind_name); dtype short
// names come from KF_DTYPE_LIST, so no list is kept here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace kf::cli {

/// The short name of a dtype: float32 -> f32, bfloat16 -> bf16, uint8 -> u8, bool -> bool.
std::string dtype_short_name(kf_dtype_t dtype);
/// The short names of the dtypes whose bit (1u << dtype) is set in `mask`, in enum order.
std::vector<std::string> dtype_short_names(uint32_t mask);
/// Joins `parts` with `sep`.
std::string join(const std::vector<std::string>& parts, const std::string& sep);

}  // namespace kf::cli
