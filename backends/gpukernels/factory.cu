// factory.cu — the fill-like kernels of factory_launch.hpp. The dtype is read at run time: a
// fill writes bits converted once on the host (encode_number), arange and linspace convert
// each value with store_number (convert.cuh), so no kernel here is instantiated per dtype.
//
// Note [No contraction]
// nvcc contracts a * b + c into one fused multiply-add by default, which rounds once where the
// CPU backend (compiled without FMA) rounds twice. arange and linspace must give the CPU's
// values exactly, so their double arithmetic uses __dmul_rn / __dadd_rn / __dsub_rn, which are
// never contracted.
#include "convert.cuh"
#include "cuda_check.hpp"
#include "device_common.cuh"
#include "factory_launch.hpp"

namespace kf::cuda {
namespace {

__global__ void fill_kernel(Operands p, int width, uint64_t bits) {
  void* out = p.data[0];
  for (int64_t i = global_thread(); i < p.numel; i += grid_stride()) {
    int64_t off[1] = {i};
    if (!p.contiguous) offsets<1>(p, i, off);
    store_bits(out, off[0], width, bits);
  }
}

__global__ void arange_kernel(ArangeLaunch a) {
  for (int64_t i = global_thread(); i < a.n; i += grid_stride()) {
    Number v;
    if (a.integral) {  // wraps: unsigned arithmetic, then the int64 of its bits
      const uint64_t u = static_cast<uint64_t>(a.start_i) +
                         static_cast<uint64_t>(i) * static_cast<uint64_t>(a.step_i);
      v = int_number(static_cast<int64_t>(u));
    } else {
      v = float_number(__dadd_rn(a.start_f, __dmul_rn(static_cast<double>(i), a.step_f)));
    }
    store_number(a.data, i * a.stride, a.dtype, v);
  }
}

__global__ void linspace_kernel(LinspaceLaunch a) {
  const int64_t half = a.n / 2;
  for (int64_t i = global_thread(); i < a.n; i += grid_stride()) {
    double v;
    if (a.n == 1) {
      v = a.start;
    } else if (i < half) {
      v = __dadd_rn(a.start, __dmul_rn(a.step, static_cast<double>(i)));
    } else {
      v = __dsub_rn(a.end, __dmul_rn(a.step, static_cast<double>(a.n - 1 - i)));
    }
    store_number(a.data, i * a.stride, a.dtype, float_number(v));
  }
}

__global__ void eye_kernel(EyeLaunch a, int width, uint64_t one) {
  const int64_t numel = a.rows * a.cols;
  for (int64_t i = global_thread(); i < numel; i += grid_stride()) {
    const int64_t r = i / a.cols, c = i % a.cols;
    store_bits(a.data, r * a.row_stride + c * a.col_stride, width, r == c ? one : 0u);
  }
}

/// Whether the low `width` bytes of `bits` are one byte repeated (a memset can write them).
bool repeated_byte(uint64_t bits, int width) {
  const uint64_t b = bits & 0xFFu;
  for (int k = 1; k < width; ++k) {
    if (((bits >> (8 * k)) & 0xFFu) != b) return false;
  }
  return true;
}

}  // namespace

void launch_fill(const Operands& p, int32_t dtype, const Number& value, cudaStream_t stream) {
  if (p.numel == 0) return;
  const int width = dtype_width(dtype);
  const uint64_t bits = encode_number(dtype, value);
  if (p.contiguous && repeated_byte(bits, width)) {
    check(cudaMemsetAsync(p.data[0], static_cast<int>(bits & 0xFFu),
                          static_cast<size_t>(p.numel) * width, stream),
          "fill (cudaMemsetAsync)");
    return;
  }
  fill_kernel<<<blocks_for(p.numel), kThreads, 0, stream>>>(p, width, bits);
}

void launch_arange(const ArangeLaunch& a, cudaStream_t stream) {
  if (a.n == 0) return;
  arange_kernel<<<blocks_for(a.n), kThreads, 0, stream>>>(a);
}

void launch_linspace(const LinspaceLaunch& a, cudaStream_t stream) {
  if (a.n == 0) return;
  linspace_kernel<<<blocks_for(a.n), kThreads, 0, stream>>>(a);
}

void launch_eye(const EyeLaunch& a, cudaStream_t stream) {
  if (a.rows == 0 || a.cols == 0) return;
  eye_kernel<<<blocks_for(a.rows * a.cols), kThreads, 0, stream>>>(
      a, dtype_width(a.dtype), encode_number(a.dtype, int_number(1)));
}

}  // namespace kf::cuda
