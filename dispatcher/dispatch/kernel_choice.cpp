#include "dispatch/kernel_choice.hpp"

#include "core/environment.hpp"
#include "device/backend_registry.hpp"
#include "registry/kernel_table.hpp"

namespace kf {

KernelChoice choose_kernel(const OpDef& def, const Backend& backend, kf_dtype_t dtype) noexcept {
  if (def.kind == OpKind::View) return KernelChoice{KF_KERNEL_VIEW, nullptr, 0, "core"};
  const bool valid = dtype >= 0 && dtype < KF_DTYPE_COUNT;
  if (const KernelEntry* e = lookup_kernels(def.id, backend.slot); e != nullptr && valid) {
    if (kf_kernel_fn fn = e->fn[dtype]) {
      return KernelChoice{KF_KERNEL_BACKEND, fn, e->flags[dtype], e->provenance[dtype]};
    }
  }
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
