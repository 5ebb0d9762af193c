// view_layout.hpp — the tensor views the solver and FFT glue copies through (the shared
// launch_convert of copy_launch.hpp, which copies any strides and broadcasts): pure host
// arithmetic, unit-tested without a GPU (tests/cuda).
#pragma once

#include <cstdint>
#include <vector>

namespace kf::cuda {

/// A view's shape, strides (in elements) and dtype, owned.
struct ViewLayout {
  std::vector<int64_t> shape, strides;
  int32_t dtype = 0;
};

/// The same elements as raw bits of a dtype launch_convert copies: complex64 as float64 (one
/// 8-byte element each), complex128 as float64 with a last dim of 2 (stride 1, the other
/// strides doubled), the rest as they are. Throws KernelError (KF_UNIMPLEMENTED) when the extra
/// dim would exceed KF_MAX_NDIM.
ViewLayout as_bits(const ViewLayout& v);

/// The strides that read a tensor of `shape` / `strides` broadcast to `target` (aligned on the
/// right; a missing or size-1 dim against a larger one steps 0).
std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& shape,
                                       const std::vector<int64_t>& strides,
                                       const std::vector<int64_t>& target);

/// A dense batch of rows x cols matrices with batch dims `batch_shape` (one matrix after the
/// other), each column-major (element (i, j) at i + j * rows) or row-major (i * cols + j).
ViewLayout matrix_batch(const std::vector<int64_t>& batch_shape, int64_t rows, int64_t cols,
                        bool column_major, int32_t dtype);

/// A dense row-major tensor of `shape`.
ViewLayout dense_layout(const std::vector<int64_t>& shape, int32_t dtype);

/// The product of `shape`'s entries (1 for none).
int64_t product_of(const std::vector<int64_t>& shape);

}  // namespace kf::cuda
