// copy_elements.hpp — the element copy behind copy_ and to_dtype (copy_kernels.cpp), shared with
// the kernels that move data through a view of their own making (flip reads self through negated
// strides). out may be any strided view; src has out's shape (or broadcasts to it), any strides,
// negative ones included.
#pragma once

#include "kernforge/plugin.h"

namespace kf::cpu {

/// out = convert(src), for any pair of dtypes; same-dtype copies move raw bits (bool normalised
/// to 0 or 1). Throws KernelError naming `op` for a dtype it does not know.
void copy_elements(const kf_tensor_view_t& out, const kf_tensor_view_t& src, const char* op);

}  // namespace kf::cpu
