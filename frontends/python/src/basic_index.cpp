// The views Python code makes most, in C++: Tensor.T and mT (kf_transpose),
// Tensor.reshape of Python ints (kf_reshape; any other argument goes to the op's generic
// method), and Tensor.__getitem__ and __setitem__ for basic keys: keys made only of Python ints,
// slices of Python ints (or None), None and one Ellipsis, for which numpy makes views. The key
// is read into kf_index_item_t items first, with no side effect, and the view is then one C
// ABI call, kf_tensor_index. __setitem__ of a Python number at one element (an int per dim) is
// one call too, kf_tensor_fill_at; any other basic key fills its view from a number (kf_fill_)
// or copies a tensor into it (kf_expand, kf_copy_). Every other key (advanced indices, numpy or
// tensor integers, bools, ...) and every other value (lists, arrays) go to the Python
// implementation, kernforge/_indexing.py. The errors raised here are the ones _indexing.py
// raises for the same keys, with the same text (tests/python/test_fast_paths.py): the C ABI
// words them alike, after the name of its function, which is left out here.
#include <cstdint>
#include <cstring>
#include <string>

#include <nanobind/nanobind.h>

#include "errors.hpp"
#include "py_ints.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

// The Python paths, class attributes of Tensor that _tensor.py sets (_python_getitem,
// _python_setitem, _python_reshape): looked up when taken, so the extension holds no
// reference of its own (nothing of it outlives the interpreter: python.test_leaks).
nb::object python_path(nb::handle self, const char* name) { return nb::getattr(self, name); }

constexpr int32_t kMaxItems = 2 * KF_MAX_NDIM + 1;  // beyond that, a key is too long anyway

// A key read into C ABI items. read_item sets each item's kind and the fields of that kind and
// nothing else (a Key is made on every call, and zeroing 33 items cost more than the view).
struct Key {
  kf_index_item_t items[kMaxItems];
  int64_t ints[kMaxItems];  // the indices, while every item is an int
  int32_t n = 0;
  int32_t used = 0;       // the dims the ints and slices take
  int32_t ellipses = 0;
  bool changes = false;   // an item other than a full slice or the ellipsis
  bool only_ints = true;
};

// A slice bound: None, or a Python int.
bool bound(PyObject* o, bool& present, int64_t& value) {
  present = o != Py_None;
  return !present || exact_int(o, value, true);
}

bool read_slice(PyObject* o, kf_index_item_t& it) {
  auto* s = reinterpret_cast<PySliceObject*>(o);
  it.kind = KF_INDEX_SLICE;
  bool has_step = false;
  if (!bound(s->start, it.has_start, it.start) || !bound(s->stop, it.has_stop, it.stop) ||
      !bound(s->step, has_step, it.step)) {
    return false;
  }
  if (!has_step) it.step = 1;  // a step of 0 is refused where the slice applies, in key order
  return true;
}

bool read_item(PyObject* o, Key& k) {
  if (k.n == kMaxItems) return false;
  kf_index_item_t& it = k.items[k.n];
  if (o == Py_None) {
    it.kind = KF_INDEX_NEW_AXIS;
  } else if (o == Py_Ellipsis) {
    it.kind = KF_INDEX_ELLIPSIS;
    ++k.ellipses;
  } else if (PySlice_Check(o)) {
    if (!read_slice(o, it)) return false;
    ++k.used;
    k.changes = k.changes || it.has_start || it.has_stop || it.step != 1;
  } else if (exact_int(o, it.index, false)) {
    it.kind = KF_INDEX_INT;
    k.ints[k.n] = it.index;
    ++k.used;
  } else {
    return false;
  }
  k.only_ints = k.only_ints && it.kind == KF_INDEX_INT;
  k.changes = k.changes || it.kind == KF_INDEX_INT || it.kind == KF_INDEX_NEW_AXIS;
  ++k.n;
  return true;
}

// Reads `key`; false when it is not a basic key (the Python path then takes it).
bool read_key(PyObject* key, Key& k) {
  if (!PyTuple_Check(key)) return read_item(key, k);
  const Py_ssize_t n = PyTuple_GET_SIZE(key);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!read_item(PyTuple_GET_ITEM(key, i), k)) return false;
  }
  return true;
}

// Raises a failed index call's error as the Python path words it: without "<fn>: ".
void check_index(kf_status_t status, const char* fn) {
  if (status == KF_OK) return;
  const char* message = kf_last_error_message();
  const size_t len = std::strlen(fn);
  if (std::strncmp(message, fn, len) != 0 || std::strncmp(message + len, ": ", 2) != 0) {
    raise_status(status);
  }
  raise(exception_for(status), message + len + 2);
}

int32_t ndim_of(kf_tensor_t t) {
  int32_t ndim = 0;
  check(kf_tensor_ndim(t, &ndim));
  return ndim;
}

// The view of self that key `k` names (a new reference).
kf_tensor_t view_of(kf_tensor_t self, const Key& k) {
  kf_tensor_t view = nullptr;
  check_index(kf_tensor_index(self, k.items, k.n, &view), "kf_tensor_index");
  return view;
}

