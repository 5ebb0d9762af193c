// The kinds of op arguments, derived from the one list in tools/codegen/schema.py (ARG_KINDS,
// generated into arg_kinds.inc): the enum, the schema spelling, the C ABI's kf_value_t tag and
// the plugin ABI's kf_arg_t tag of each.
#pragma once

#include <cstdint>
#include <string_view>

#include "arg_kinds.inc"
#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"

namespace kf {

enum class ArgType : int32_t {
#define KF_ARG_TYPE_ENUM_(kind, text, value_tag, arg_tag) kind,
  KF_ARG_KINDS(KF_ARG_TYPE_ENUM_)
#undef KF_ARG_TYPE_ENUM_
};

/// "Tensor", "int[]", "ScalarType", ...
constexpr const char* arg_type_name(ArgType t) noexcept {
  switch (t) {
#define KF_ARG_TYPE_NAME_(kind, text, value_tag, arg_tag) \
  case ArgType::kind: return text;
    KF_ARG_KINDS(KF_ARG_TYPE_NAME_)
#undef KF_ARG_TYPE_NAME_
  }
  return "?";
}

/// The kf_value_t tag a value of this kind carries.
constexpr int32_t value_tag_of(ArgType t) noexcept {
  switch (t) {
#define KF_ARG_VALUE_TAG_(kind, text, value_tag, arg_tag) \
  case ArgType::kind: return value_tag;
    KF_ARG_KINDS(KF_ARG_VALUE_TAG_)
#undef KF_ARG_VALUE_TAG_
  }
  return KF_VALUE_NONE;
}

/// The kf_arg_t tag a kernel sees for a value with kf_value_t tag `value_tag`.
constexpr int32_t arg_tag_of_value(int32_t value_tag) noexcept {
#define KF_ARG_FROM_VALUE_(kind, text, vtag, atag) \
  if (value_tag == vtag) return atag;
  KF_ARG_KINDS(KF_ARG_FROM_VALUE_)
#undef KF_ARG_FROM_VALUE_
  return KF_ARG_NONE;
}

/// The kind spelled `text` in a schema ("int[]"); false when there is none.
inline bool arg_type_from_name(std::string_view text, ArgType* out) noexcept {
#define KF_ARG_FROM_TEXT_(kind, spelled, value_tag, arg_tag) \
  if (text == spelled) {                                     \
    *out = ArgType::kind;                                     \
    return true;                                              \
  }
  KF_ARG_KINDS(KF_ARG_FROM_TEXT_)
#undef KF_ARG_FROM_TEXT_
  return false;
}

}  // namespace kf
