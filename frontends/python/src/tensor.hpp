// The Python Tensor type: a nanobind class that owns one reference to a kf_tensor_t, and the
// dtype and device objects. The conversions from Python values (dtypes by object or name,
// devices by object or name, numbers as scalars or 0-dim tensors) are shared by the operators
// (tensor_ops.cpp) and the boxed op calls (op_call.cpp).
#pragma once

#include <cstdint>

#include <nanobind/nanobind.h>

#include "kernforge/kernforge.h"

namespace kfpy {

/// One reference to a tensor; moved, never copied (a copy would need a retain for nothing).
struct Tensor {
  kf_tensor_t h = nullptr;
  explicit Tensor(kf_tensor_t handle) noexcept : h(handle) {}
  Tensor(Tensor&& o) noexcept : h(o.h) { o.h = nullptr; }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  Tensor& operator=(Tensor&&) = delete;
  ~Tensor() { kf_tensor_release(h); }
};

/// A dtype object: one instance per dtype (kf.float32 is kf.float32), made at module import.
struct DType {
  int32_t code;
};

/// A device object ("cpu", "cuda:1").
struct Device {
  kf_device_t d;
};

/// The Tensor type, set once when bind_tensor makes it: wrap and tensor_of use it directly,
/// without nanobind's lookup of the C++ type on every call.
extern PyTypeObject* g_tensor_type;

/// A new Python Tensor owning `h` (the caller's reference moves into it).
nanobind::object wrap(kf_tensor_t h);

/// The tensor inside a Python object, or nullptr when it is not a Tensor.
inline kf_tensor_t tensor_of(nanobind::handle o);

/// The dtype object of `code` (a borrowed singleton).
nanobind::object dtype_object(int32_t code);

/// Reads a dtype: a dtype object, a name ("float32", "f32"), Python's bool/int/float, or
/// anything with a `name` (numpy's dtypes); None gives KF_DTYPE_UNDEFINED. TypeError otherwise.
kf_dtype_t to_dtype(nanobind::handle o);

/// Reads a device: a device object or a name ("cpu", "cuda:1"); None gives `fallback`.
kf_device_t to_device(nanobind::handle o, kf_device_t fallback);

/// True (and `out` set) when `o` is a Python bool, int, float or complex. An int beyond int64 is
/// a uint64 scalar up to 2^64 - 1; OverflowError beyond that or below int64's minimum.
bool to_scalar(nanobind::handle o, kf_scalar_t& out);

/// A scalar as the Python number it holds: bool, int (int64 and uint64 exactly), float or
/// complex.
nanobind::object scalar_object(const kf_scalar_t& s);

/// A 0-dim CPU tensor holding the Python number `o`, promoted the way PyTorch promotes a Python
/// number against tensors: an int is int64 (uint64 beyond int64) and a bool is bool (both rank
/// below any dimensioned tensor of their kind); a float is float64 when `context` (the
/// promoted dtype of the op's floating and complex tensors, KF_DTYPE_UNDEFINED when none) is
/// one, and float32 otherwise (the default float dtype, as PyTorch's `int_tensor + 0.5`); a
/// complex is complex128 when `context` has 8-byte parts (float64, complex128) and complex64
/// otherwise (`float32_tensor + 1j` is complex64). Returns nullptr when `o` is not a number.
kf_tensor_t number_tensor(nanobind::handle o, kf_dtype_t context);

/// The promoted dtype of `a` and `b` where either is floating or complex (the context of
/// number_tensor), else the one that is, else KF_DTYPE_UNDEFINED.
kf_dtype_t inexact_context(kf_dtype_t a, kf_dtype_t b);

/// Tensor's mp_subscript and mp_ass_subscript (basic_index.cpp) and its nb_bool, nb_float,
/// nb_int and nb_index (tensor_ops.cpp), given when the type is made; each ends with {0, null}.
extern PyType_Slot tensor_index_slots[];
extern PyType_Slot tensor_number_slots[];

void bind_tensor(nanobind::module_& m);
void bind_tensor_ops(nanobind::module_& m, nanobind::class_<Tensor>& cls);
void bind_basic_index(nanobind::module_& m, nanobind::class_<Tensor>& cls);
/// requires_grad, grad, is_leaf, grad_fn, detach and backward on Tensor, and the module's grad
/// mode and engine calls (autograd.cpp).
void bind_autograd(nanobind::module_& m, nanobind::class_<Tensor>& cls);
/// Tensor.register_post_accumulate_grad_hook and its handle (grad_hooks.cpp).
void bind_grad_hooks(nanobind::module_& m, nanobind::class_<Tensor>& cls);
/// Raises the exception a Python hook raised during the backward that just failed on this
/// thread, if one did (grad_hooks.cpp); else returns. Cleared by each call.
void raise_hook_error();
/// Forgets an exception of an earlier backward's hook (before a backward starts).
void clear_hook_error() noexcept;
void bind_buffers(nanobind::module_& m);
void bind_sequences(nanobind::module_& m);
void bind_factories(nanobind::module_& m);

inline kf_tensor_t tensor_of(nanobind::handle o) {
  PyTypeObject* type = Py_TYPE(o.ptr());
  if (type != g_tensor_type && PyType_IsSubtype(type, g_tensor_type) == 0) return nullptr;
  return nanobind::inst_ptr<Tensor>(o)->h;
}

}  // namespace kfpy
