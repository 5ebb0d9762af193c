// linalg.cu — the tiled GEMM (a 16 x 16 shared-memory tiled kernel, any strides, batched):
// every integer dtype on both GPU backends, and the floating dtypes where no BLAS library is
// (rocm without rocBLAS); and addmm's result for an empty inner dim on floating dtypes
// (linalg_launch.hpp).
//
// Note [Integer GEMM wraps]
// The CPU accumulates integer products in uint64 and keeps the low bits of the sum (as
// PyTorch's integer matmul, two's complement). Arithmetic modulo 2^64 and then truncation to
// the dtype equals arithmetic modulo 2^bits throughout, so dtypes of 32 bits or fewer
// accumulate in uint32 here (half the registers and shared memory of uint64) with the same
// results; int64 accumulates in uint64. addmm's alpha * product + beta * self is in the same
// modular arithmetic, which is the CPU's wrap_mul/wrap_add.
#include <type_traits>

#include "device_common.cuh"
#include "linalg_launch.hpp"

namespace kf::cuda {
namespace {

constexpr int kTile = 16;

template <class T>
using IntAcc = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;

/// One GEMM as the tiled kernel reads it: element type T, accumulated in Acc (the integer
/// dtypes' wrapping IntAcc, the floating dtypes' compute type), the scalars in Acc.
template <class Acc>
struct Tiled {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  GemmOperand a, b, c;
  const void* bias = nullptr;
  int64_t bias_rs = 0, bias_cs = 0;
  Acc alpha{}, beta{};
};

// One kTile x kTile block of c per thread block (a thread per element), looping over the
// tiles and batches the grid does not cover. The tile loops are uniform across the block, so
// every thread reaches each __syncthreads. Elements load into Acc and the result is stored
// once (rounded to nearest even for the 16-bit floats, truncated to the dtype's bits for the
// integers).
template <class T, class Acc>
__global__ void tiled_gemm_kernel(Tiled<Acc> g) {
  __shared__ Acc at[kTile][kTile];
  __shared__ Acc bt[kTile][kTile];
  const T* a = static_cast<const T*>(g.a.data);
  const T* b = static_cast<const T*>(g.b.data);
  T* c = static_cast<T*>(g.c.data);
  const T* bias = static_cast<const T*>(g.bias);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row_tiles = (g.m + kTile - 1) / kTile, col_tiles = (g.n + kTile - 1) / kTile;
  for (int64_t bi = blockIdx.z; bi < g.batch; bi += gridDim.z) {
    for (int64_t rt = blockIdx.y; rt < row_tiles; rt += gridDim.y) {
      for (int64_t ct = blockIdx.x; ct < col_tiles; ct += gridDim.x) {
        const int64_t row = rt * kTile + ty, col = ct * kTile + tx;
        Acc acc = Acc(0);
        for (int64_t k0 = 0; k0 < g.k; k0 += kTile) {
          const int64_t ka = k0 + tx, kb = k0 + ty;
          at[ty][tx] = row < g.m && ka < g.k
                           ? static_cast<Acc>(load(a, bi * g.a.bs + row * g.a.rs + ka * g.a.cs))
                           : Acc(0);
          bt[ty][tx] = kb < g.k && col < g.n
                           ? static_cast<Acc>(load(b, bi * g.b.bs + kb * g.b.rs + col * g.b.cs))
                           : Acc(0);
          __syncthreads();
#pragma unroll
          for (int kk = 0; kk < kTile; ++kk) acc += at[ty][kk] * bt[kk][tx];
          __syncthreads();
        }
        if (row < g.m && col < g.n) {
          Acc r = g.alpha * acc;
          if (bias != nullptr && g.beta != Acc(0)) {
            r += g.beta * static_cast<Acc>(load(bias, row * g.bias_rs + col * g.bias_cs));
          }
          store(c, bi * g.c.bs + row * g.c.rs + col * g.c.cs, r);
        }
      }
    }
  }
}

// out = beta * self + alpha * 0 in the compute type, without contraction (the CPU rounds the
// product and the sum apart); beta == 0 never reads self.
template <class T>
__global__ void empty_inner_addmm_kernel(EmptyInnerAddmm e) {
  using M = compute_t<T>;
  T* out = static_cast<T*>(e.p.data[0]);
  const T* self = static_cast<const T*>(e.p.data[1]);
  for (int64_t i = global_thread(); i < e.p.numel; i += grid_stride()) {
    int64_t off[2] = {i, i};
    if (!e.p.contiguous) offsets<2>(e.p, i, off);
    M r;
    if constexpr (std::is_same_v<M, double>) {
      const double p = __dmul_rn(e.alpha_d, 0.0);
      r = e.beta_d == 0.0 ? p : __dadd_rn(__dmul_rn(e.beta_d, load(self, off[1])), p);
    } else {
      const float p = __fmul_rn(e.alpha_f, 0.0f);
      r = e.beta_f == 0.0f ? p : __fadd_rn(__fmul_rn(e.beta_f, load(self, off[1])), p);
    }
    store(out, off[0], r);
  }
}

unsigned int capped(int64_t n, int64_t cap) {
  return static_cast<unsigned int>(n < 1 ? 1 : (n > cap ? cap : n));
}

template <class T, class Acc, class G>
void launch_tiled(const G& g, Acc alpha, Acc beta, cudaStream_t stream) {
  if (g.batch == 0 || g.m == 0 || g.n == 0) return;
  Tiled<Acc> t;
  t.batch = g.batch, t.m = g.m, t.n = g.n, t.k = g.k;
  t.a = g.a, t.b = g.b, t.c = g.c;
  t.bias = g.bias, t.bias_rs = g.bias_rs, t.bias_cs = g.bias_cs;
  t.alpha = alpha, t.beta = beta;
  const dim3 block(kTile, kTile);
  const dim3 grid(capped((g.n + kTile - 1) / kTile, 1LL << 30),
                  capped((g.m + kTile - 1) / kTile, 65535), capped(g.batch, 65535));
  tiled_gemm_kernel<T, Acc><<<grid, block, 0, stream>>>(t);
}

}  // namespace

void launch_int_gemm(const IntGemmLaunch& g, cudaStream_t stream) {
  dispatch<kIntMask>(g.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = IntAcc<T>;
    launch_tiled<T>(g, static_cast<Acc>(g.alpha), static_cast<Acc>(g.beta), stream);
  });
}

void launch_float_gemm(const FloatGemmLaunch& g, cudaStream_t stream) {
  dispatch<kFloatMask>(g.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<compute_t<T>, double>) {
      launch_tiled<T>(g, g.alpha_d, g.beta_d, stream);
    } else {
      launch_tiled<T>(g, g.alpha_f, g.beta_f, stream);
    }
  });
}

void launch_empty_inner_addmm(const EmptyInnerAddmm& e, cudaStream_t stream) {
  if (e.p.numel == 0) return;
  dispatch<kFloatMask>(e.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    empty_inner_addmm_kernel<T><<<blocks_for(e.p.numel), kThreads, 0, stream>>>(e);
  });
}

}  // namespace kf::cuda
