// The views Python code makes most, in C++: Tensor.T and mT (kf_permute, kf_transpose),
// Tensor.reshape of Python ints (kf_reshape; any other argument goes to the op's generic
// method), and Tensor.__getitem__ and __setitem__ for basic keys: keys made only of Python ints,
// slices of Python ints (or None), None and one Ellipsis, for which numpy makes views. The key
// is read first, with no side effect; the view is then a short fixed sequence of C ABI view
// calls (kf_select, kf_slice with any nonzero step, kf_unsqueeze), one per item that changes
// anything. __setitem__ fills that view from a Python number (kf_fill_) or copies a tensor
// into it (kf_expand, kf_copy_). Every other key (advanced indices, numpy or tensor integers,
// bools, ...) and every other value (lists, arrays) go to the Python implementation,
// kernforge/_indexing.py. The errors raised here are the ones _indexing.py raises for the same
// keys, with the same text (tests/python/test_fast_paths.py).
#include <cstdint>
#include <string>

#include <nanobind/nanobind.h>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

// The Python paths, class attributes of Tensor that _tensor.py sets (_python_getitem,
// _python_setitem, _python_reshape): looked up when taken, so the extension holds no
// reference of its own (nothing of it outlives the interpreter: python.test_leaks).
nb::object python_path(nb::handle self, const char* name) { return nb::getattr(self, name); }

constexpr int32_t kMaxItems = 2 * KF_MAX_NDIM + 1;  // beyond that, a key is too long anyway

// An item of a key: read_item sets kind and the fields of that kind, and nothing reads the
// others (no initialisers: a Key is made on every call, and zeroing 33 items cost more than
// the view).
struct Item {
  enum Kind { kInt, kSlice, kNewAxis, kEllipsis } kind;
  int64_t index;                 // kInt
  bool full;                     // kSlice: start, stop and step all default
  bool has_start, has_stop;      // kSlice
  int64_t start, stop, step;     // kSlice
};

struct Key {
  Item items[kMaxItems];
  int32_t n = 0;
  int32_t used = 0;       // the dims the ints and slices take
  int32_t ellipses = 0;
};

// A Python int (not a bool, not a subclass) as int64; with `clamp`, one beyond int64 is
// clamped to it (slice bounds and steps clamp anyway), else refused.
bool exact_int(PyObject* o, int64_t& out, bool clamp) {
  if (!PyLong_CheckExact(o)) return false;
  int overflow = 0;
  out = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow != 0) {
    if (!clamp) return false;  // an index that large: the Python path says it is out of range
    out = overflow > 0 ? INT64_MAX : INT64_MIN;
  }
  return true;
}

// A slice bound: None, or a Python int.
bool bound(PyObject* o, bool& present, int64_t& value) {
  present = o != Py_None;
  return !present || exact_int(o, value, true);
}

bool read_slice(PyObject* o, Item& it) {
  auto* s = reinterpret_cast<PySliceObject*>(o);
  it.kind = Item::kSlice;
  bool has_step = false;
  if (!bound(s->start, it.has_start, it.start) || !bound(s->stop, it.has_stop, it.stop) ||
      !bound(s->step, has_step, it.step)) {
    return false;
  }
  if (!has_step) it.step = 1;  // a step of 0 is refused where the slice applies, in key order
  it.full = !it.has_start && !it.has_stop && it.step == 1;
  return true;
}