// One reference to a view, released when it goes.
struct Owned {
  kf_tensor_t h = nullptr;
  ~Owned() { kf_tensor_release(h); }
};

nb::object getitem(nb::handle self, nb::handle key) {
  Key k;
  if (!read_key(key.ptr(), k)) return python_path(self, "_python_getitem")(self, key);
  const kf_tensor_t t = tensor_of(self);
  // A key that changes nothing gives self, once it is known to be a valid key.
  if (!k.changes && k.ellipses <= 1 && k.used <= ndim_of(t)) return nb::borrow(self);
  return wrap(view_of(t, k));
}

// value into the view: a Python number fills it, a tensor is broadcast and copied.
bool write(kf_tensor_t view, nb::handle value) {
  if (tensor_of(value) == nullptr) {
    kf_scalar_t s;
    if (!to_scalar(value, s)) return false;
    check(kf_fill_(view, s));
    return true;
  }
  int32_t ndim = 0;
  const int64_t* shape = nullptr;
  check(kf_tensor_ndim(view, &ndim));
  check(kf_tensor_shape(view, &shape));
  Owned expanded;
  check(kf_expand(tensor_of(value), shape, ndim, &expanded.h));
  check(kf_copy_(view, expanded.h));
  return true;
}

// self[ints] = a Python number, for one int per dim: one call, no view made.
bool fill_element(kf_tensor_t self, const Key& k, nb::handle value) {
  if (!k.only_ints || tensor_of(value) != nullptr || k.n != ndim_of(self)) return false;
  kf_scalar_t s;
  try {
    if (!to_scalar(value, s)) return false;
  } catch (const nb::python_error&) {
    return false;  // a number no scalar holds: raised by write(), after the index is checked
  }
  check_index(kf_tensor_fill_at(self, k.ints, k.n, s), "kf_tensor_fill_at");
  return true;
}

void setitem(nb::handle self, nb::handle key, nb::handle value) {
  Key k;
  const bool value_ok = tensor_of(value) != nullptr || PyBool_Check(value.ptr()) ||
                        PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr()) ||
                        PyComplex_Check(value.ptr());
  if (value_ok && read_key(key.ptr(), k)) {
    const kf_tensor_t t = tensor_of(self);
    if (fill_element(t, k, value)) return;
    Owned view;
    view.h = view_of(t, k);
    if (write(view.h, value)) return;
  }
  python_path(self, "_python_setitem")(self, key, value);
}

nb::object reshape(nb::handle self, nb::args args, nb::kwargs kwargs) {
  int64_t shape[KF_MAX_NDIM];
  int32_t ndim = 0;
  if (kwargs.size() == 0 && args.size() == 1 && read_shape(args[0].ptr(), shape, ndim)) {
    kf_tensor_t out = nullptr;
    check(kf_reshape(tensor_of(self), shape, ndim, &out));
    return wrap(out);
  }
  return python_path(self, "_python_reshape")(self, *args, **kwargs);
}

// The mapping slots of the Tensor type (tensor_index_slots): CPython calls them straight
// from t[key] and t[key] = value, with no method lookup and no argument parsing.
PyObject* subscript_slot(PyObject* self, PyObject* key) noexcept {
  PyObject* out = nullptr;
  return slot_call([&] { out = getitem(self, key).release().ptr(); }) ? out : nullptr;
}

int ass_subscript_slot(PyObject* self, PyObject* key, PyObject* value) noexcept {
  if (value == nullptr) {
    PyErr_SetString(PyExc_TypeError, "a tensor's elements cannot be deleted");
    return -1;
  }
  return slot_call([&] { setitem(self, key, value); }) ? 0 : -1;
}

}  // namespace

PyType_Slot tensor_index_slots[] = {
    {Py_mp_subscript, reinterpret_cast<void*>(&subscript_slot)},
    {Py_mp_ass_subscript, reinterpret_cast<void*>(&ass_subscript_slot)},
    {0, nullptr}};

void bind_basic_index(nb::module_& m, nb::class_<Tensor>& cls) {
  cls.def("reshape", &reshape, "self with a new shape (one entry may be -1); a view when the "
          "strides allow, else a copy.");
  cls.def_prop_ro("T", [](const Tensor& t) {
    int32_t ndim = 0;
    check(kf_tensor_ndim(t.h, &ndim));
    if (ndim != 2) {
      throw nb::value_error(
          ("T: the array has " + std::to_string(ndim) + " dimension(s), and .T transposes a 2-D "
           "array only (the array API standard); use .mT to swap the last two dims, or "
           "kf.permute_dims(x, axes) to reverse them all").c_str());
    }
    kf_tensor_t out = nullptr;
    check(kf_transpose(t.h, 0, 1, &out));
    return wrap(out);
  }, "The transposed view of a 2-D array (any other ndim is a ValueError).");
  cls.def_prop_ro("mT", [](const Tensor& t) {
    kf_tensor_t out = nullptr;
    check(kf_transpose(t.h, -2, -1, &out));
    return wrap(out);
  }, "The view with the last two dims swapped (a stack of transposed matrices).");
}

}  // namespace kfpy
