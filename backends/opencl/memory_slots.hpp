// memory_slots.hpp — the plugin's memory slots: device memory as coarse-grained SVM buffers
// (the pointers the ABI passes are SVM pointers, valid as kernel arguments at any offset),
// synchronous copies and memset on the device's default queue, host staging memory as
// fine-grained SVM where the device has it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernforge/types.h"

namespace kf::opencl {

kf_status_t allocate(void* state, int32_t device, size_t bytes, void** out_ptr);
void deallocate(void* state, int32_t device, void* ptr, size_t bytes);
kf_status_t copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                 int32_t kind);
kf_status_t copy_async(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                       int32_t kind, void* stream);
kf_status_t memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes);
kf_status_t synchronize(void* state, int32_t device);
kf_status_t host_allocate(void* state, size_t bytes, void** out_ptr);
void host_deallocate(void* state, void* ptr, size_t bytes);

}  // namespace kf::opencl
