// Host memory in and out through Python's buffer protocol (numpy arrays, array.array, bytes,
// memoryview): no numpy at build time or import time. A tensor is made from a C-contiguous
// buffer with kf_tensor_from_data (one copy) and copied out with kf_tensor_copy_to_host.
#include <cstring>
#include <string>
#include <vector>

#include "errors.hpp"
#include "kernforge/dtypes.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

// A Py_buffer released when the scope ends.
struct Buffer {
  Py_buffer view{};
  bool held = false;
  Buffer(nb::handle o, int flags) {
    if (PyObject_GetBuffer(o.ptr(), &view, flags) != 0) throw nb::python_error();
    held = true;
  }
  ~Buffer() {
    if (held) PyBuffer_Release(&view);
  }
};

// The dtype of a buffer's struct format ("f", "<d", "=q", "?", "Zf"): the format's kind and
// the item size, matched with KF_DTYPE_LIST's (kernforge/dtypes.hpp). No format names bfloat16.
kf_dtype_t dtype_of_format(const char* format, Py_ssize_t itemsize) {
  std::string f = format == nullptr ? "B" : format;
  if (!f.empty() && (f[0] == '@' || f[0] == '=' || f[0] == '<')) f.erase(0, 1);
  // Every platform kernforge builds for is little-endian; '>' and '!' are refused.
  const bool complex = f.size() == 2 && f[0] == 'Z';
  if (f.size() != 1 && !complex) return KF_DTYPE_UNDEFINED;
  const std::string floats = "efd", signed_ints = "bhilqn", unsigned_ints = "BHILQN";
  const char c = f.back();
  char kind = 0;
  if (complex) {
    kind = floats.find(c) != std::string::npos ? 'c' : 0;
  } else if (c == '?') {
    kind = 'b';
  } else if (floats.find(c) != std::string::npos) {
    kind = 'f';
  } else if (signed_ints.find(c) != std::string::npos) {
    kind = 'i';
  } else if (unsigned_ints.find(c) != std::string::npos) {
    kind = 'u';
  }
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    if (kind != 0 && kf::dtype_kind(d) == kind && !kf::is_brain_float(d) &&
        static_cast<Py_ssize_t>(kf::dtype_bytes(d)) == itemsize) {
      return static_cast<kf_dtype_t>(d);
    }
  }
  return KF_DTYPE_UNDEFINED;
}

/// "float32, float64, ..." but bfloat16, which no buffer format names.
std::string buffer_dtype_names() {
  std::string names;
  for (int d = 0; d < KF_DTYPE_COUNT; ++d) {
    if (kf::is_brain_float(d)) continue;
    names += (names.empty() ? "" : ", ") + std::string(kf::dtype_text(d));
  }
  return names;
}

nb::object from_buffer(nb::handle obj, nb::handle dtype, nb::handle device) {
  Buffer b(obj, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT);
  const kf_dtype_t have = dtype_of_format(b.view.format, b.view.itemsize);
  if (have == KF_DTYPE_UNDEFINED) {
    PyErr_Format(PyExc_TypeError, "a buffer of format '%s' (%zd bytes an item) has no kernforge "
                 "dtype; convert it first (e.g. numpy's .astype) to one of: %s",
                 b.view.format ? b.view.format : "B", b.view.itemsize,
                 buffer_dtype_names().c_str());
    throw nb::python_error();
  }
  if (b.view.ndim > KF_MAX_NDIM) raise(PyExc_ValueError, "kernforge tensors have at most 16 dims");
  int64_t shape[KF_MAX_NDIM];
  for (int i = 0; i < b.view.ndim; ++i) shape[i] = b.view.shape ? b.view.shape[i] : b.view.len / b.view.itemsize;
  const kf_device_t dev = to_device(device, kf_device_cpu());
  const kf_dtype_t want = to_dtype(dtype);
  kf_tensor_t t = nullptr;
  // Borrowing the buffer would save the copy but tie the tensor to a Python object's life; the
  // copy keeps the C side free of the interpreter.
  const bool convert = want != KF_DTYPE_UNDEFINED && want != have;
  check(kf_tensor_from_data(b.view.buf, shape, b.view.ndim, have,
                            convert ? kf_device_cpu() : dev, &t));
  if (!convert && (dev.type == KF_DEVICE_CPU && dev.index == 0)) return wrap(t);
  nb::object owned = wrap(t);
  kf_tensor_t out = nullptr;
  check(kf_tensor_to(t, dev, want, &out));
  return wrap(out);
}

