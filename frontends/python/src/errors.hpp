// Failing C calls become Python exceptions. The C ABI returns a status and keeps a thread-local
// message; the exception type is chosen from the status (ValueError for a bad argument,
// IndexError for an index out of range, MemoryError, NotImplementedError for a missing kernel,
// RuntimeError for the rest) and carries the message, so nothing a caller passes can crash the
// interpreter.
#pragma once

#include <exception>
#include <new>

#include <nanobind/nanobind.h>

#include "kernforge/kernforge.h"

namespace kfpy {

/// Sets the Python exception for `status` (with kf_last_error_message()) and throws
/// nb::python_error, which nanobind hands back to the interpreter.
[[noreturn]] void raise_status(kf_status_t status);

/// Throws like raise_status when `status` is not KF_OK.
inline void check(kf_status_t status) {
  if (status != KF_OK) raise_status(status);
}

/// Raises `type` (a Python exception class) with `message`.
[[noreturn]] void raise(PyObject* type, const char* message);

/// The Python exception class for a status (borrowed reference).
PyObject* exception_for(kf_status_t status);

/// Runs f inside a type slot that CPython calls directly (mp_subscript, nb_bool, ...): an
/// exception becomes the Python exception nanobind's own bindings would raise, and the result
/// is false; true when f returned.
template <class F>
bool slot_call(F&& f) noexcept {
  try {
    f();
    return true;
  } catch (nanobind::python_error& e) {
    e.restore();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return false;
}

void bind_errors(nanobind::module_& m);

}  // namespace kfpy
