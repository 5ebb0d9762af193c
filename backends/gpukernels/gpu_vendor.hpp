// gpu_vendor.hpp — the one header through which the shared GPU sources of backends/gpukernels
// reach their vendor's runtime. The sources are written in CUDA's names (CUDA C++ kernels, the
// CUDA runtime API on the host): on NVIDIA this header includes CUDA's headers and nothing
// more; with KF_GPU_HIP (backends/rocm) it includes HIP's and maps every CUDA name the sources
// use to HIP's, so one set of sources serves both vendors, as ggml's HIP backend does.
//
// What differs between the vendors beyond a name is written here once, as a macro or a small
// function used by the shared sources:
//   KF_GPU_SHFL_DOWN / KF_GPU_SHFL / KF_GPU_SHFL_UP   warp shuffles confined to the 32-lane
//       groups the kernels reduce over (group_reduce.cuh): CUDA's warp is 32 lanes; AMD's
//       wavefront is 64 (CDNA) or 32 (RDNA), and HIP's shuffles take the width 32 instead of
//       CUDA's lane mask, so a 64-wide wavefront holds two independent groups.
//   kf::cuda::gpu_std   the tuple of device code: libcu++'s on CUDA, the standard library's on
//       HIP (clang makes constexpr functions callable on the device).
//   kf::cuda::is_pageable(p)   whether host memory is pageable (not pinned nor registered).
//   kStreamLegacy   the device's default (NULL) stream, CUDA's legacy stream: HIP's null
//       stream, which synchronizes with the device's other blocking streams likewise.
//   bfloat16   CUDA's __nv_bfloat16 API over HIP's hip_bfloat16 (round to nearest even), as
//       HIP 5.2 has no __hip_bfloat16 intrinsics.
//   __grid_constant__   nothing on HIP, whose kernel parameters are constant already.
//   KF_GPU_NAME(cudaMalloc)   the runtime function's name as this vendor spells it, for
//       messages ("hipMalloc of 4096 bytes on rocm:0: hipErrorOutOfMemory").
//
// Host files (.cpp) include it instead of <cuda_runtime_api.h>; kernel files (.cu, .cuh) get
// the device side too (__CUDACC__ or __HIPCC__ defined).
#pragma once

/// The vendor's name of a runtime function for messages: KF_GPU_NAME(cudaMalloc) is "cudaMalloc"
/// on CUDA and "hipMalloc" on HIP (the rename below expands before the name is quoted).
#define KF_GPU_NAME(fn) KF_GPU_QUOTE_(fn)
#define KF_GPU_QUOTE_(fn) #fn

#if defined(KF_GPU_HIP)
// ======================================================================== HIP (AMD) ==
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#if defined(__HIPCC__)
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#endif
#include <hip/hip_runtime_api.h>

#include <tuple>

// Types and constants.
#define cudaError_t hipError_t
#define cudaStream_t hipStream_t
#define cudaEvent_t hipEvent_t
#define cudaDeviceProp hipDeviceProp_t
#define cudaMemcpyKind hipMemcpyKind
#define cudaSuccess hipSuccess
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define cudaMemcpyDefault hipMemcpyDefault
#define cudaStreamNonBlocking hipStreamNonBlocking
#define cudaEventDefault hipEventDefault
#define cudaEventDisableTiming hipEventDisableTiming
#define cudaHostAllocPortable hipHostMallocPortable
#define cudaErrorMemoryAllocation hipErrorOutOfMemory
#define cudaErrorNotReady hipErrorNotReady
#define cudaErrorNoDevice hipErrorNoDevice
#define cudaErrorInvalidValue hipErrorInvalidValue
#define cudaErrorInvalidDevice hipErrorInvalidDevice
#define cudaErrorInvalidDevicePointer hipErrorInvalidDevicePointer
#define cudaErrorInsufficientDriver hipErrorInsufficientDriver
#define cudaErrorInitializationError hipErrorNotInitialized
#define cudaErrorNoKernelImageForDevice hipErrorNoBinaryForGpu
// Functions.
#define cudaGetLastError hipGetLastError
#define cudaGetErrorName hipGetErrorName
#define cudaGetErrorString hipGetErrorString
#define cudaGetDevice hipGetDevice
#define cudaSetDevice hipSetDevice
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaRuntimeGetVersion hipRuntimeGetVersion
#define cudaDriverGetVersion hipDriverGetVersion
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMallocAsync hipMallocAsync
#define cudaFreeAsync hipFreeAsync
#define cudaHostAlloc hipHostMalloc
#define cudaFreeHost hipHostFree
#define cudaHostRegister hipHostRegister
#define cudaMemcpy hipMemcpy
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemsetAsync hipMemsetAsync
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamDestroy hipStreamDestroy
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaStreamWaitEvent hipStreamWaitEvent
#define cudaEventCreate hipEventCreate
#define cudaEventCreateWithFlags hipEventCreateWithFlags
#define cudaEventDestroy hipEventDestroy
#define cudaEventRecord hipEventRecord
#define cudaEventQuery hipEventQuery
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventElapsedTime hipEventElapsedTime

