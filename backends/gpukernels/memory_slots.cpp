// memory_slots.cpp — raw device memory, copies, memset and pinned host memory (slots.hpp).
//
// Note [Synchronous copies]: copy() must be done when it returns and ordered after the work on
// the default stream. cudaMemcpy alone is not enough: from pageable host memory it returns once
// the data is staged, and device-to-device it returns at once, while a kernel on one of our
// non-blocking streams is not ordered after the legacy stream. So copy() queues the copy on the
// legacy stream and waits for that stream; large copies to or from pageable memory go through
// pinned buffers (staging.hpp, Note [Pinned staging]).
//
// Memory comes from cudaMalloc, never managed memory; the host's caching allocator keeps the
// blocks, so cudaFree (which waits for the device) runs when a cache is emptied, not per tensor.
#include <cstdio>
#include <string>

#include "backend.hpp"
#include "cuda_check.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "slots.hpp"

namespace kf::cuda {

int32_t ordinal_or_report(void* state, int32_t device) {
  CudaBackend* b = state != nullptr ? backend_of(state) : nullptr;
  const DeviceInfo* d = b != nullptr ? b->device(device) : nullptr;
  if (d != nullptr) return d->ordinal;
  kf::plugin::set_error(KF_GPU_VENDOR ": no device " + std::to_string(device) +
                        " (the backend has " +
                        std::to_string(b != nullptr ? b->devices.size() : 0) + ")");
  return -1;
}

namespace {

cudaMemcpyKind kind_of(int32_t kind) {
  switch (kind) {
    case KF_COPY_HOST_TO_DEVICE: return cudaMemcpyHostToDevice;
    case KF_COPY_DEVICE_TO_HOST: return cudaMemcpyDeviceToHost;
    case KF_COPY_DEVICE_TO_DEVICE: return cudaMemcpyDeviceToDevice;
    default: return cudaMemcpyDefault;
  }
}

bool valid_kind(int32_t kind) {
  if (kind >= KF_COPY_HOST_TO_DEVICE && kind <= KF_COPY_DEVICE_TO_DEVICE) return true;
  kf::plugin::set_error(KF_GPU_VENDOR ": unknown copy kind " + std::to_string(kind));
  return false;
}


}  // namespace

kf_status_t allocate(void* state, int32_t device, size_t bytes, void** out_ptr) {
  if (out_ptr == nullptr) return KF_INVALID_ARGUMENT;
  *out_ptr = nullptr;
  return on_device(state, device, [&]() -> kf_status_t {
    const cudaError_t e = cudaMalloc(out_ptr, bytes == 0 ? 256 : bytes);  // 0: a unique block
    if (e == cudaSuccess) return KF_OK;
    (void)cudaGetLastError();  // an allocation failure is not sticky; clear it
    *out_ptr = nullptr;
    char what[96];
    std::snprintf(what, sizeof what,
                  KF_GPU_NAME(cudaMalloc) " of %zu bytes on " KF_GPU_VENDOR ":%d", bytes, device);
    return report(e, what);
  });
}

void deallocate(void* state, int32_t device, void* ptr, size_t /*bytes*/) {
  if (ptr == nullptr) return;
  (void)on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaFree(ptr), KF_GPU_NAME(cudaFree));
    return KF_OK;
  });
}

kf_status_t copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                 int32_t kind) {
  if (!valid_kind(kind)) return KF_INVALID_ARGUMENT;
  if (bytes == 0 || dst == src) return KF_OK;
  return on_device(state, device, [&]() -> kf_status_t {  // Note [Synchronous copies]
    kf_status_t staged = KF_OK;  // Note [Pinned staging] (staging.hpp)
    if (backend_of(state)->staging.copy(device, dst, src, bytes, kind, staged)) {
      return staged;
    }
    KF_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(dst, src, bytes, kind_of(kind), kStreamLegacy),
                            KF_GPU_NAME(cudaMemcpyAsync));
    KF_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(kStreamLegacy),
                            KF_GPU_NAME(cudaStreamSynchronize) " after a copy");
    return KF_OK;
  });
}

kf_status_t copy_async(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                       int32_t kind, void* stream) {
  if (!valid_kind(kind)) return KF_INVALID_ARGUMENT;
  if (bytes == 0 || dst == src) return KF_OK;
  return on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(
        cudaMemcpyAsync(dst, src, bytes, kind_of(kind), static_cast<cudaStream_t>(stream)),
        KF_GPU_NAME(cudaMemcpyAsync));
    return KF_OK;
  });
}

kf_status_t memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes) {
  if (bytes == 0) return KF_OK;
  return on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(dst, value, bytes, kStreamLegacy),
                            KF_GPU_NAME(cudaMemsetAsync));
    KF_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(kStreamLegacy),
                            KF_GPU_NAME(cudaStreamSynchronize) " after a memset");
    return KF_OK;
  });
}

kf_status_t synchronize(void* state, int32_t device) {
  return on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize(), KF_GPU_NAME(cudaDeviceSynchronize));
    return KF_OK;
  });
}

kf_status_t host_allocate(void* state, size_t bytes, void** out_ptr) {
  (void)state;
  if (out_ptr == nullptr) return KF_INVALID_ARGUMENT;
  *out_ptr = nullptr;
  // Portable: pinned for every device, whichever is current.
  const cudaError_t e = cudaHostAlloc(out_ptr, bytes == 0 ? 64 : bytes, cudaHostAllocPortable);
  if (e == cudaSuccess) return KF_OK;
  (void)cudaGetLastError();
  *out_ptr = nullptr;
  char what[80];
  std::snprintf(what, sizeof what, KF_GPU_NAME(cudaHostAlloc) " of %zu bytes of pinned host memory",
                bytes);
  return report(e, what);
}

void host_deallocate(void* state, void* ptr, size_t /*bytes*/) {
  (void)state;
  if (ptr != nullptr) (void)cudaFreeHost(ptr);
}

}  // namespace kf::cuda
