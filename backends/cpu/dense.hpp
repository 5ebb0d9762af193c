// dense.hpp — whether a kernel view is laid out row-major without gaps (size-1 dims may have
// any stride), for kernels with a flat fast path (random_kernels.cpp, index_kernels.cpp).
#pragma once

#include <cstdint>

#include "kernforge/plugin.h"

namespace kf::cpu {

inline bool is_dense(const kf_tensor_view_t& v) {
  int64_t expected = 1;
  for (int32_t d = v.ndim - 1; d >= 0; --d) {
    if (v.shape[d] != 1 && v.strides[d] != expected) return false;
    expected *= v.shape[d];
  }
  return true;
}

}  // namespace kf::cpu
