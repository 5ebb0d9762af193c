#include "c_text.hpp"

#include <cstring>

namespace nb = nanobind;

namespace kfpy {

const char* c_text(nb::handle o, const char* what) {
  if (!PyUnicode_Check(o.ptr())) {
    PyErr_Format(PyExc_TypeError, "the %s must be a str, not %s", what, Py_TYPE(o.ptr())->tp_name);
    throw nb::python_error();
  }
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(o.ptr(), &size);
  if (text == nullptr) throw nb::python_error();  // a lone surrogate: UnicodeEncodeError
  const size_t length = std::strlen(text);
  if (length != static_cast<size_t>(size)) {
    PyErr_Format(PyExc_ValueError,
                 "the %s %R holds a NUL character (at offset %zu); a name cannot contain one",
                 what, o.ptr(), length);
    throw nb::python_error();
  }
  return text;
}

std::string c_path(nb::handle o) {
  PyObject* bytes = nullptr;
  // Python's own path rule: str (encoded with the file system's encoding and its error
  // handler, so a name os.listdir gave comes back as its bytes), bytes or os.PathLike; a NUL
  // raises ValueError("embedded null byte").
  if (PyUnicode_FSConverter(o.ptr(), &bytes) == 0) throw nb::python_error();
  nb::object owned = nb::steal(bytes);
  return std::string(PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes)));
}

nb::str py_text(const char* s) {
  if (s == nullptr) s = "";
  PyObject* o = PyUnicode_DecodeUTF8(s, static_cast<Py_ssize_t>(std::strlen(s)), "backslashreplace");
  if (o == nullptr) throw nb::python_error();
  return nb::steal<nb::str>(o);
}

nb::str py_path(const char* s) {
  PyObject* o = PyUnicode_DecodeFSDefault(s == nullptr ? "" : s);
  if (o == nullptr) throw nb::python_error();
  return nb::steal<nb::str>(o);
}

}  // namespace kfpy
