// Turning typed C arguments into kf_value_t (the boxed form every call goes through), and a
// kf_value_t into the kf_arg_t a kernel or a plugin's meta function sees. Used by the generated
// entry points, op tables and kf::ops functions. All inline and cheap: the tiny-op path boxes a
// handful of values on the stack.
#pragma once

#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"
#include "registry/arg_kind.hpp"

namespace kf {

inline kf_value_t value_none() noexcept {
  kf_value_t v;
  v.tag = KF_VALUE_NONE;
  v.v.i = 0;
  return v;
}
inline kf_value_t box_tensor(kf_tensor_t t) noexcept {
  kf_value_t v = value_none();
  v.tag = KF_VALUE_TENSOR;
  v.v.tensor = t;
  return v;
}
inline kf_value_t box_tensor_list(const kf_tensor_t* data, int32_t len) noexcept {
  kf_value_t v = value_none();
  v.tag = KF_VALUE_TENSOR_LIST;
  v.v.tensors.data = data;
  v.v.tensors.len = len;
  return v;
}
inline kf_value_t box_int(int64_t x) noexcept {
  kf_value_t v = value_none();
  v.tag = KF_VALUE_INT;
  v.v.i = x;
  return v;
}
inline kf_value_t box_optional_int(const int64_t* x) noexcept {
  return x == nullptr ? value_none() : box_int(*x);
}
inline kf_value_t box_float(double x) noexcept {
  kf_value_t v = value_none();
  v.tag = KF_VALUE_FLOAT;
  v.v.f = x;
  return v;
}
inline kf_value_t box_optional_float(const double* x) noexcept {
  return x == nullptr ? value_none() : box_float(*x);
}
inline kf_value_t box_bool(bool x) noexcept {
  kf_value_t v = value_none();
  v.tag = KF_VALUE_BOOL;
  v.v.b = x;
  return v;
}
inline kf_value_t box_scalar(kf_scalar_t s) noexcept {
  kf_value_t v = value_none();
  v.tag = KF_VALUE_SCALAR;
  v.v.scalar = s;
  return v;
}
inline kf_value_t box_optional_scalar(const kf_scalar_t* s) noexcept {
  return s == nullptr ? value_none() : box_scalar(*s);
}
/// KF_DTYPE_UNDEFINED means None.
inline kf_value_t box_dtype(kf_dtype_t d) noexcept {
  if (d == KF_DTYPE_UNDEFINED) return value_none();
  kf_value_t v = value_none();
  v.tag = KF_VALUE_DTYPE;
  v.v.dtype = d;
  return v;
}
/// A device of type KF_DEVICE_NONE means None.
inline kf_value_t box_device(kf_device_t d) noexcept {
  if (d.type == KF_DEVICE_NONE) return value_none();
  kf_value_t v = value_none();
  v.tag = KF_VALUE_DEVICE;
  v.v.device = d;
  return v;
}
/// NULL data means None for an optional list (validation rejects NULL with len > 0).
inline kf_value_t box_int_list(const int64_t* data, int32_t len, bool optional) noexcept {
  if (optional && data == nullptr && len == 0) return value_none();
  kf_value_t v = value_none();
  v.tag = KF_VALUE_INT_LIST;
  v.v.ints.data = data;
  v.v.ints.len = len;
  return v;
}

/// Writes the kf_arg_t of a non-tensor argument into `a` (list data is borrowed). Field by
/// field into its final place: a kf_arg_t built in a temporary and copied whole is read back
/// wider than it was written, which stalls store forwarding on the tiny-op path.
inline void put_kernel_arg(kf_arg_t* a, const kf_value_t& v) noexcept {
  a->tag = arg_tag_of_value(v.tag);
  a->v.i = 0;
  switch (a->tag) {
    case KF_ARG_INT: a->v.i = v.v.i; break;
    case KF_ARG_FLOAT: a->v.f = v.v.f; break;
    case KF_ARG_BOOL: a->v.b = v.v.b; break;
    case KF_ARG_SCALAR:
      a->v.scalar = v.v.scalar;
      break;
    case KF_ARG_DTYPE: a->v.dtype = v.v.dtype; break;
    case KF_ARG_DEVICE:
      a->v.device.type = v.v.device.type;
      a->v.device.index = v.v.device.index;
      break;
    case KF_ARG_INT_LIST:
      a->v.ints.data = v.v.ints.data;
      a->v.ints.len = v.v.ints.len;
      break;
    default: break;
  }
}

}  // namespace kf
