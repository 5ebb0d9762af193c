// Tensors from Python numbers and nested lists and tuples, in C++: kernforge._C.from_sequence.
// One walk reads the shape (the first entry of each level, as _creation.py does) and checks
// that every row has it and that every leaf is an exact Python bool, int or float; a second
// walk writes the leaves into one buffer of the tensor's dtype, which kf_tensor_from_data
// copies to the device. The dtype follows _creation.py's rules: bool when every leaf is a bool,
// int64 when the leaves are ints (and bools), float32 when any is a float (ints and bools
// converted through float64, as struct's "f" does), or float64 when asked for. Anything else
// (a requested dtype other than float32 or float64, float32 asked of integer data, complex
// numbers, numpy scalars, tensors among the leaves, ints beyond int64, floats beyond float32,
// empty or ragged sequences, nesting deeper than a tensor's dims) returns None, and
// _creation.py's Python path makes the tensor or raises its error: nothing changes but speed.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>

#include <nanobind/nanobind.h>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

enum class Kind { kBool, kInt, kFloat };

struct Layout {
  int64_t shape[KF_MAX_NDIM];
  int32_t ndim = 0;
  int64_t numel = 1;
  Kind kind = Kind::kBool;
};

inline bool is_sequence(PyObject* o) { return PyList_Check(o) || PyTuple_Check(o); }

inline Py_ssize_t length(PyObject* o) {
  return PyList_Check(o) ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
}

inline PyObject* entry(PyObject* o, Py_ssize_t i) {
  return PyList_Check(o) ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i);
}

// The shape along the first entries; false when empty or too deep (the Python path decides).
bool read_shape(PyObject* data, Layout& l) {
  for (PyObject* level = data; is_sequence(level); level = entry(level, 0)) {
    if (l.ndim == KF_MAX_NDIM) return false;
    const Py_ssize_t n = length(level);
    if (n == 0) return false;
    l.shape[l.ndim++] = n;
    l.numel *= n;  // <= the number of objects that exist: no overflow
  }
  return true;
}

// Checks a leaf and widens the kind; false for anything the fast path does not take.
bool check_leaf(PyObject* o, Kind& kind) {
  if (PyBool_Check(o)) return true;
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    (void)PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0) return false;  // uint64 or beyond: the Python path's rules
    if (kind == Kind::kBool) kind = Kind::kInt;
    return true;
  }
  if (PyFloat_CheckExact(o)) {
    kind = Kind::kFloat;
    return true;
  }
  return false;
}

// Every row of dim `depth` and below has the shape, and every leaf passes check_leaf.
bool conforms(PyObject* o, int32_t depth, Layout& l) {
  if (depth == l.ndim) return !is_sequence(o) && check_leaf(o, l.kind);
  if (!is_sequence(o) || length(o) != l.shape[depth]) return false;
  for (Py_ssize_t i = 0; i < l.shape[depth]; ++i) {
    if (!conforms(entry(o, i), depth + 1, l)) return false;
  }
  return true;
}

// A checked leaf as a double (a bool as 0 or 1, an int through float64, as struct does).
inline double as_double(PyObject* o) {
  if (PyFloat_CheckExact(o)) return PyFloat_AS_DOUBLE(o);
  if (PyBool_Check(o)) return o == Py_True ? 1.0 : 0.0;
  return PyLong_AsDouble(o);  // fits int64: never fails
}

template <class T>
struct Writer {
  T* out;
  bool ok = true;
  void leaf(PyObject* o) {
    if constexpr (std::is_same_v<T, bool>) {
      *out++ = o == Py_True;
    } else if constexpr (std::is_same_v<T, int64_t>) {
      *out++ = PyBool_Check(o) ? (o == Py_True ? 1 : 0) : PyLong_AsLongLong(o);
    } else if constexpr (std::is_same_v<T, float>) {
      const double x = as_double(o);
      // Beyond float32 (a cast would be undefined): declined, and struct's "f" decides.
      const bool fits = !std::isfinite(x) || std::fabs(x) <= std::numeric_limits<float>::max();
      ok = ok && fits;
      *out++ = fits ? static_cast<float>(x) : 0.0f;
    } else {
      *out++ = as_double(o);
    }
  }
  void walk(PyObject* o, int32_t depth, int32_t ndim) {
    if (depth == ndim) return leaf(o);
    const Py_ssize_t n = length(o);
    for (Py_ssize_t i = 0; i < n; ++i) walk(entry(o, i), depth + 1, ndim);
  }
};

template <class T>
kf_tensor_t make(PyObject* data, const Layout& l, kf_dtype_t dtype, kf_device_t device) {
  std::unique_ptr<T[]> buffer(new T[static_cast<size_t>(l.numel)]);
  Writer<T> w{buffer.get()};
  w.walk(data, 0, l.ndim);
  if (!w.ok) return nullptr;
  kf_tensor_t out = nullptr;
  check(kf_tensor_from_data(buffer.get(), l.shape, l.ndim, dtype, device, &out));
  return out;
}

// The dtype the leaves are written in, or KF_DTYPE_UNDEFINED when the Python path decides.
kf_dtype_t chosen(Kind kind, kf_dtype_t requested) {
  if (requested == KF_DTYPE_UNDEFINED) {
    return kind == Kind::kBool ? KF_BOOL : kind == Kind::kInt ? KF_INT64 : KF_FLOAT32;
  }
  if (requested == KF_FLOAT64) return KF_FLOAT64;
  if (requested == KF_FLOAT32 && kind == Kind::kFloat) return KF_FLOAT32;
  return KF_DTYPE_UNDEFINED;
}

nb::object from_sequence(nb::handle data, nb::handle dtype, nb::handle device) {
  if (!dtype.is_none() && !nb::isinstance<DType>(dtype)) return nb::none();  // a name, ...
  Layout l;
  if (!read_shape(data.ptr(), l) || !conforms(data.ptr(), 0, l)) return nb::none();
  const kf_dtype_t d = chosen(l.kind, to_dtype(dtype));
  if (d == KF_DTYPE_UNDEFINED) return nb::none();
  const kf_device_t dev = to_device(device, kf_device_cpu());
  kf_tensor_t t = nullptr;
  switch (d) {
    case KF_BOOL: t = make<bool>(data.ptr(), l, d, dev); break;
    case KF_INT64: t = make<int64_t>(data.ptr(), l, d, dev); break;
    case KF_FLOAT32: t = make<float>(data.ptr(), l, d, dev); break;
    default: t = make<double>(data.ptr(), l, d, dev); break;
  }
  return t != nullptr ? wrap(t) : nb::none();
}

}  // namespace

void bind_sequences(nb::module_& m) {
  m.def("from_sequence", &from_sequence, nb::arg("data"), nb::arg("dtype").none(),
        nb::arg("device").none(),
        "A tensor of a Python bool, int or float or nested lists and tuples of them, or None "
        "when _creation.py's Python path must decide (see sequences.cpp).");
}

}  // namespace kfpy
