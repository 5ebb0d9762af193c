// The op argument tables of the C ABI (ABI 1.4): kf_op_arg_count, kf_op_arg_info,
// kf_op_is_inplace and kf_arg_kind_name, read from the registry's OpDef and its ArgDefs
// (generated from ops.yaml, or made by make_op for an op a plugin defined). None of them starts
// the runtime: a handle comes from kf_op_find or kf_op_at, which did.
#include "capi/struct_out.hpp"
#include "core/error.hpp"
#include "registry/op_def.hpp"
#include "registry/op_registry.hpp"

namespace {

kf_op_arg_info_t arg_info(const kf::ArgDef& a) noexcept {
  kf_op_arg_info_t info{};
  info.struct_size = sizeof(info);
  info.name = a.name;
  info.kind = kf::value_tag_of(a.type);  // kf_arg_kind_t numbers kinds by their value tags
  info.optional = a.optional;
  info.kwarg_only = a.kwarg_only;
  info.has_default = a.has_default;
  info.written = a.written;
  info.default_value = a.default_value;
  return info;
}

}  // namespace

extern "C" {

KF_API int32_t kf_op_arg_count(kf_op_t op) {
  const kf::OpDef* def = kf::op_of_handle(op);
  return def != nullptr ? def->nargs : -1;
}

KF_API kf_status_t kf_op_arg_info(kf_op_t op, int32_t index, kf_op_arg_info_t* out) {
  return kf::guard([&] {
    const kf::OpDef* def = kf::op_of_handle(op);
    if (def == nullptr) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_op_arg_info: the op handle is NULL or not from "
                                    "kf_op_find/kf_op_at");
    }
    if (index < 0 || index >= def->nargs) {
      kf::fail(KF_OUT_OF_RANGE, "kf_op_arg_info: index {} is out of range: {} takes {} "
                                "argument(s) (kf_op_arg_count)", index, def->name, def->nargs);
    }
    kf::fill_struct_out(out, arg_info(def->args[index]), sizeof(kf_op_arg_info_t),
                        "kf_op_arg_info");
  });
}

KF_API int32_t kf_op_is_inplace(kf_op_t op) {
  const kf::OpDef* def = kf::op_of_handle(op);
  if (def == nullptr) return -1;
  // Both schema parsers hold an in-place op to a written Tensor self first; an op that returns
  // nothing writes its tensor lists and is not in place.
  return def->nargs > 0 && def->args[0].written && def->args[0].type == kf::ArgType::Tensor ? 1
                                                                                           : 0;
}

KF_API const char* kf_arg_kind_name(int32_t kind) {
#define KF_ARG_KIND_NAME_(name, text, value_tag) \
  if (kind == value_tag) return text;
  KF_ARG_KIND_LIST(KF_ARG_KIND_NAME_)
#undef KF_ARG_KIND_NAME_
  return "unknown";
}

}  // extern "C"
