// kernforge/host_memory.hpp — kernforge/host_memory.h as kf_plugin_t slots, for C++ plugins whose
// device memory is host memory.
//
//   kf_plugin_t p = kf::plugin::table("mydev", MYDEV_VERSION);
//   kf::plugin::host_memory::set_slots(p);  // allocate, deallocate, copy, memset
//
// A plugin that must do more in a slot (count blocks, fail on purpose, copy on a queue) sets its
// own function there and calls the one here from it. Errors go to kf::plugin::host(), which the
// plugin's init sets. Ownership, alignment and thread safety: as host_memory.h says; the state
// and device arguments are not used.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernforge/host_memory.h"
#include "kernforge/plugin.h"
#include "kernforge/plugin.hpp"

namespace kf::plugin::host_memory {

/// allocate: a block of host memory (kf_host_memory_allocate).
inline kf_status_t allocate(void* /*state*/, int32_t /*device*/, size_t bytes,
                            void** out_ptr) noexcept {
  return kf_host_memory_allocate(host(), bytes, out_ptr);
}

/// deallocate: frees a block of allocate.
inline void deallocate(void* /*state*/, int32_t /*device*/, void* ptr, size_t /*bytes*/) noexcept {
  kf_host_memory_deallocate(ptr);
}

/// copy: every kind is one memmove, after kf_host_memory_check_copy.
inline kf_status_t copy(void* /*state*/, int32_t /*device*/, void* dst, const void* src,
                        size_t bytes, int32_t kind) noexcept {
  return kf_host_memory_copy(host(), dst, src, bytes, kind);
}

/// memset: fills host memory.
inline kf_status_t memset(void* /*state*/, int32_t /*device*/, void* dst, int32_t value,
                          size_t bytes) noexcept {
  return kf_host_memory_memset(host(), dst, value, bytes);
}

/// host_allocate / host_deallocate: staging memory for a device that wants its own (a real one
/// pins it); the same blocks as allocate.
inline kf_status_t host_allocate(void* /*state*/, size_t bytes, void** out_ptr) noexcept {
  return kf_host_memory_allocate(host(), bytes, out_ptr);
}
inline void host_deallocate(void* /*state*/, void* ptr, size_t /*bytes*/) noexcept {
  kf_host_memory_deallocate(ptr);
}

/// Sets p's allocate, deallocate, copy and memset to the functions above (not the host pair:
/// NULL there means ordinary host memory already).
inline void set_slots(kf_plugin_t& p) noexcept {
  p.allocate = allocate;
  p.deallocate = deallocate;
  p.copy = copy;
  p.memset = memset;
}

}  // namespace kf::plugin::host_memory
