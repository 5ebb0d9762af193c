/*
 * kernforge/host_memory.h — the memory slots of a plugin whose device memory is host memory.
 *
 * A device that computes in the process's own memory (a test device, a simulator, the CPU)
 * needs the same allocate, deallocate, copy and memset: these, in plain C99 for C and C++
 * plugins alike. A C plugin calls them from its slots with the host API it got in init();
 * kernforge/host_memory.hpp makes slot-shaped C++ functions of them.
 *
 *   static kf_status_t cdev_allocate(void* state, int32_t device, size_t bytes, void** out) {
 *     (void)state; (void)device;
 *     return kf_host_memory_allocate(g_host, bytes, out);
 *   }
 *
 * Ownership: a block of kf_host_memory_allocate is the caller's until it hands it to
 * kf_host_memory_deallocate (and only there: it is not a malloc'd pointer). Its size is
 * rounded up to a multiple of KF_HOST_MEMORY_ALIGNMENT (64 bytes, a cache line) and it is
 * aligned to it; 0 bytes still gives a unique block; its contents are undefined.
 * Errors: a failure returns its status after host->set_error() (when host is not NULL) with a
 * message formatted on the stack: nothing here allocates but the block, so running out of
 * memory is reported too. Devices are not checked: the core calls a slot only with a device
 * below the plugin's device_count.
 * Thread safety: every function may be called from any thread at once (as malloc and free).
 */
#ifndef KERNFORGE_HOST_MEMORY_H_
#define KERNFORGE_HOST_MEMORY_H_

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernforge/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KF_HOST_MEMORY_ALIGNMENT 64

/* Sets the host's error to the formatted message (when there is a host) and returns status. */
static inline kf_status_t kf_host_memory_fail_(const kf_host_api_t* host, kf_status_t status,
                                               const char* format, ...) {
  char message[160];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  if (host != NULL && host->set_error != NULL) host->set_error(message);
  return status;
}

/** *out_ptr = a new block of at least `bytes` (see the top of the file); KF_OUT_OF_MEMORY when
 * there is no memory for it (or the size wraps around), KF_INVALID_ARGUMENT when out_ptr is
 * NULL. The malloc'd pointer is kept in the word before the aligned block. */
static inline kf_status_t kf_host_memory_allocate(const kf_host_api_t* host, size_t bytes,
                                                  void** out_ptr) {
  const size_t align = KF_HOST_MEMORY_ALIGNMENT;
  const size_t rounded = bytes == 0 ? align : (bytes + align - 1) / align * align;
  const size_t total = rounded + align + sizeof(void*);
  unsigned char* raw;
  uintptr_t block;
  if (out_ptr == NULL) {
    return kf_host_memory_fail_(host, KF_INVALID_ARGUMENT, "allocate: out_ptr is NULL");
  }
  *out_ptr = NULL;
  raw = rounded >= bytes && total > rounded ? (unsigned char*)malloc(total) : NULL;
  if (raw == NULL) {
    return kf_host_memory_fail_(host, KF_OUT_OF_MEMORY,
                                "cannot allocate %zu bytes of host memory", bytes);
  }
  block = ((uintptr_t)(raw + sizeof(void*)) + (align - 1)) & ~(uintptr_t)(align - 1);
  memcpy((unsigned char*)block - sizeof(void*), &raw, sizeof(raw));
  *out_ptr = (void*)block;
  return KF_OK;
}

/** Frees a block of kf_host_memory_allocate; NULL does nothing. */
static inline void kf_host_memory_deallocate(void* ptr) {
  void* raw;
  if (ptr == NULL) return;
  memcpy(&raw, (unsigned char*)ptr - sizeof(void*), sizeof(raw));
  free(raw);
}

/** KF_OK when a copy of `bytes` of `kind` (kf_copy_kind_t) between dst and src can be made;
 * KF_INVALID_ARGUMENT for an unknown kind or a NULL pointer with bytes > 0. For plugins that
 * check first and then copy their own way (on a queue, say). */
static inline kf_status_t kf_host_memory_check_copy(const kf_host_api_t* host, const void* dst,
                                                    const void* src, size_t bytes,
                                                    int32_t kind) {
  if (kind < KF_COPY_HOST_TO_DEVICE || kind > KF_COPY_DEVICE_TO_DEVICE) {
    return kf_host_memory_fail_(host, KF_INVALID_ARGUMENT, "copy: unknown copy kind %ld",
                                (long)kind);
  }
  if (bytes != 0 && (dst == NULL || src == NULL)) {
    return kf_host_memory_fail_(host, KF_INVALID_ARGUMENT,
                                "copy of %zu bytes with a NULL pointer", bytes);
  }
  return KF_OK;
}

/** Copies `bytes` from src to dst (they may overlap), every kind alike: host memory is the
 * device's. Checked as kf_host_memory_check_copy. */
static inline kf_status_t kf_host_memory_copy(const kf_host_api_t* host, void* dst,
                                              const void* src, size_t bytes, int32_t kind) {
  const kf_status_t s = kf_host_memory_check_copy(host, dst, src, bytes, kind);
  if (s != KF_OK) return s;
  if (bytes != 0 && dst != src) memmove(dst, src, bytes);
  return KF_OK;
}

/** Sets `bytes` at dst to (unsigned char)value; KF_INVALID_ARGUMENT for NULL with bytes > 0. */
static inline kf_status_t kf_host_memory_memset(const kf_host_api_t* host, void* dst,
                                                int32_t value, size_t bytes) {
  if (bytes == 0) return KF_OK;
  if (dst == NULL) {
    return kf_host_memory_fail_(host, KF_INVALID_ARGUMENT, "memset of %zu bytes at NULL",
                                bytes);
  }
  memset(dst, (int)value, bytes);
  return KF_OK;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KERNFORGE_HOST_MEMORY_H_ */
