// Note [Freeing SVM]: clSVMFree does not wait for queued commands that use the memory, so
// deallocate first waits for every queue of the device. The host's caching allocator keeps
// blocks for reuse, so this happens when a cache is emptied or at shutdown, not per tensor.
#include "memory_slots.hpp"

#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "backend.hpp"
#include "cl_status.hpp"
#include "kernforge/plugin.h"

namespace kf::opencl {
namespace {

constexpr size_t kHostAlignment = 64;

bool valid_kind(int32_t kind) {
  if (kind >= KF_COPY_HOST_TO_DEVICE && kind <= KF_COPY_DEVICE_TO_DEVICE) return true;
  report("unknown copy kind " + std::to_string(kind));
  return false;
}

}  // namespace

kf_status_t allocate(void* state, int32_t device, size_t bytes, void** out_ptr) {
  if (out_ptr == nullptr) return KF_INVALID_ARGUMENT;
  *out_ptr = nullptr;
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr) return KF_INVALID_ARGUMENT;
  if (bytes > d->info().max_allocation) {
    char message[160];
    std::snprintf(message, sizeof message,
                  "cannot allocate %zu bytes on %s: its largest allocation is %llu bytes",
                  bytes, d->info().name.c_str(),
                  static_cast<unsigned long long>(d->info().max_allocation));
    report(message);
    return KF_OUT_OF_MEMORY;
  }
  // bytes == 0 still gets a unique block.
  void* p = clSVMAlloc(d->context(), CL_MEM_READ_WRITE, bytes == 0 ? 64 : bytes, 0);
  if (p == nullptr) {
    char message[128];
    std::snprintf(message, sizeof message, "clSVMAlloc of %zu bytes failed on %s", bytes,
                  d->info().name.c_str());
    report(message);
    return KF_OUT_OF_MEMORY;
  }
  *out_ptr = p;
  return KF_OK;
}

void deallocate(void* state, int32_t device, void* ptr, size_t /*bytes*/) {
  ClDevice* d = backend_of(state)->get(device);
  if (d == nullptr || ptr == nullptr) return;
  d->finish_all();  // Note [Freeing SVM]
  clSVMFree(d->context(), ptr);
}

kf_status_t copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                 int32_t kind) {
  if (!valid_kind(kind)) return KF_INVALID_ARGUMENT;
  if (bytes == 0 || dst == src) return KF_OK;
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr) return KF_INVALID_ARGUMENT;
  const cl_int e =
      clEnqueueSVMMemcpy(d->queue(nullptr), CL_TRUE, dst, src, bytes, 0, nullptr, nullptr);
  if (e != CL_SUCCESS) report(cl_failure("clEnqueueSVMMemcpy", e));
  return cl_status(e);
}

kf_status_t copy_async(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                       int32_t kind, void* stream) {
  if (!valid_kind(kind)) return KF_INVALID_ARGUMENT;
  if (bytes == 0 || dst == src) return KF_OK;
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr) return KF_INVALID_ARGUMENT;
  cl_command_queue q = d->queue(stream);
  cl_int e = clEnqueueSVMMemcpy(q, CL_FALSE, dst, src, bytes, 0, nullptr, nullptr);
  if (e == CL_SUCCESS) e = clFlush(q);
  if (e != CL_SUCCESS) report(cl_failure("clEnqueueSVMMemcpy (asynchronous)", e));
  return cl_status(e);
}

kf_status_t memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes) {
  if (bytes == 0) return KF_OK;
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr) return KF_INVALID_ARGUMENT;
  const auto pattern = static_cast<unsigned char>(value);
  cl_int e = clEnqueueSVMMemFill(d->queue(nullptr), dst, &pattern, 1, bytes, 0, nullptr, nullptr);
  if (e == CL_SUCCESS) e = clFinish(d->queue(nullptr));
  if (e != CL_SUCCESS) report(cl_failure("clEnqueueSVMMemFill", e));
  return cl_status(e);
}

kf_status_t synchronize(void* state, int32_t device) {
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr) return KF_INVALID_ARGUMENT;
  const cl_int e = d->finish_all();
  if (e != CL_SUCCESS) report(cl_failure("clFinish", e));
  return cl_status(e);
}

kf_status_t host_allocate(void* state, size_t bytes, void** out_ptr) {
  if (out_ptr == nullptr) return KF_INVALID_ARGUMENT;
  ClBackend* b = backend_of(state);
  const size_t size = bytes == 0 ? kHostAlignment : bytes;
  *out_ptr = b->fine_grain_host
                 ? clSVMAlloc(b->get(0)->context(),
                              CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, size, 0)
                 : ::operator new(size, std::align_val_t{kHostAlignment}, std::nothrow);
  if (*out_ptr != nullptr) return KF_OK;
  char message[96];
  std::snprintf(message, sizeof message, "cannot allocate %zu bytes of host memory", bytes);
  report(message);
  return KF_OUT_OF_MEMORY;
}

void host_deallocate(void* state, void* ptr, size_t /*bytes*/) {
  if (ptr == nullptr) return;
  ClBackend* b = backend_of(state);
  if (!b->fine_grain_host) {
    ::operator delete(ptr, std::align_val_t{kHostAlignment});
    return;
  }
  b->get(0)->finish_all();  // Note [Freeing SVM]
  clSVMFree(b->get(0)->context(), ptr);
}

}  // namespace kf::opencl
