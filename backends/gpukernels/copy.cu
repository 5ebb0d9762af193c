// copy.cu — launch_convert (copy_launch.hpp): one kernel for every pair of dtypes (the pair is
// read at run time, Note [Conversions] in convert.cuh), raw-bit copies for one dtype, and
// cudaMemcpyAsync when a same-dtype copy is dense on both sides. A bool to bool copy converts
// (its bytes are read as != 0 and written as 0 or 1, Note [Bool bytes]), never copies bytes.
#include "convert.cuh"
#include "copy_launch.hpp"
#include "cuda_check.hpp"
#include "device_common.cuh"

namespace kf::cuda {
namespace {

// out (operand 0) = convert(src (operand 1)). `same` copies raw elements of `width` bytes
// (out_dtype == src_dtype: no conversion, NaN payloads kept, as the CPU's copy_bits).
__global__ void convert_kernel(Operands p, int out_dtype, int src_dtype, bool same, int width) {
  void* out = p.data[0];
  const void* src = p.data[1];
  for (int64_t i = global_thread(); i < p.numel; i += grid_stride()) {
    int64_t off[2] = {i, i};
    if (!p.contiguous) offsets<2>(p, i, off);
    if (same) {
      store_bits(out, off[0], width, load_bits(src, off[1], width));
    } else {
      store_number(out, off[0], out_dtype, load_number(src, off[1], src_dtype));
    }
  }
}

/// Whether out and src are the same elements (the in-place case: nothing to do).
bool is_self_copy(const Operands& p) {
  if (p.data[0] != p.data[1]) return false;
  for (int32_t d = 0; d < p.ndim; ++d) {
    if (p.strides[0][d] != p.strides[1][d]) return false;
  }
  return true;
}

}  // namespace

void launch_convert(const Operands& p, int32_t out_dtype, int32_t src_dtype,
                    cudaStream_t stream) {
  if (p.numel == 0) return;
  const bool same = out_dtype == src_dtype && out_dtype != KF_BOOL;
  const int width = dtype_width(out_dtype);
  if (out_dtype == src_dtype && is_self_copy(p)) return;
  if (same && p.contiguous) {
    check(cudaMemcpyAsync(p.data[0], p.data[1], static_cast<size_t>(p.numel) * width,
                          cudaMemcpyDeviceToDevice, stream),
          "copy (cudaMemcpyAsync)");
    return;
  }
  convert_kernel<<<blocks_for(p.numel), kThreads, 0, stream>>>(p, out_dtype, src_dtype, same,
                                                               width);
}

}  // namespace kf::cuda
