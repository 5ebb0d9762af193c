#include "dispatch/call_args.hpp"

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "registry/boxing.hpp"

namespace kf {
namespace {

[[noreturn]] void bad_tag(const OpDef& def, const ArgDef& a, const kf_value_t& v) {
  fail(KF_INVALID_ARGUMENT, "{}: argument '{}' must be a {}{}, got a value with tag {}", def.name,
       a.name, arg_type_name(a.type), a.optional ? " or None" : "", v.tag);
}

[[noreturn]] KF_COLD void bad_handle(const OpDef& def, const ArgDef& a, kf_tensor_t t) {
  fail(KF_INVALID_ARGUMENT, "{}: argument '{}': tensor handle {}", def.name, a.name,
       tensor_handle_problem(t));
}

// Accepts the loose forms a boxed caller may use (an int for a float or Scalar, ...).
kf_value_t coerce(const OpDef& def, const ArgDef& a, kf_value_t v) {
  switch (a.type) {
    case ArgType::Float:
      if (v.tag == KF_VALUE_INT) return box_float(static_cast<double>(v.v.i));
      break;
    case ArgType::Scalar:
      if (v.tag == KF_VALUE_INT) return box_scalar(kf_scalar_i64(v.v.i));
      if (v.tag == KF_VALUE_FLOAT) return box_scalar(kf_scalar_f64(v.v.f));
      if (v.tag == KF_VALUE_BOOL) return box_scalar(kf_scalar_bool(v.v.b));
      break;
    case ArgType::Int:
      if (v.tag == KF_VALUE_BOOL) return box_int(v.v.b ? 1 : 0);
      break;
    default:
      break;
  }
  if (v.tag != value_tag_of(a.type)) bad_tag(def, a, v);
  return v;
}

void check_value(const OpDef& def, const ArgDef& a, const kf_value_t& v) {
  if (a.type == ArgType::IntList && (v.v.ints.len < 0 || (v.v.ints.len > 0 && !v.v.ints.data))) {
    fail(KF_INVALID_ARGUMENT, "{}: argument '{}' has length {} but its data is {}", def.name,
         a.name, v.v.ints.len, v.v.ints.data ? "set" : "NULL");
  }
  if (a.type == ArgType::IntList && v.v.ints.len > KF_MAX_NDIM) {
    fail(KF_INVALID_ARGUMENT, "{}: argument '{}' has {} entries; at most {} are allowed",
         def.name, a.name, v.v.ints.len, KF_MAX_NDIM);
  }
  if (a.type == ArgType::Dtype && !is_valid_dtype(v.v.dtype)) {
    fail(KF_INVALID_ARGUMENT, "{}: argument '{}' is not a valid dtype (value {})", def.name,
         a.name, static_cast<int>(v.v.dtype));
  }
  if (a.type == ArgType::TensorList && (v.v.tensors.len < 0 ||
                                        (v.v.tensors.len > 0 && !v.v.tensors.data))) {
    fail(KF_INVALID_ARGUMENT, "{}: argument '{}' is a bad tensor list", def.name, a.name);
  }
}

// The common case: a Tensor, Scalar, int or bool of exactly the right tag needs no further
// checks (tensor handles are validated below).
inline bool exact_simple(const ArgDef& a, const kf_value_t& v) {
  switch (a.type) {
    case ArgType::Tensor: return v.tag == KF_VALUE_TENSOR;
    case ArgType::Scalar: return v.tag == KF_VALUE_SCALAR;
    case ArgType::Int: return v.tag == KF_VALUE_INT;
    case ArgType::Bool: return v.tag == KF_VALUE_BOOL;
    default: return false;
  }
}

}  // namespace

void normalize_args(const OpDef& def, const kf_value_t* args, int32_t nargs, CallArgs& out) {
  if (nargs < 0 || nargs > def.nargs || (nargs > 0 && args == nullptr)) {
    fail(KF_INVALID_ARGUMENT, "{}: got {} arguments{}, the schema has {}: {}", def.name, nargs,
         nargs > 0 && args == nullptr ? " but args is NULL" : "", def.nargs, def.schema);
  }
  out.def = &def;
  out.nargs = def.nargs;
  out.v = out.owned;
  int32_t ordinal = 0;
  for (int32_t i = 0; i < def.nargs; ++i) {
    const ArgDef& a = def.args[i];
    kf_value_t v = i < nargs ? args[i] : value_none();
    const bool null_tensor = v.tag == KF_VALUE_TENSOR && v.v.tensor == nullptr;
    if (v.tag == KF_VALUE_NONE || (null_tensor && a.optional)) v = a.default_value;
    if (v.tag == KF_VALUE_NONE) {
      if (!a.optional) {
        fail(KF_INVALID_ARGUMENT, "{}: argument '{}' ({}) is required{}", def.name, a.name,
             arg_type_name(a.type), a.type == ArgType::Tensor ? " but the tensor handle is NULL" : "");
      }
    } else if (!exact_simple(a, v)) {
      v = coerce(def, a, v);
      check_value(def, a, v);
    }
    out.owned[i] = v;
    if (a.type == ArgType::Tensor) {
      out.tensors[i] = nullptr;
      if (v.tag == KF_VALUE_TENSOR) {
        out.tensors[i] = find_tensor(v.v.tensor);
        if (out.tensors[i] == nullptr) bad_handle(def, a, v.v.tensor);
      }
      out.tensor_index[ordinal++] = i;
    }
  }
}

void bind_typed_args(const OpDef& def, const kf_value_t* args, CallArgs& out) {
  out.def = &def;
  out.nargs = def.nargs;
  out.v = args;
  int32_t ordinal = 0;
  for (int32_t i = 0; i < def.nargs; ++i) {
    const ArgDef& a = def.args[i];
    const kf_value_t& v = args[i];
    if (a.type == ArgType::Tensor) {
      out.tensors[i] = find_tensor(v.v.tensor);
      if (out.tensors[i] == nullptr && (v.v.tensor != nullptr || !a.optional)) {
        bad_handle(def, a, v.v.tensor);
      }
      out.tensor_index[ordinal++] = i;
    } else if (v.tag != KF_VALUE_NONE &&
               (a.type == ArgType::IntList || a.type == ArgType::Dtype ||
                a.type == ArgType::TensorList)) {
      check_value(def, a, v);
    } else if (v.tag == KF_VALUE_NONE && !a.optional) {
      fail(KF_INVALID_ARGUMENT, "{}: argument '{}' ({}) is required", def.name, a.name,
           arg_type_name(a.type));
    }
  }
}

}  // namespace kf
