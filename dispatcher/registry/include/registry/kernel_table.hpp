// The dispatch table: table[op][backend_slot] -> KernelEntry, one atomic load per lookup, and
// each backend's own boxed fallback. The registrar publishes new entries under
// registration_mutex() with a release store (copy-on-write); dispatch never locks. Old entries
// are never freed, so a reader holding one stays safe.
#pragma once

#include <cstdint>

#include "device/backend_registry.hpp"
#include "kernforge/plugin.h"
#include "registry/op_def.hpp"

namespace kf {

struct KernelEntry {
  kf_kernel_fn fn[KF_DTYPE_COUNT] = {};
  uint32_t flags[KF_DTYPE_COUNT] = {};
  const char* provenance[KF_DTYPE_COUNT] = {};  // "cpu: backends/cpu/x.cpp:12", process lifetime
  uint32_t dtype_mask = 0;
};

/// A backend's boxed fallback (kf_registrar_t.register_fallback).
struct FallbackEntry {
  kf_kernel_fn fn = nullptr;
  uint32_t dtype_mask = 0;
  const char* provenance = "";
};

/// The entry for (op, slot) or nullptr. Lock-free.
const KernelEntry* lookup_kernels(int32_t op, int32_t slot) noexcept;
/// The fallback of the backend in `slot`, or nullptr. Lock-free.
const FallbackEntry* lookup_fallback(int32_t slot) noexcept;

/// Publishes a new entry for (op, slot). The caller holds registration_mutex().
void publish_kernels(int32_t op, int32_t slot, const KernelEntry* entry);
/// Publishes a backend's fallback. The caller holds registration_mutex().
void publish_fallback(int32_t slot, const FallbackEntry* entry);

/// A number that changes after every committed registration (ops, kernels, fallbacks): what was
/// decided from the table before is stale once it differs. Lock-free.
uint64_t registration_generation() noexcept;
/// Moves it on. The caller holds registration_mutex().
void next_registration_generation() noexcept;

}  // namespace kf
