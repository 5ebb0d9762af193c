// staging.cpp — pinned staging of large pageable copies (staging.hpp, Note [Pinned staging]).
#include "staging.hpp"

#include "gpu_vendor.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "cuda_check.hpp"

namespace kf::cuda {

struct Staging::Buffers {
  std::mutex mutex;  // one copy at a time uses them
  bool ready = false;
  void* buf[2] = {nullptr, nullptr};
  cudaEvent_t free[2] = {nullptr, nullptr};  // recorded after the DMA that last used buf[i]

  ~Buffers() {
    for (int i = 0; i < 2; ++i) {
      if (free[i] != nullptr) (void)cudaEventDestroy(free[i]);
      if (buf[i] != nullptr) (void)cudaFreeHost(buf[i]);
    }
  }

  /// Allocates the buffers and events on the current device; false on failure (what was made
  /// is kept for the next try, which makes only the rest: not made again and leaked).
  bool prepare() {
    if (ready) return true;
    for (int i = 0; i < 2; ++i) {
      if (buf[i] == nullptr &&
          cudaHostAlloc(&buf[i], kStageChunk, cudaHostAllocPortable) != cudaSuccess) {
        buf[i] = nullptr;
        (void)cudaGetLastError();
        return false;  // the destructor frees what was made; the copy goes direct
      }
      if (free[i] == nullptr &&
          cudaEventCreateWithFlags(&free[i], cudaEventDisableTiming) != cudaSuccess) {
        free[i] = nullptr;
        (void)cudaGetLastError();
        return false;
      }
    }
    ready = true;
    return true;
  }
};

Staging::Staging(size_t devices) {
  devices_.reserve(devices);
  for (size_t i = 0; i < devices; ++i) devices_.push_back(std::make_unique<Buffers>());
}

Staging::~Staging() = default;

namespace {

/// Host to device: the host fills one buffer while the other's DMA runs.
cudaError_t upload(void* const (&buf)[2], cudaEvent_t const (&free)[2], char* dst,
                   const char* src, size_t bytes) {
  for (size_t off = 0, i = 0; off < bytes; off += kStageChunk, ++i) {
    const size_t len = std::min(kStageChunk, bytes - off);
    const int k = static_cast<int>(i % 2);
    cudaError_t e = cudaEventSynchronize(free[k]);  // its last DMA is done
    if (e != cudaSuccess) return e;
    std::memcpy(buf[k], src + off, len);
    e = cudaMemcpyAsync(dst + off, buf[k], len, cudaMemcpyHostToDevice, kStreamLegacy);
    if (e == cudaSuccess) e = cudaEventRecord(free[k], kStreamLegacy);
    if (e != cudaSuccess) return e;
  }
  return cudaStreamSynchronize(kStreamLegacy);
}

/// Device to host: chunk i + 1's DMA runs while the host empties chunk i's buffer.
cudaError_t download(void* const (&buf)[2], cudaEvent_t const (&free)[2], char* dst,
                     const char* src, size_t bytes) {
  const size_t chunks = (bytes + kStageChunk - 1) / kStageChunk;
  auto start = [&](size_t i) {
    const size_t off = i * kStageChunk, len = std::min(kStageChunk, bytes - off);
    const int k = static_cast<int>(i % 2);
    cudaError_t e = cudaMemcpyAsync(buf[k], src + off, len, cudaMemcpyDeviceToHost,
                                    kStreamLegacy);
    if (e == cudaSuccess) e = cudaEventRecord(free[k], kStreamLegacy);
    return e;
  };
  cudaError_t e = start(0);
  for (size_t i = 0; e == cudaSuccess && i < chunks; ++i) {
    if (i + 1 < chunks) e = start(i + 1);  // into the other buffer, emptied in step i - 1
    const int k = static_cast<int>(i % 2);
    if (e == cudaSuccess) e = cudaEventSynchronize(free[k]);
    if (e == cudaSuccess) {
      const size_t off = i * kStageChunk;
      std::memcpy(dst + off, buf[k], std::min(kStageChunk, bytes - off));
    }
  }
  return e;
}

}  // namespace

bool Staging::copy(int32_t device, void* dst, const void* src, size_t bytes, int32_t kind,
                   kf_status_t& status) {
  const bool up = kind == KF_COPY_HOST_TO_DEVICE;
  if (bytes < kStagedMin || (!up && kind != KF_COPY_DEVICE_TO_HOST)) return false;
  if (device < 0 || static_cast<size_t>(device) >= devices_.size()) return false;
  if (!is_pageable(up ? src : dst)) return false;
  Buffers& b = *devices_[static_cast<size_t>(device)];
  std::unique_lock<std::mutex> lock(b.mutex, std::try_to_lock);
  if (!lock.owns_lock() || !b.prepare()) return false;
  // Ordered after the legacy stream's work, as copy() is: the DMAs queue behind it.
  const cudaError_t e =
      up ? upload(b.buf, b.free, static_cast<char*>(dst), static_cast<const char*>(src), bytes)
         : download(b.buf, b.free, static_cast<char*>(dst), static_cast<const char*>(src),
                    bytes);
  status = e == cudaSuccess ? KF_OK : report(e, up ? "a staged copy to the device"
                                                   : "a staged copy to the host");
  return true;
}

}  // namespace kf::cuda
