// What a meta function computes for one call: the outputs' shapes and
// dtypes, the device, the computation dtype the kernel is picked for, and which tensor inputs
// the core converts to that dtype or broadcasts to the output's shape before the kernel runs.
#pragma once

#include <cstdint>

#include "registry/op_def.hpp"

namespace kf {

struct OutputMeta {
  int32_t ndim = 0;
  int64_t shape[KF_MAX_NDIM];  // the first ndim entries are set by the meta function
  kf_dtype_t dtype = KF_FLOAT32;
};

struct MetaResult {
  int32_t nout = 1;
  OutputMeta out[kMaxOutputs];
  kf_device_t device{KF_DEVICE_CPU, 0};
  kf_dtype_t compute_dtype = KF_FLOAT32;
  uint32_t convert_mask = 0;    // bit per tensor ordinal: convert to compute_dtype
  uint32_t broadcast_mask = 0;  // bit per tensor ordinal: expand to out[0]'s shape
  /// Whether an out= / in-place output of another dtype may be computed directly in that
  /// dtype (arithmetic ops); otherwise the core computes into a temporary and copies.
  bool compute_in_out_dtype = false;
};

}  // namespace kf
