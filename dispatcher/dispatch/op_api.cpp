// The boxed op API of the C ABI: kf_op_find/count/at/name/schema/call and kf_op_kernel_info.
#include <cstring>

#include "core/error.hpp"
#include "dispatch/boxing.hpp"
#include "dispatch/dispatch.hpp"
#include "dispatch/kernel_call.hpp"
#include "dispatch/kernel_table.hpp"
#include "runtime_state.hpp"

namespace kf {

const OpDef* find_op(const char* name) noexcept {
  if (name == nullptr) return nullptr;
  for (int32_t i = 0; i < kOpCount; ++i) {
    if (std::strcmp(kOpDefs[i].name, name) == 0) return &kOpDefs[i];
  }
  return nullptr;
}

const OpDef& checked_op(kf_op_t op) {
  const auto* def = reinterpret_cast<const OpDef*>(op);
  if (def == nullptr || def < kOpDefs || def >= kOpDefs + kOpCount) {
    fail(KF_INVALID_ARGUMENT, "op handle is NULL or not from kf_op_find/kf_op_at");
  }
  return *def;
}

}  // namespace kf

namespace {

void fill_kernel_info(const kf::OpDef& def, int32_t backend_index, kf_kernel_info_t* out) {
  const kf::Backend* b = kf::backend_by_index(backend_index);
  out->kind = KF_KERNEL_NONE;
  out->dtype_mask = 0;
  out->provenance = "";
  if (def.kind == kf::OpKind::View || def.kind == kf::OpKind::Composite) {
    out->kind = def.kind == kf::OpKind::View ? KF_KERNEL_VIEW : KF_KERNEL_COMPOSITE;
    out->dtype_mask = (1u << KF_DTYPE_COUNT) - 1u;
    out->provenance = "core";
    return;
  }
  if (b == nullptr || b->state != KF_BACKEND_LOADED) return;
  if (const kf::KernelEntry* e = kf::lookup_kernels(def.id, b->slot)) {
    out->kind = KF_KERNEL_BACKEND;
    out->dtype_mask = e->dtype_mask;
    for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
      if (e->provenance[d] != nullptr) {
        out->provenance = e->provenance[d];
        break;
      }
    }
    return;
  }
  const kf::Backend* cpu = kf::backend_for_device_type(KF_DEVICE_CPU);
  if (cpu != nullptr && cpu != b && kf::cpu_fallback_enabled() &&
      kf::lookup_kernels(def.id, cpu->slot) != nullptr) {
    out->kind = KF_KERNEL_FALLBACK;
    out->dtype_mask = kf::lookup_kernels(def.id, cpu->slot)->dtype_mask;
    out->provenance = "cpu fallback";
  }
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_op_find(const char* name, kf_op_t* out) {
  return kf::guard([&] {
    if (name == nullptr || out == nullptr) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_op_find: name and out must not be NULL");
    }
    const kf::OpDef* def = kf::find_op(name);
    if (def == nullptr) {
      kf::fail(KF_NOT_FOUND, "no op named '{}' (kernforge ops lists the {} ops)", name,
               kf::kOpCount);
    }
    *out = kf::to_handle(def);
  });
}

KF_API int32_t kf_op_count(void) { return kf::kOpCount; }

KF_API kf_status_t kf_op_at(int32_t index, kf_op_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_op_at: out must not be NULL");
    if (index < 0 || index >= kf::kOpCount) {
      kf::fail(KF_OUT_OF_RANGE, "kf_op_at: index {} is out of range (0..{})", index,
               kf::kOpCount - 1);
    }
    *out = kf::to_handle(&kf::kOpDefs[index]);
  });
}

KF_API const char* kf_op_name(kf_op_t op) {
  const auto* def = reinterpret_cast<const kf::OpDef*>(op);
  return def >= kf::kOpDefs && def < kf::kOpDefs + kf::kOpCount ? def->name : "";
}

KF_API const char* kf_op_schema(kf_op_t op) {
  const auto* def = reinterpret_cast<const kf::OpDef*>(op);
  return def >= kf::kOpDefs && def < kf::kOpDefs + kf::kOpCount ? def->schema : "";
}

KF_API kf_status_t kf_op_call(kf_op_t op, const kf_value_t* args, int32_t nargs,
                              kf_value_t* results, int32_t nresults) {
  const kf::OpDef* def = nullptr;
  const kf_status_t s = kf::guard([&] {
    def = &kf::checked_op(op);
    if (nresults != def->nreturns || (nresults > 0 && results == nullptr)) {
      kf::fail(KF_INVALID_ARGUMENT, "{}: nresults is {} but the op returns {} tensor(s)",
               def->name, nresults, def->nreturns);
    }
  });
  if (s != KF_OK) return s;
  kf_tensor_t outs[kf::kMaxOutputs] = {};
  kf_tensor_t* out_ptrs[kf::kMaxOutputs] = {&outs[0], &outs[1], &outs[2], &outs[3]};
  const kf::CallMode mode = def->name[std::strlen(def->name) - 1] == '_'
                                ? kf::CallMode::Inplace : kf::CallMode::Functional;
  KF_RETURN_IF_ERROR(kf::call_op(def->id, args, nargs, mode, out_ptrs));
  for (int32_t i = 0; i < nresults; ++i) {
    if (mode == kf::CallMode::Inplace) {
      kf::retain(args[0].v.tensor);
      outs[i] = args[0].v.tensor;
    }
    results[i] = kf::box_tensor(outs[i]);
  }
  return KF_OK;
}

KF_API kf_status_t kf_op_kernel_info(kf_op_t op, int32_t backend_index, kf_kernel_info_t* out) {
  return kf::guard([&] {
    const kf::OpDef& def = kf::checked_op(op);
    if (out == nullptr || out->struct_size < sizeof(kf_kernel_info_t)) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_op_kernel_info: out is NULL or its struct_size is not "
                                    "set to sizeof(kf_kernel_info_t)");
    }
    kf::ensure_initialized();
    if (backend_index < 0 || backend_index >= kf::backend_count()) {
      kf::fail(KF_OUT_OF_RANGE, "kf_op_kernel_info: backend index {} is out of range (0..{})",
               backend_index, kf::backend_count() - 1);
    }
    fill_kernel_info(def, backend_index, out);
  });
}

}  // extern "C"
