// The boxed op API of the C ABI: kf_op_find/count/at/name/schema/doc/call and
// kf_op_kernel_info (the argument tables are c_api_op_args.cpp's).
#include <cstring>

#include "capi/op_calls.hpp"
#include "capi/startup.hpp"
#include "capi/struct_out.hpp"
#include "core/error.hpp"
#include "dispatch/dispatch.hpp"
#include "dispatch/kernel_choice.hpp"
#include "loader/plugin_records.hpp"
#include "registry/boxing.hpp"
#include "registry/op_registry.hpp"

namespace {

// Ways of serving an op, most specific first (see dispatch/kernel_choice.hpp).
constexpr int32_t kKindOrder[] = {KF_KERNEL_BACKEND, KF_KERNEL_VIEW, KF_KERNEL_COMPOSITE,
                                  KF_KERNEL_BACKEND_FALLBACK, KF_KERNEL_FALLBACK};

// The kernel choice for every dtype, summarised: the most specific kind and its dtypes.
kf_kernel_info_t kernel_info(const kf::OpDef& def, const kf::PluginRecord& r) {
  kf_kernel_info_t info{};
  info.struct_size = sizeof(info);
  info.kind = KF_KERNEL_NONE;
  info.provenance = "";
  if (r.backend == nullptr) return info;
  kf::KernelChoice by_dtype[KF_DTYPE_COUNT];
  for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
    by_dtype[d] = kf::choose_kernel(def, *r.backend, static_cast<kf_dtype_t>(d));
  }
  for (int32_t kind : kKindOrder) {
    for (int32_t d = 0; d < KF_DTYPE_COUNT; ++d) {
      if (by_dtype[d].kind != kind) continue;
      if (info.kind == KF_KERNEL_NONE) info.provenance = by_dtype[d].provenance;
      info.kind = kind;
      info.dtype_mask |= 1u << d;
    }
    if (info.kind != KF_KERNEL_NONE) break;
  }
  return info;
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_op_find(const char* name, kf_op_t* out) {
  return kf::guard([&] {
    if (name == nullptr || out == nullptr) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_op_find: name and out must not be NULL");
    }
    kf::ensure_initialized();  // plugins may define ops
    const kf::OpDef* def = kf::find_op(name);
    if (def == nullptr) {
      kf::fail(KF_NOT_FOUND, "no op named '{}' (kernforge ops lists the {} ops)", name,
               kf::op_count());
    }
    *out = kf::op_handle(*def);
  });
}

KF_API int32_t kf_op_count(void) {
  (void)kf::try_initialize();  // a failed start-up counts the ops known (its message is set)
  return kf::op_count();
}

KF_API kf_status_t kf_op_at(int32_t index, kf_op_t* out) {
  return kf::guard([&] {
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_op_at: out must not be NULL");
    kf::ensure_initialized();
    const kf::OpDef* def = kf::op_by_id(index);
    if (def == nullptr) {
      kf::fail(KF_OUT_OF_RANGE, "kf_op_at: index {} is out of range (0..{})", index,
               kf::op_count() - 1);
    }
    *out = kf::op_handle(*def);
  });
}

KF_API const char* kf_op_name(kf_op_t op) {
  const kf::OpDef* def = kf::op_of_handle(op);
  return def != nullptr ? def->name : "";
}

KF_API const char* kf_op_schema(kf_op_t op) {
  const kf::OpDef* def = kf::op_of_handle(op);
  return def != nullptr ? def->schema : "";
}

KF_API const char* kf_op_doc(kf_op_t op) {
  const kf::OpDef* def = kf::op_of_handle(op);
  return def != nullptr ? def->doc : "";
}

KF_API int32_t kf_op_num_returns(kf_op_t op) {
  const kf::OpDef* def = kf::op_of_handle(op);
  return def != nullptr ? def->nreturns : -1;
}

KF_API kf_status_t kf_op_call(kf_op_t op, const kf_value_t* args, int32_t nargs,
                              kf_value_t* results, int32_t nresults) {
  return kf::guard([&] {
    const kf::OpDef& def = kf::checked_op(op);
    if (nresults != def.nreturns) {
      kf::fail(KF_INVALID_ARGUMENT, "{}: nresults is {} but the op returns {} tensor(s)",
               def.name, nresults, def.nreturns);
    }
    if (nresults > 0 && results == nullptr) {
      kf::fail(KF_INVALID_ARGUMENT, "{}: results is NULL; pass an array of {} kf_value_t",
               def.name, nresults);
    }
    kf::ensure_initialized();
    const kf::OpCallDepth depth(def);
    const bool inplace = def.name[std::strlen(def.name) - 1] == '_';
    kf::TensorImpl* outs[kf::kMaxOutputs] = {};
    kf::run_boxed(def, args, nargs, inplace ? kf::CallMode::Inplace : kf::CallMode::Functional,
                  nullptr, outs);
    for (int32_t i = 0, k = 0; i < nresults; ++i) {
      if (inplace) {  // the i-th written argument (self first), checked by the call
        while (!def.args[k].written) ++k;
        outs[i] = &kf::checked(args[k++].v.tensor, def.name);
        kf::retain(outs[i]);
      }
      results[i] = kf::box_tensor(kf::handle_of(outs[i]));
    }
  });
}

KF_API kf_status_t kf_op_kernel_info(kf_op_t op, int32_t backend_index, kf_kernel_info_t* out) {
  return kf::guard([&] {
    const kf::OpDef& def = kf::checked_op(op);
    kf::ensure_initialized();
    const kf::PluginRecord* r = kf::record_at(backend_index);
    if (r == nullptr) {
      kf::fail(KF_OUT_OF_RANGE, "kf_op_kernel_info: backend index {} is out of range (0..{})",
               backend_index, kf::record_count() - 1);
    }
    constexpr size_t kMinSize = offsetof(kf_kernel_info_t, provenance) + sizeof(const char*);
    kf::fill_struct_out(out, kernel_info(def, *r), kMinSize, "kf_op_kernel_info");
  });
}

KF_API const char* kf_kernel_kind_name(int32_t kind) { return kf::kernel_kind_name(kind); }

}  // extern "C"
