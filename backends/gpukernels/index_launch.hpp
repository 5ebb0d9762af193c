// index_launch.hpp — the launchers of index_select and gather (index.cu) and of the check of
// their indices. Plain C++: shared by index_ops.cpp (g++) and index.cu (nvcc). Shapes and
// strides are in elements; the element moves are raw copies of `width` bytes (1, 2, 4 or 8),
// so the kernels are instantiated per width, not per dtype; bool bytes are written as != 0.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>

#include "kernforge/plugin.h"

namespace kf::cuda {

/// An index tensor (int32 or int64, any shape and strides) checked against 0..size-1.
struct IndexCheck {
  const void* data = nullptr;
  int32_t dtype = 0;  // KF_INT32 or KF_INT64
  int32_t ndim = 0;
  int64_t numel = 0;
  int64_t size = 0;
  int64_t shape[KF_MAX_NDIM] = {};
  int64_t strides[KF_MAX_NDIM] = {};
  unsigned long long* first_bad = nullptr;  // device memory, set to ~0 by the caller
};

/// Queues the check: *first_bad becomes the smallest row-major position of an index outside
/// 0..size-1 (atomicMin), and stays ~0 when there is none. Nothing for no element.
void launch_index_check(const IndexCheck& c, cudaStream_t stream);

/// index_select: out = self with positions index[j] along dim. `dense`: out and self are
/// row-major contiguous, seen as [outer, count, inner] and [outer, size, inner].
struct IndexSelectLaunch {
  void* out = nullptr;
  const void* self = nullptr;
  const void* index = nullptr;
  int32_t index_dtype = 0;  // KF_INT32 or KF_INT64
  int32_t width = 0;
  int32_t ndim = 0;  // of self and out (0: one element)
  int32_t dim = 0;
  int32_t dense = 0;
  int32_t bool_elements = 0;  // bool: each byte written as != 0 (Note [Bool bytes])
  int64_t numel = 0;  // of out
  int64_t index_stride = 0;
  int64_t outer = 1, count = 0, size = 0, inner = 1;
  int64_t shape[KF_MAX_NDIM] = {};  // out's
  int64_t out_strides[KF_MAX_NDIM] = {};
  int64_t self_strides[KF_MAX_NDIM] = {};
};
void launch_index_select(const IndexSelectLaunch& l, cudaStream_t stream);

/// gather: out[p] = self[p with its dim coordinate replaced by index[p]] over index's shape
/// (the CPU's GatherGeom: a 0-dim tensor is one dim of size 1 with stride 0).
struct GatherLaunch {
  void* out = nullptr;
  const void* self = nullptr;
  const int64_t* index = nullptr;
  int32_t width = 0;
  int32_t ndim = 0;
  int32_t dim = 0;
  int32_t bool_elements = 0;  // bool: each byte written as != 0 (Note [Bool bytes])
  int64_t numel = 0;
  int64_t size = 0;  // self's size along dim
  int64_t shape[KF_MAX_NDIM] = {};  // index's (and out's)
  int64_t index_strides[KF_MAX_NDIM] = {};
  int64_t out_strides[KF_MAX_NDIM] = {};
  int64_t self_strides[KF_MAX_NDIM] = {};
};
void launch_gather(const GatherLaunch& l, cudaStream_t stream);

}  // namespace kf::cuda
