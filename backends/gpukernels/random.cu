// random.cu — rand and randn kernels: one thread per Philox block (kernforge/philox.hpp, the
// header the CPU backend uses too), so element i of a call depends only on the seed, the
// call's offset and i, and the same seed gives the CPU's numbers. rand is exact; randn goes
// through CUDA's double log, sqrt, cos and sin, which may differ from the host's libm in the
// last bit of the double, so a randn value can differ from the CPU's by an ulp of its dtype
// (rarely, after the rounding to float32 or narrower).
#include <type_traits>

#include "device_common.cuh"
#include "kernforge/philox.hpp"
#include "random_launch.hpp"

namespace kf::cuda {
namespace {

/// A float32 value in [0, 1) as T, never rounded up to 1.0 (the CPU's uniform_as: a 16-bit
/// value that reaches 1.0 becomes the largest one below it).
template <class T>
__device__ __forceinline__ T uniform_as(float u) {
  if constexpr (std::is_same_v<T, __half>) {
    __half_raw r = __float2half_rn(u);
    if (r.x == 0x3C00u) r.x = 0x3BFFu;
    return __half(r);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    __nv_bfloat16_raw r = __float2bfloat16_rn(u);
    if (r.x == 0x3F80u) r.x = 0x3F7Fu;
    return __nv_bfloat16(r);
  } else {
    return static_cast<T>(u);
  }
}

template <class T>
constexpr int kPerBlock = std::is_same_v<T, double> ? static_cast<int>(philox::kPerBlock64)
                                                    : static_cast<int>(philox::kPerBlock32);

/// The values of block b for rand (normal false) or randn (the CPU's block_values).
template <class T>
__device__ __forceinline__ void block_values(const philox::Block& b, bool normal,
                                             T (&v)[kPerBlock<T>]) {
  if constexpr (std::is_same_v<T, double>) {
    if (normal) {
      philox::randn64(b, v);
    } else {
      for (int j = 0; j < 2; ++j) v[j] = philox::rand64(b, j);
    }
  } else if (normal) {
    float z[4];
    philox::randn32(b, z);
    for (int j = 0; j < 4; ++j) v[j] = to_storage<T>(z[j]);
  } else {
    for (int j = 0; j < 4; ++j) v[j] = uniform_as<T>(philox::rand32(b, j));
  }
}

template <class T>
__global__ void random_kernel(Operands p, bool normal, uint64_t seed, uint64_t offset) {
  constexpr int per = kPerBlock<T>;
  const int64_t n = p.numel;
  const int64_t nblocks = (n + per - 1) / per;
  T* out = static_cast<T*>(p.data[0]);
  for (int64_t blk = global_thread(); blk < nblocks; blk += grid_stride()) {
    T v[per];
    block_values<T>(philox::block(seed, offset, static_cast<uint64_t>(blk)), normal, v);
    const int64_t first = blk * per;
    const int m = static_cast<int>(n - first < per ? n - first : per);
    for (int j = 0; j < m; ++j) {
      int64_t off[1] = {first + j};
      if (!p.contiguous) offsets<1>(p, first + j, off);
      out[off[0]] = v[j];
    }
  }
}

}  // namespace

void launch_random(const RandomLaunch& r, cudaStream_t stream) {
  if (r.p.numel == 0) return;
  dispatch<kFloatMask>(r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t nblocks = (r.p.numel + kPerBlock<T> - 1) / kPerBlock<T>;
    random_kernel<T><<<blocks_for(nblocks), kThreads, 0, stream>>>(r.p, r.normal != 0, r.seed,
                                                                   r.offset);
  });
}

}  // namespace kf::cuda