/// A tensor of `dtype` and `shape` copied from the raw bytes of `data` (any C-contiguous
/// buffer of exactly numel * itemsize bytes), moved to `device`. The constructors' path for
/// dtypes no buffer format names (complex data packed as pairs of doubles).
nb::object from_bytes(nb::handle data, nb::handle shape_obj, nb::handle dtype, nb::handle device) {
  Buffer b(data, PyBUF_C_CONTIGUOUS);
  const kf_dtype_t d = to_dtype(dtype);
  if (d == KF_DTYPE_UNDEFINED) raise(PyExc_TypeError, "from_bytes: a dtype is needed");
  const nb::tuple dims = nb::cast<nb::tuple>(shape_obj);
  if (dims.size() > KF_MAX_NDIM) raise(PyExc_ValueError, "kernforge tensors have at most 16 dims");
  int64_t shape[KF_MAX_NDIM];
  int64_t numel = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    shape[i] = nb::cast<int64_t>(dims[i]);
    numel *= shape[i];
  }
  if (static_cast<size_t>(b.view.len) != static_cast<size_t>(numel) * kf_dtype_size(d)) {
    PyErr_Format(PyExc_ValueError, "from_bytes: %zd bytes for %lld elements of %s", b.view.len,
                 static_cast<long long>(numel), kf_dtype_name(d));
    throw nb::python_error();
  }
  kf_tensor_t t = nullptr;
  check(kf_tensor_from_data(b.view.buf, shape, static_cast<int32_t>(dims.size()), d,
                            kf_device_cpu(), &t));
  nb::object owned = wrap(t);
  const kf_device_t dev = to_device(device, kf_device_cpu());
  if (dev.type == KF_DEVICE_CPU && dev.index == 0) return owned;
  kf_tensor_t out = nullptr;
  check(kf_tensor_to(t, dev, KF_DTYPE_UNDEFINED, &out));
  return wrap(out);
}

size_t byte_size(kf_tensor_t t) {
  int64_t n = 0;
  kf_dtype_t d;
  check(kf_tensor_numel(t, &n));
  check(kf_tensor_dtype(t, &d));
  return static_cast<size_t>(n) * kf_dtype_size(d);
}

void copy_into(nb::handle tensor, nb::handle obj) {
  const kf_tensor_t t = tensor_of(tensor);
  if (t == nullptr) raise(PyExc_TypeError, "copy_into: expected a Tensor");
  Buffer b(obj, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE);
  const size_t bytes = byte_size(t);
  if (static_cast<size_t>(b.view.len) != bytes) {
    PyErr_Format(PyExc_ValueError, "copy_into: the buffer has %zd bytes, the tensor %zu",
                 b.view.len, bytes);
    throw nb::python_error();
  }
  kf_status_t s;
  Py_BEGIN_ALLOW_THREADS  // a device copy may wait for queued work
  s = kf_tensor_copy_to_host(t, b.view.buf, bytes);
  Py_END_ALLOW_THREADS
  check(s);
}

nb::bytes to_bytes(nb::handle tensor) {
  const kf_tensor_t t = tensor_of(tensor);
  if (t == nullptr) raise(PyExc_TypeError, "to_bytes: expected a Tensor");
  const size_t bytes = byte_size(t);
  PyObject* out = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(bytes));
  if (out == nullptr) throw nb::python_error();
  nb::bytes result = nb::steal<nb::bytes>(out);
  check(kf_tensor_copy_to_host(t, PyBytes_AS_STRING(out), bytes));
  return result;
}

}  // namespace

void bind_buffers(nb::module_& m) {
  m.def("from_bytes", &from_bytes, nb::arg("data"), nb::arg("shape"), nb::arg("dtype"),
        nb::arg("device").none() = nb::none(),
        "A tensor of dtype and shape from raw bytes (numel * itemsize of them).");
  m.def("from_buffer", &from_buffer, nb::arg("obj"), nb::arg("dtype").none() = nb::none(),
        nb::arg("device").none() = nb::none(),
        "A tensor with a copy of a C-contiguous buffer (numpy array, array.array, memoryview).");
  m.def("copy_into", &copy_into, nb::arg("tensor"), nb::arg("buffer"),
        "Copies the tensor's elements (row-major) into a writable C-contiguous buffer.");
  m.def("to_bytes", &to_bytes, nb::arg("tensor"), "The tensor's elements (row-major) as bytes.");
}

}  // namespace kfpy
