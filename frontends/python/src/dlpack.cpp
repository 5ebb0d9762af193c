// DLPack for Python, both ways and without a copy, over the C ABI's kf_tensor_to_dlpack* and
// kf_tensor_from_dlpack*. The Python protocol (Tensor.__dlpack__, kf.from_dlpack) is assembled
// in _dlpack.py; this file makes and consumes the capsules.
//
// Capsules follow the protocol's naming: an export is "dltensor_versioned" (DLPack >= 1.0) or
// "dltensor" (legacy); a consumer that takes ownership renames it "used_dltensor_versioned" /
// "used_dltensor", and a capsule that dies unconsumed calls its managed tensor's deleter.
// An import that fails leaves the capsule as it was, so its destructor still frees it.
#include <cstdint>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

constexpr const char* kVersioned = "dltensor_versioned";
constexpr const char* kVersionedUsed = "used_dltensor_versioned";
constexpr const char* kLegacy = "dltensor";
constexpr const char* kLegacyUsed = "used_dltensor";

/// Calls the deleter of a capsule nobody consumed. Runs with an exception possibly set (the
/// capsule may die while one propagates), so the error state is kept around the call.
void delete_unconsumed(PyObject* capsule) {
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  if (PyCapsule_IsValid(capsule, kVersioned)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, kVersioned));
    if (m != nullptr && m->deleter != nullptr) m->deleter(m);
  } else if (PyCapsule_IsValid(capsule, kLegacy)) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kLegacy));
    if (m != nullptr && m->deleter != nullptr) m->deleter(m);
  }
  PyErr_Restore(type, value, trace);
}

/// A new capsule over `ptr`; when the capsule cannot be made, `release` frees ptr first.
template <class M>
nb::object capsule_of(M* ptr, const char* name) {
  PyObject* cap = PyCapsule_New(ptr, name, delete_unconsumed);
  if (cap == nullptr) {
    ptr->deleter(ptr);
    throw nb::python_error();
  }
  return nb::steal(cap);
}

/// Tensor `t` as a capsule: versioned (flags | copied) or legacy. The tensor's device is
/// synchronised first, so the consumer sees the work queued on it.
nb::object to_capsule(nb::handle t, bool versioned, bool copied) {
  const kf_tensor_t h = tensor_of(t);
  if (h == nullptr) raise(PyExc_TypeError, "__dlpack__ needs a kernforge Tensor");
  kf_device_t dev;
  check(kf_tensor_device(h, &dev));
  check(kf_synchronize(dev));
  if (versioned) {
    DLManagedTensorVersioned* m = nullptr;
    check(kf_tensor_to_dlpack(h, &m));
    if (copied) m->flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
    return capsule_of(m, kVersioned);
  }
  DLManagedTensor* m = nullptr;
  check(kf_tensor_to_dlpack_legacy(h, &m));
  return capsule_of(m, kLegacy);
}

/// A kernforge tensor owning the capsule's managed tensor (the capsule is marked used). A
/// read-only versioned tensor is imported as a copy when `copy_read_only`, else refused with
/// BufferError: kernforge tensors are writable.
nb::object from_capsule(nb::handle capsule, bool copy_read_only) {
  PyObject* cap = capsule.ptr();
  kf_tensor_t out = nullptr;
  bool read_only = false;
  if (PyCapsule_IsValid(cap, kVersioned)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kVersioned));
    read_only = (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    if (read_only && !copy_read_only) {
      raise(PyExc_BufferError, "the DLPack tensor is read-only and kernforge tensors are "
                               "writable: import a copy (kf.from_dlpack(x, copy=True))");
    }
    // Read-only: borrowed without the flag for the one copy below, never written through.
    m->flags &= ~static_cast<uint64_t>(DLPACK_FLAG_BITMASK_READ_ONLY);
    const kf_status_t s = kf_tensor_from_dlpack(m, &out);
    if (read_only) m->flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
    check(s);
    PyCapsule_SetName(cap, kVersionedUsed);
  } else if (PyCapsule_IsValid(cap, kLegacy)) {
    check(kf_tensor_from_dlpack_legacy(
        static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, kLegacy)), &out));
    PyCapsule_SetName(cap, kLegacyUsed);
  } else {
    raise(PyExc_ValueError, "not a DLPack capsule, or one already consumed (a capsule "
                            "named 'dltensor_versioned' or 'dltensor' is imported once)");
  }
  nb::object t = wrap(out);
  if (!read_only) return t;
  kf_tensor_t copy = nullptr;
  check(kf_clone(out, &copy));
  return wrap(copy);
}

/// The (DLPack device type, index) pair of a tensor: kernforge's built-in device types carry
/// DLPack's numbers.
nb::tuple dlpack_device(nb::handle t) {
  const kf_tensor_t h = tensor_of(t);
  if (h == nullptr) raise(PyExc_TypeError, "__dlpack_device__ needs a kernforge Tensor");
  kf_device_t dev;
  check(kf_tensor_device(h, &dev));
  return nb::make_tuple(dev.type, dev.index);
}

/// The kernforge device of a (DLPack device type, index) pair.
nb::object device_of_dlpack(int32_t type, int32_t index) {
  return nb::cast(Device{kf_device_t{type, index}});
}

}  // namespace

void bind_dlpack(nb::module_& m) {
  m.def("dlpack_device", &dlpack_device, nb::arg("tensor"));
  m.def("device_of_dlpack", &device_of_dlpack, nb::arg("type"), nb::arg("index"));
  m.def("to_dlpack", &to_capsule, nb::arg("tensor"), nb::arg("versioned"), nb::arg("copied"),
        "Tensor -> DLPack capsule ('dltensor_versioned' or legacy 'dltensor'), no copy.");
  m.def("from_dlpack_capsule", &from_capsule, nb::arg("capsule"), nb::arg("copy_read_only"),
        "DLPack capsule -> Tensor over the same memory (the capsule is consumed).");
}

}  // namespace kfpy
