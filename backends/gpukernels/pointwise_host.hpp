// pointwise_host.hpp — the checks the host glue of the pointwise op families (unary_ops.cpp,
// rounding_ops.cpp, binary_ops.cpp, compare_ops.cpp) makes before it launches: the dtypes the
// core handed over are the ones promised, and the dtype is one the op was registered for.
// Host only (g++); the kernels never see it.
#pragma once

#include <cstdint>
#include <string>

#include "kernforge/plugin.hpp"
#include "pointwise_common.hpp"

namespace kf::cuda::pointwise {

/// Throws KF_INTERNAL when the core handed over a tensor of another dtype than promised (the
/// core converts pointwise inputs to the computation dtype; the CPU backend checks the same).
inline void require_dtype(const kf_tensor_view_t& v, int32_t dtype, const char* what,
                          const char* op) {
  if (v.dtype != dtype) {
    throw kf::plugin::KernelError(
        KF_INTERNAL, std::string(what) + " has dtype " + kf_dtype_string(v.dtype) + ", expected " +
                         kf_dtype_string(dtype) + " (" KF_GPU_VENDOR " " + op + ")");
  }
}

/// Throws KF_UNIMPLEMENTED when `dtype` is not in `mask` (the op's registration mask), as the
/// CPU backend's dispatch does.
inline void require_supported(int32_t dtype, uint32_t mask, const char* op) {
  if (dtype < 0 || dtype >= KF_DTYPE_COUNT || (mask & dtype_bit(dtype)) == 0u) {
    throw kf::plugin::KernelError(KF_UNIMPLEMENTED, std::string("dtype ") + kf_dtype_string(dtype) +
                                                        " is not supported by " KF_GPU_VENDOR " " +
                                                        op);
  }
}

}  // namespace kf::cuda::pointwise
