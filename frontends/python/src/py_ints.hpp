// Python ints read without a Python call: what the C++ fast paths accept as an index, a slice
// bound or a shape. Anything else (numpy ints, bools, tensors) is left to the Python paths.
#pragma once

#include <cstdint>

#include <Python.h>

#include "kernforge/kernforge.h"

namespace kfpy {

/// A Python int (not a bool, not a subclass) as int64; with `clamp`, one beyond int64 is
/// clamped to it (slice bounds and steps clamp anyway), else refused.
inline bool exact_int(PyObject* o, int64_t& out, bool clamp) {
  if (!PyLong_CheckExact(o)) return false;
  int overflow = 0;
  out = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow != 0) {
    if (!clamp) return false;  // an index that large: the Python path says it is out of range
    out = overflow > 0 ? INT64_MAX : INT64_MIN;
  }
  return true;
}

/// A shape given as a Python int or a tuple or list of them (at most KF_MAX_NDIM); false
/// otherwise.
inline bool read_shape(PyObject* o, int64_t* shape, int32_t& ndim) {
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

}  // namespace kfpy
