#include "errors.hpp"

#include "c_text.hpp"

namespace nb = nanobind;

namespace kfpy {

PyObject* exception_for(kf_status_t status) {
  switch (status) {
    case KF_INVALID_ARGUMENT: return PyExc_ValueError;
    case KF_OUT_OF_RANGE: return PyExc_IndexError;  // a subclass of LookupError, as indexing wants
    case KF_OUT_OF_MEMORY: return PyExc_MemoryError;
    case KF_UNIMPLEMENTED: return PyExc_NotImplementedError;  // a subclass of RuntimeError
    case KF_NOT_FOUND: return PyExc_LookupError;
    case KF_PERMISSION_DENIED: return PyExc_PermissionError;
    case KF_TIMEOUT: return PyExc_TimeoutError;
    default: return PyExc_RuntimeError;
  }
}

void raise(PyObject* type, const char* message) {
  PyErr_SetString(type, message);
  throw nb::python_error();
}

void raise_status(kf_status_t status) {
  const char* message = kf_last_error_message();
  if (message == nullptr || message[0] == '\0') {
    // Every failing call should set a message; say at least which status came back.
    PyErr_Format(exception_for(status), "kernforge call failed with %s", kf_status_name(status));
  } else {
    PyErr_SetObject(exception_for(status), py_text(message).ptr());  // any bytes: escaped
  }
  throw nb::python_error();
}

void bind_errors(nb::module_& m) {
  m.def("status_exception", [](int32_t status) {
    return nb::borrow(exception_for(static_cast<kf_status_t>(status)));
  }, "The exception class kernforge raises for a kf_status_t value.");
}

}  // namespace kfpy
