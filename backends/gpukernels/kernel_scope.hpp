// kernel_scope.hpp — what a kernel's host side needs around a launch: the device of its
// tensors made current, the call's stream, launch-error checks and temporary device memory.
//
//   void exp_kernel(const ops::exp::Args& a) {
//     KernelScope scope(a.call, a.out);            // device of a.out current until the end
//     launch_unary(UnaryOp::Exp, make_operands({&a.out, &a.self}), scope.stream());
//     scope.check("exp");                         // a failed launch throws KernelError
//   }
//
// The stream is the call's (kf_kernel_call_t.stream, the thread's current stream on the device);
// NULL is the device's default stream, CUDA's legacy stream 0, on which the synchronous copy()
// is ordered too. Work is only queued: nothing here waits for the GPU.
#pragma once

#include "gpu_vendor.hpp"

#include <cstddef>

#include "backend.hpp"
#include "kernforge/plugin.h"

namespace kf::cuda {

/// Makes CUDA device `ordinal` current for the scope and restores the previous one.
class DeviceGuard {
 public:
  explicit DeviceGuard(int32_t ordinal);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

class KernelScope {
 public:
  /// The device of `anchor` (a tensor of the call) becomes current; throws KernelError when
  /// it is not a device of this backend.
  KernelScope(const kf_kernel_call_t& call, const kf_tensor_view_t& anchor);

  cudaStream_t stream() const { return stream_; }
  CudaBackend& backend() const { return *backend_; }
  const DeviceInfo& device() const { return *device_; }
  /// Throws KernelError naming `op` when the last launch failed (cudaGetLastError).
  void check(const char* op) const;

 private:
  CudaBackend* backend_;
  const DeviceInfo* device_;
  DeviceGuard guard_;
  cudaStream_t stream_;
};

/// Device memory for the length of the work queued on `stream` (cudaMallocAsync; freed with
/// cudaFreeAsync on the same stream, so it is reused only after that work). Throws KernelError
/// (KF_OUT_OF_MEMORY) when none is left.
class StreamScratch {
 public:
  StreamScratch(size_t bytes, cudaStream_t stream);
  ~StreamScratch();
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  void* get() const { return ptr_; }
  template <class T> T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_ = nullptr;
  cudaStream_t stream_;
};

}  // namespace kf::cuda
