// staging.hpp — large copies between pageable host memory and a device, staged through pinned
// buffers of the plugin's own (memory_slots.cpp's copy() uses it).
//
// Note [Pinned staging]
// cudaMemcpy from or to pageable memory goes through the driver's own staging, one chunk at a
// time, with the host copy and the DMA in turn. Here a copy of at least kStagedMin bytes to or
// from memory CUDA does not know as pinned runs through two pinned buffers of kStageChunk
// bytes per device: the host copies chunk i + 1 into one buffer while the DMA engine moves chunk
// i out of the other (an event per buffer says when it is free again), so the two overlap.
// Smaller copies, pinned memory (cudaHostAlloc, host_allocate, cudaHostRegister) and
// device-to-device copies go straight to cudaMemcpyAsync. The buffers are allocated on the
// first large copy to each device and kept until shutdown; a device's buffers serve one copy at
// a time, and a copy that finds them busy (another thread's) takes the direct path instead of
// waiting. Whether it pays is measured by kernforge_bench_cuda (BM_KfCudaUpload against
// cudaMemcpy from pageable and from pinned memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernforge/plugin.h"

namespace kf::cuda {

constexpr size_t kStagedMin = size_t{4} << 20;   // 4 MiB
constexpr size_t kStageChunk = size_t{4} << 20;  // per buffer

class Staging {
 public:
  explicit Staging(size_t devices);
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  /// Copies `bytes` host <-> device (kind KF_COPY_HOST_TO_DEVICE or _DEVICE_TO_HOST) on
  /// kernforge device `device` (its CUDA device current) through the pinned buffers, ordered
  /// after the legacy stream and done when it returns. Returns false, having done nothing,
  /// when the copy should take the direct path: small, pinned host memory, or the buffers
  /// busy. A CUDA failure is reported (report(), cuda_check.hpp) in `status`.
  bool copy(int32_t device, void* dst, const void* src, size_t bytes, int32_t kind,
            kf_status_t& status);

 private:
  struct Buffers;
  std::vector<std::unique_ptr<Buffers>> devices_;
};

}  // namespace kf::cuda