bool read_item(PyObject* o, Key& k) {
  if (k.n == kMaxItems) return false;
  Item& it = k.items[k.n++];
  if (o == Py_None) {
    it.kind = Item::kNewAxis;
  } else if (o == Py_Ellipsis) {
    it.kind = Item::kEllipsis;
    ++k.ellipses;
  } else if (PySlice_Check(o)) {
    if (!read_slice(o, it)) return false;
    ++k.used;
  } else if (exact_int(o, it.index, false)) {
    it.kind = Item::kInt;
    ++k.used;
  } else {
    return false;
  }
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

// One reference to a view, released unless taken.
struct Owned {
  kf_tensor_t h = nullptr;
  ~Owned() { kf_tensor_release(h); }
  void reset(kf_tensor_t next) {
    kf_tensor_release(h);
    h = next;
  }
};

[[noreturn]] void index_error(const std::string& message) {
  raise(PyExc_IndexError, message.c_str());
}

// Applies item `it` at dim `d` of `cur` (held in `view` unless it is self); returns the next dim.
int32_t apply(const Item& it, int32_t d, kf_tensor_t& cur, Owned& view) {
  kf_tensor_t next = nullptr;
  switch (it.kind) {
    case Item::kNewAxis:
      check(kf_unsqueeze(cur, d, &next));
      break;
    case Item::kSlice:
      if (it.full) return d + 1;
      if (it.step == 0) raise(PyExc_ValueError, "slice step cannot be zero");
      check(kf_slice(cur, d, it.has_start ? &it.start : nullptr,
                     it.has_stop ? &it.stop : nullptr, it.step, &next));
      break;
    case Item::kInt: {
      const int64_t* shape = nullptr;
      check(kf_tensor_shape(cur, &shape));
      const int64_t size = shape[d];
      if (it.index < -size || it.index >= size) {
        index_error("index " + std::to_string(it.index) + " is out of range for dim " +
                    std::to_string(d) + " of size " + std::to_string(size));
      }
      check(kf_select(cur, d, it.index, &next));
      view.reset(next);
      cur = next;
      return d;
    }
    case Item::kEllipsis:
      return d;  // the caller skips the dims it stands for
  }
  view.reset(next);
  cur = next;
  return d + 1;
}

// The view of self that basic key `k` names: self itself (borrowed) when the key changes
// nothing, else a new reference in `view`.
kf_tensor_t view_of(kf_tensor_t self, const Key& k, Owned& view) {
  if (k.ellipses > 1) index_error("an index can only have a single ellipsis ('...')");
  int32_t ndim = 0;
  check(kf_tensor_ndim(self, &ndim));
  if (k.used > ndim) {
    index_error("too many indices for a tensor of " + std::to_string(ndim) + " dims: " +
                std::to_string(k.used) + " given");
  }
  kf_tensor_t cur = self;
  int32_t d = 0;
  for (int32_t i = 0; i < k.n; ++i) {
    const Item& it = k.items[i];
    d = it.kind == Item::kEllipsis ? d + (ndim - k.used) : apply(it, d, cur, view);
  }
  return cur;
}

nb::object getitem(nb::handle self, nb::handle key) {
  Key k;
  if (!read_key(key.ptr(), k)) return python_path(self, "_python_getitem")(self, key);
  Owned view;
  view_of(tensor_of(self), k, view);
  if (view.h == nullptr) return nb::borrow(self);  // the key changes nothing
  const kf_tensor_t h = view.h;
  view.h = nullptr;
  return wrap(h);
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

void setitem(nb::handle self, nb::handle key, nb::handle value) {
  Key k;
  const bool value_ok = tensor_of(value) != nullptr || PyBool_Check(value.ptr()) ||
                        PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr()) ||
                        PyComplex_Check(value.ptr());
  if (value_ok && read_key(key.ptr(), k)) {
    Owned view;
    if (write(view_of(tensor_of(self), k, view), value)) return;
  }
  python_path(self, "_python_setitem")(self, key, value);
}

// reshape's shape when it is a Python int or a tuple or list of them; false otherwise.
bool read_shape(nb::handle arg, int64_t* shape, int32_t& ndim) {
  PyObject* o = arg.ptr();
  if (exact_int(o, shape[0], false)) {
    ndim = 1;
    return true;
  }
  if (!PyTuple_Check(o) && !PyList_Check(o)) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  if (n > KF_MAX_NDIM) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!exact_int(PySequence_Fast_GET_ITEM(o, i), shape[i], false)) return false;
  }
  ndim = static_cast<int32_t>(n);
  return true;
}

nb::object reshape(nb::handle self, nb::args args, nb::kwargs kwargs) {
  int64_t shape[KF_MAX_NDIM];
  int32_t ndim = 0;
  if (kwargs.size() == 0 && args.size() == 1 && read_shape(args[0], shape, ndim)) {
    kf_tensor_t out = nullptr;
    check(kf_reshape(tensor_of(self), shape, ndim, &out));
    return wrap(out);
  }
  return python_path(self, "_python_reshape")(self, *args, **kwargs);
}

}  // namespace

void bind_basic_index(nb::module_& m, nb::class_<Tensor>& cls) {
  cls.def("reshape", &reshape, "self with a new shape (one entry may be -1); a view when the "
          "strides allow, else a copy.");
  cls.def_prop_ro("T", [](const Tensor& t) {
    int32_t ndim = 0;
    check(kf_tensor_ndim(t.h, &ndim));
    int64_t dims[KF_MAX_NDIM];
    for (int32_t i = 0; i < ndim; ++i) dims[i] = ndim - 1 - i;
    kf_tensor_t out = nullptr;
    check(kf_permute(t.h, dims, ndim, &out));
    return wrap(out);
  }, "The view with the dims in reverse order.");
  cls.def_prop_ro("mT", [](const Tensor& t) {
    kf_tensor_t out = nullptr;
    check(kf_transpose(t.h, -2, -1, &out));
    return wrap(out);
  }, "The view with the last two dims swapped (a stack of transposed matrices).");
  cls.def("__getitem__", &getitem, nb::arg("key").none());
  cls.def("__setitem__", &setitem, nb::arg("key").none(), nb::arg("value").none());
}

}  // namespace kfpy
