// kernforge/flipped_view.hpp — the view a flip kernel reads: self starting at the last entry of
// every flipped dim and walking that dim with its stride negated. Copying it into the output with
// a backend's strided copy is flip, for any backend whose data pointers take byte arithmetic (host
// memory, CUDA device pointers, OpenCL SVM pointers) and whose offsets are signed. The view
// points into self's memory and nowhere outside it; its strides live in the caller's array.
#pragma once

#include <cstdint>

#include "kernforge/dtypes.hpp"
#include "kernforge/plugin.h"

namespace kf::plugin {

/// self reversed along dims[0..n) (each in [-ndim, ndim) and named once: the core's meta checked
/// them), with its strides written to `strides`. A 0-dim or empty self is returned as it is.
inline kf_tensor_view_t flipped_view(const kf_tensor_view_t& self, const int64_t* dims,
                                     int32_t n, int64_t (&strides)[KF_MAX_NDIM]) {
  kf_tensor_view_t v = self;
  for (int32_t d = 0; d < self.ndim && d < KF_MAX_NDIM; ++d) strides[d] = self.strides[d];
  v.strides = strides;
  if (self.numel == 0 || self.ndim <= 0) return v;
  const int64_t item = static_cast<int64_t>(kf::dtype_bytes(self.dtype));
  char* data = static_cast<char*>(self.data);
  for (int32_t k = 0; k < n; ++k) {
    const int64_t d = dims[k] < 0 ? dims[k] + self.ndim : dims[k];
    data += (self.shape[d] - 1) * strides[d] * item;
    strides[d] = -strides[d];
  }
  v.data = data;
  return v;
}

}  // namespace kf::plugin
