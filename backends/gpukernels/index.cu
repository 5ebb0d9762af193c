// index.cu — index_select, gather and the check of their indices (index_launch.hpp). The
// element kernels copy raw elements of one width (W = uint8_t .. uint64_t), so four
// instantiations serve all ten dtypes. They run after the indices were checked (index_ops.cpp)
// and still skip an index outside the dim, so no launch ever reads outside self.
#include <cstdint>

#include "device_common.cuh"
#include "index_launch.hpp"

namespace kf::cuda {
namespace {

__device__ __forceinline__ int64_t read_index(const void* index, int32_t dtype, int64_t off) {
  return dtype == KF_INT32 ? static_cast<int64_t>(static_cast<const int32_t*>(index)[off])
                           : static_cast<const int64_t*>(index)[off];
}

__global__ void index_check_kernel(IndexCheck c) {
  for (int64_t i = global_thread(); i < c.numel; i += grid_stride()) {
    int64_t rem = i, off = 0;
    for (int32_t d = c.ndim - 1; d >= 0; --d) {
      off += (rem % c.shape[d]) * c.strides[d];
      rem /= c.shape[d];
    }
    const int64_t v = read_index(c.data, c.dtype, off);
    if (v < 0 || v >= c.size) atomicMin(c.first_bad, static_cast<unsigned long long>(i));
  }
}

template <class W>
__global__ void index_select_kernel(IndexSelectLaunch l) {
  W* out = static_cast<W*>(l.out);
  const W* self = static_cast<const W*>(l.self);
  for (int64_t i = global_thread(); i < l.numel; i += grid_stride()) {
    int64_t o = 0, s = 0, v = 0;
    if (l.dense) {  // out [outer, count, inner] from self [outer, size, inner]
      const int64_t r = i % l.inner, j = (i / l.inner) % l.count, q = i / (l.inner * l.count);
      v = read_index(l.index, l.index_dtype, j * l.index_stride);
      o = i;
      s = (q * l.size + v) * l.inner + r;
    } else {
      int64_t rem = i;
      for (int32_t d = l.ndim - 1; d >= 0; --d) {
        const int64_t c = rem % l.shape[d];
        rem /= l.shape[d];
        o += c * l.out_strides[d];
        if (d == l.dim) {
          v = read_index(l.index, l.index_dtype, c * l.index_stride);
          s += v * l.self_strides[d];
        } else {
          s += c * l.self_strides[d];
        }
      }
    }
    if (l.ndim > 0 && (v < 0 || v >= l.size)) continue;  // checked before; never read outside
    out[o] = l.bool_elements ? static_cast<W>(self[s] != 0) : self[s];
  }
}

template <class W>
__global__ void gather_kernel(GatherLaunch l) {
  W* out = static_cast<W*>(l.out);
  const W* self = static_cast<const W*>(l.self);
  for (int64_t i = global_thread(); i < l.numel; i += grid_stride()) {
    int64_t rem = i, ip = 0, op = 0, sp = 0;
    for (int32_t d = l.ndim - 1; d >= 0; --d) {
      const int64_t c = rem % l.shape[d];
      rem /= l.shape[d];
      ip += c * l.index_strides[d];
      op += c * l.out_strides[d];
      if (d != l.dim) sp += c * l.self_strides[d];
    }
    const int64_t v = l.index[ip];
    if (v < 0 || v >= l.size) continue;  // checked before; never read outside
    const W x = self[sp + v * l.self_strides[l.dim]];
    out[op] = l.bool_elements ? static_cast<W>(x != 0) : x;
  }
}

/// Calls fn(W{}) for the unsigned type W of `width` bytes.
template <class Fn>
void by_width(int32_t width, Fn&& fn) {
  switch (width) {
    case 8: fn(uint64_t{}); break;
    case 4: fn(uint32_t{}); break;
    case 2: fn(uint16_t{}); break;
    default: fn(uint8_t{}); break;
  }
}

}  // namespace

void launch_index_check(const IndexCheck& c, cudaStream_t stream) {
  if (c.numel == 0) return;
  index_check_kernel<<<blocks_for(c.numel), kThreads, 0, stream>>>(c);
}

void launch_index_select(const IndexSelectLaunch& l, cudaStream_t stream) {
  if (l.numel == 0) return;
  by_width(l.width, [&](auto w) {
    index_select_kernel<decltype(w)><<<blocks_for(l.numel), kThreads, 0, stream>>>(l);
  });
}

void launch_gather(const GatherLaunch& l, cudaStream_t stream) {
  if (l.numel == 0) return;
  by_width(l.width, [&](auto w) {
    gather_kernel<decltype(w)><<<blocks_for(l.numel), kThreads, 0, stream>>>(l);
  });
}

}  // namespace kf::cuda