#define KF_GPU_SHFL_DOWN(value, delta) __shfl_down((value), (delta), 32)
#define KF_GPU_SHFL_UP(value, delta) __shfl_up((value), (delta), 32)
#define KF_GPU_SHFL(value, lane) __shfl((value), (lane), 32)
#define KF_GPU_VENDOR "rocm"

namespace kf::cuda {
namespace gpu_std = ::std;
inline const hipStream_t kStreamLegacy = nullptr;

/// True when `p` is pageable host memory: HIP knows no attributes of it (an error, cleared).
inline bool is_pageable(const void* p) {
  hipPointerAttribute_t attr{};
  if (hipPointerGetAttributes(&attr, p) != hipSuccess) {
    (void)hipGetLastError();  // an unknown pointer is an error in HIP; clear it
    return true;
  }
  return false;
}
}  // namespace kf::cuda

#if defined(__HIPCC__)
// A kernel parameter read in place (CUDA 11.7): every HIP kernel parameter is already constant.
#define __grid_constant__
// CUDA's bfloat16 API over hip_bfloat16 (whose conversion from float rounds to nearest even).
#define __nv_bfloat16 hip_bfloat16
struct __nv_bfloat16_raw {
  unsigned short x;
  __host__ __device__ __nv_bfloat16_raw(hip_bfloat16 v) : x(v.data) {}
  __host__ __device__ operator hip_bfloat16() const {
    hip_bfloat16 b;
    b.data = x;
    return b;
  }
};
__host__ __device__ inline hip_bfloat16 __float2bfloat16_rn(float f) { return hip_bfloat16(f); }
__host__ __device__ inline float __bfloat162float(hip_bfloat16 b) { return static_cast<float>(b); }
__host__ __device__ inline unsigned short __bfloat16_as_ushort(hip_bfloat16 b) { return b.data; }
__host__ __device__ inline hip_bfloat16 __ushort_as_bfloat16(unsigned short u) {
  hip_bfloat16 b;
  b.data = u;
  return b;
}
#endif

#else
// ===================================================================== CUDA (NVIDIA) ==
#include <cuda_runtime_api.h>
#if defined(__CUDACC__)
#include <cuda/std/tuple>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#endif

#define KF_GPU_SHFL_DOWN(value, delta) __shfl_down_sync(0xffffffffu, (value), (delta))
#define KF_GPU_SHFL_UP(value, delta) __shfl_up_sync(0xffffffffu, (value), (delta))
#define KF_GPU_SHFL(value, lane) __shfl_sync(0xffffffffu, (value), (lane))
#define KF_GPU_VENDOR "cuda"

namespace kf::cuda {
#if defined(__CUDACC__)
namespace gpu_std = ::cuda::std;
#endif
inline const cudaStream_t kStreamLegacy = cudaStreamLegacy;

/// True when `p` is pageable host memory (neither pinned by CUDA nor registered with it);
/// false where CUDA cannot tell (cudaMemcpy then decides).
inline bool is_pageable(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeUnregistered;
}
}  // namespace kf::cuda
#endif
