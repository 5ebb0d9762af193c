#include "dispatch/kernel_choice.hpp"

#include "core/dtype.hpp"
#include "core/environment.hpp"
#include "device/backend_registry.hpp"
#include "registry/kernel_table.hpp"

namespace kf {

namespace {

/// The choice after the backend's own kernel: a composite, the backend's fallback, the CPU
/// fallback, or nothing.
KernelChoice choose_below_kernel(const OpDef& def, const Backend& backend,
                                 kf_dtype_t dtype) noexcept {
  const bool valid = dtype >= 0 && dtype < KF_DTYPE_COUNT;
  if (def.kind == OpKind::Composite) return KernelChoice{KF_KERNEL_COMPOSITE, nullptr, 0, "core"};
  if (const FallbackEntry* f = lookup_fallback(backend.slot);
      f != nullptr && valid && (f->dtype_mask & (1u << dtype)) != 0) {
    return KernelChoice{KF_KERNEL_BACKEND_FALLBACK, f->fn, 0, f->provenance};
  }
  const Backend* cpu = backend_for_device_type(KF_DEVICE_CPU);
  if (cpu != nullptr && cpu != &backend && valid && env::cpu_fallback_enabled()) {
    const KernelEntry* c = lookup_kernels(def.id, cpu->slot);
    if (c != nullptr && c->fn[dtype] != nullptr) {
      return KernelChoice{KF_KERNEL_FALLBACK, nullptr, 0, "cpu fallback"};
    }
  }
  return KernelChoice{};
}

}  // namespace

KernelChoice choose_kernel(const OpDef& def, const Backend& backend, kf_dtype_t dtype) noexcept {
  if (def.kind == OpKind::View) return KernelChoice{KF_KERNEL_VIEW, nullptr, 0, "core"};
  const bool valid = dtype >= 0 && dtype < KF_DTYPE_COUNT;
  if (const KernelEntry* e = lookup_kernels(def.id, backend.slot); e != nullptr && valid) {
    if (kf_kernel_fn fn = e->fn[dtype]) {
      return KernelChoice{KF_KERNEL_BACKEND, fn, e->flags[dtype], e->provenance[dtype]};
    }
  }
  return choose_below_kernel(def, backend, dtype);
}

KernelChoice choose_kernel_for_inputs(const OpDef& def, const Backend& backend, kf_dtype_t dtype,
                                      uint32_t input_dtypes) noexcept {
  const KernelChoice choice = choose_kernel(def, backend, dtype);
  const uint32_t complex_inputs = input_dtypes & kComplexDtypes;
  if (choice.kind != KF_KERNEL_BACKEND || complex_inputs == 0) return choice;
  const KernelEntry* e = lookup_kernels(def.id, backend.slot);
  if ((complex_inputs & ~e->dtype_mask) == 0) return choice;
  return choose_below_kernel(def, backend, dtype);
}

const char* kernel_kind_name(int32_t kind) noexcept {
  switch (kind) {
    case KF_KERNEL_BACKEND: return "backend";
    case KF_KERNEL_COMPOSITE: return "composite";
    case KF_KERNEL_VIEW: return "view";
    case KF_KERNEL_BACKEND_FALLBACK: return "backend fallback";
    case KF_KERNEL_FALLBACK: return "fallback";
    case KF_KERNEL_NONE: return "none";
    default: return "unknown";
  }
}

}  // namespace kf
