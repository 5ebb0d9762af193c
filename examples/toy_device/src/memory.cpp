// memory.cpp — the slots through which the core reaches the toy device's memory: allocate,
// deallocate, copy and memset.
//
// The core never touches device memory itself: it calls these slots, and kernels. The core's
// caching allocator sits above allocate/deallocate (a freed tensor's block goes back to its
// cache, not here), and every move between the toy device and the host (kf_tensor_from_data,
// kf_tensor_copy_to_host, the CPU fallback) is one call of copy(). So copy() checks that the
// device side of every copy lies inside a block of this device: a wrong pointer becomes a clear
// error instead of a write somewhere in the process.
//
// Slots are C functions: no exception may leave them, and a failure is a status plus a message
// (fail(), errors.cpp). Nothing here allocates host memory, so out of memory is reported too.
#include <cstring>
#include <new>

#include "kernforge/plugin.hpp"
#include "toy.hpp"

namespace toy {
namespace {

// Whether [ptr, ptr + bytes), the device side of a copy or memset, is memory of this device.
kf_status_t check_device_range(const Arena& arena, int32_t device, const void* ptr,
                               size_t bytes, const char* what) {
  if (arena.owns(ptr, bytes)) return KF_OK;
  return fail(KF_INVALID_ARGUMENT,
              "%s: %zu bytes at %p are not inside a block of toy:%d's memory (freed, of another "
              "device, or host memory)", what, bytes, ptr, device);
}

}  // namespace

Arena* arena_of(void* state, int32_t device, const char* slot) {
  auto* s = static_cast<State*>(state);
  const size_t count = s != nullptr ? s->arenas.size() : 0;
  if (device >= 0 && static_cast<size_t>(device) < count) {
    return s->arenas[static_cast<size_t>(device)].get();
  }
  fail(KF_INVALID_ARGUMENT, "%s: no device toy:%d (there are %zu)", slot, device, count);
  return nullptr;
}

kf_status_t allocate(void* state, int32_t device, size_t bytes, void** out_ptr) {
  if (out_ptr == nullptr) return fail(KF_INVALID_ARGUMENT, "allocate: out_ptr is NULL");
  *out_ptr = nullptr;
  Arena* arena = arena_of(state, device, "allocate");
  if (arena == nullptr) return KF_INVALID_ARGUMENT;
  try {
    *out_ptr = arena->allocate(bytes);
  } catch (const std::bad_alloc&) {  // the host could not grow the arena's bookkeeping
  }
  if (*out_ptr != nullptr) return KF_OK;
  // The core answers KF_OUT_OF_MEMORY by emptying its cache of freed blocks and asking again.
  return fail(KF_OUT_OF_MEMORY,
              "device %d is out of memory: %zu bytes asked, %zu bytes of its %zu MiB in use, the "
              "largest free block is %zu bytes; release tensors, or set KERNFORGE_TOY_MEMORY_MB "
              "higher", device, bytes, arena->used(), arena->capacity() >> 20,
              arena->largest_free());
}

void deallocate(void* state, int32_t device, void* ptr, size_t /*bytes*/) {
  Arena* arena = arena_of(state, device, "deallocate");
  if (arena == nullptr || ptr == nullptr || arena->deallocate(ptr)) return;
  // This slot returns nothing: the best a plugin can do with a bad pointer is to say so.
  kf::plugin::host()->log(KF_LOG_ERROR, "toy", "deallocate: a pointer that is not a block of it");
}

kf_status_t copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                 int32_t kind) {
  Arena* arena = arena_of(state, device, "copy");
  if (arena == nullptr) return KF_INVALID_ARGUMENT;
  if (kind < KF_COPY_HOST_TO_DEVICE || kind > KF_COPY_DEVICE_TO_DEVICE) {
    return fail(KF_INVALID_ARGUMENT, "copy: unknown kind %d", kind);
  }
  if (bytes == 0) return KF_OK;
  const bool dst_on_device = kind != KF_COPY_DEVICE_TO_HOST;
  const bool src_on_device = kind != KF_COPY_HOST_TO_DEVICE;
  const void* host_side = kind == KF_COPY_HOST_TO_DEVICE ? src : dst;
  if (kind != KF_COPY_DEVICE_TO_DEVICE && host_side == nullptr) {
    return fail(KF_INVALID_ARGUMENT, "copy of %zu bytes with a NULL host pointer", bytes);
  }
  kf_status_t s = KF_OK;
  if (dst_on_device) s = check_device_range(*arena, device, dst, bytes, "copy's destination");
  if (s == KF_OK && src_on_device) {
    s = check_device_range(*arena, device, src, bytes, "copy's source");
  }
  if (s != KF_OK) return s;
  // The toy device's memory is host memory, so every kind is one memmove. A real device calls
  // its driver here (cuMemcpyHtoD, zeCommandListAppendMemoryCopy, ...).
  std::memmove(dst, src, bytes);
  return KF_OK;
}

kf_status_t memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes) {
  Arena* arena = arena_of(state, device, "memset");
  if (arena == nullptr) return KF_INVALID_ARGUMENT;
  if (bytes == 0) return KF_OK;
  const kf_status_t s = check_device_range(*arena, device, dst, bytes, "memset");
  if (s != KF_OK) return s;
  std::memset(dst, value, bytes);
  return KF_OK;
}

}  // namespace toy
