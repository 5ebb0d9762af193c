// device_common.cuh — what every kernel file of the GPU backends shares: the element type of
// each kernforge dtype, the type it computes in, the offsets of an element in strided operands,
// the grid of a launch and the dtype dispatch of a launcher. Included by *.cu files only.
//
// Compute types follow the CPU backend (backends/cpu/dtype_dispatch.hpp, OpMath): float16 and
// bfloat16 load into float and round once to nearest even on store; the others compute in their
// own type. Integer arithmetic wraps as two's complement, as on the CPU.
#pragma once

#include "gpu_vendor.hpp"

#include <cstdint>
#include <type_traits>

#include "cuda_dtypes.hpp"
#include "kernforge/dtypes.hpp"
#include "operands.hpp"

namespace kf::cuda {

// ------------------------------------------------------------------ dtypes --

/// The element type stored for dtype D: the SDK's element_t (kernforge/dtypes.hpp), with CUDA's
/// own types for the 16-bit floats.
template <class T> struct CudaElement { using type = T; };
template <> struct CudaElement<::kf::Half> { using type = __half; };
template <> struct CudaElement<::kf::BFloat16> { using type = __nv_bfloat16; };
template <int D> struct Storage { using type = typename CudaElement<element_t<D>>::type; };

/// The type element type T computes in (float for the 16-bit floats).
template <class T> struct Compute { using type = T; };
template <> struct Compute<__half> { using type = float; };
template <> struct Compute<__nv_bfloat16> { using type = float; };
template <class T> using compute_t = typename Compute<T>::type;

template <class T> constexpr bool is_floating_v =
    std::is_floating_point_v<T> || std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

/// Element `p[i]` as stored. Note [Bool bytes] (docs/reliability.md): a bool is read as its byte
/// != 0, since memory from kf_tensor_from_blob or DLPack may hold any byte in a bool and a C++
/// bool holding one other than 0 or 1 is undefined behaviour; kernels write only 0 and 1.
template <class T>
__device__ __forceinline__ T elem(const T* p, int64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return reinterpret_cast<const unsigned char*>(p)[i] != 0;
  } else {
    return p[i];
  }
}

/// Loads element `p[i]` as its compute type (a bool through elem).
template <class T>
__device__ __forceinline__ compute_t<T> load(const T* p, int64_t i) {
  if constexpr (std::is_same_v<T, __half>) {
    return __half2float(p[i]);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __bfloat162float(p[i]);
  } else {
    return elem(p, i);
  }
}

/// Converts a compute value to element type T (round to nearest even for the 16-bit floats).
template <class T, class C>
__device__ __forceinline__ T to_storage(C v) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(static_cast<float>(v));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <class T, class C>
__device__ __forceinline__ void store(T* p, int64_t i, C v) {
  p[i] = to_storage<T>(v);
}

/// A dtype as a type, for the generic lambdas of dispatch().
template <int D> struct DtypeTag {
  static constexpr int kDtype = D;
  using type = typename Storage<D>::type;
};

/// Calls fn(DtypeTag<D>{}) for the runtime dtype `dtype` when it is in Mask, and returns
/// false (nothing called) when it is not: the launcher then reports it. Only the dtypes of Mask
/// are instantiated; one case per line of KF_DTYPE_LIST.
template <uint32_t Mask, class Fn>
bool dispatch(int dtype, Fn&& fn) {
  bool done = false;
  auto one = [&](auto tag) {
    constexpr int D = decltype(tag)::kDtype;
    if constexpr ((Mask & dtype_bit(D)) != 0u) {
      if (dtype == D) {
        fn(tag);
        done = true;
      }
    }
  };
#define KF_CUDA_DISPATCH_(suffix, value, name, short_name, bytes, kind, cpp_name) one(DtypeTag<KF_##suffix>{});
  KF_DTYPE_LIST(KF_CUDA_DISPATCH_)
#undef KF_CUDA_DISPATCH_
  return done;
}

// The masks of kernforge/dtypes.hpp by the names the kernels use: every float (the 16-bit ones
// included), every integer, every real number, every dtype.
constexpr uint32_t kFloatMask = kFloatDtypes;
constexpr uint32_t kIntMask = kIntDtypes;
constexpr uint32_t kNumericMask = kRealDtypes;
constexpr uint32_t kAllMask = kCudaDtypes;

// ----------------------------------------------------------------- offsets --

/// The element offsets of flat (row-major) index `i` in the first N operands of `p`.
template <int N>
__device__ __forceinline__ void offsets(const Operands& p, int64_t i, int64_t (&off)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
  for (int d = p.ndim - 1; d >= 0; --d) {
    const int64_t size = p.shape[d];
    const int64_t idx = i % size;
    i /= size;
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += idx * p.strides[k][d];
  }
}

// -------------------------------------------------------------------- grid --

constexpr int kThreads = 256;

/// Blocks for `work` items of `per_thread` elements each at kThreads a block, capped so that a
/// grid-stride loop covers the rest (the kernels loop; never 0).
inline unsigned int blocks_for(int64_t work, int64_t per_thread = 1) {
  const int64_t threads = (work + per_thread - 1) / per_thread;
  int64_t blocks = (threads + kThreads - 1) / kThreads;
  constexpr int64_t kMaxBlocks = 65535LL * 32;  // ample for a grid-stride loop on any GPU
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  return static_cast<unsigned int>(blocks < 1 ? 1 : blocks);
}

/// The flat index of this thread and the stride of a grid-stride loop.
__device__ __forceinline__ int64_t global_thread() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ int64_t grid_stride() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x;
}

}  // namespace kf::cuda
