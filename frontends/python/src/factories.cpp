// The small factories in C++: kernforge.empty, zeros, ones and full are these functions
// themselves, CPython functions called with the vectorcall convention (METH_FASTCALL |
// METH_KEYWORDS), so a call runs no Python frame and no argument parser. Each docstring begins
// with the standard's signature, which inspect.signature reads (__text_signature__). A shape of
// Python ints (and, for full, a Python number), with dtype and device by keyword, is one typed C
// ABI call (kf_empty, kf_zeros, kf_ones, kf_full) with the op's own defaults: dtype None is the
// op's default (float32, or full's dtype of its value) and device None the default device. Any
// other call is handed, arguments as they came, to kernforge._creation's _generic_<name>, which
// calls the op's generic method: it reads every form the op accepts and words every error.
#include <cstdint>

#include <nanobind/nanobind.h>

#include "errors.hpp"
#include "py_ints.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

constexpr kf_device_t kNoDevice{KF_DEVICE_NONE, 0};

using Factory = kf_status_t (*)(const int64_t*, int32_t, kf_dtype_t, kf_device_t,
                                kf_tensor_t*);

/// The arguments of a fast call: `positional` of them, then only dtype= and device=.
struct FactoryCall {
  PyObject* const* args;
  nb::handle dtype, device;
};

bool read_call(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, Py_ssize_t positional,
               FactoryCall& call) {
  if (PyVectorcall_NARGS(nargs) != positional) return false;
  call.args = args;
  call.dtype = call.device = nb::none();
  const Py_ssize_t nkw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, i);
    nb::handle value = args[positional + i];
    if (PyUnicode_CompareWithASCIIString(name, "dtype") == 0) {
      call.dtype = value;
    } else if (PyUnicode_CompareWithASCIIString(name, "device") == 0) {
      call.device = value;
    } else {
      return false;
    }
  }
  return true;
}

/// kernforge._creation._generic_<name>(*args, **kwargs), for every call the fast path declines.
PyObject* generic(const char* name, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  const nb::object fn = nb::module_::import_("kernforge._creation").attr(name);
  return PyObject_Vectorcall(fn.ptr(), args, PyVectorcall_NARGS(nargs), kwnames);
}

template <Factory make>
nb::object fast_factory(const FactoryCall& c) {
  int64_t dims[KF_MAX_NDIM];
  int32_t ndim = 0;
  if (!read_shape(c.args[0], dims, ndim)) return nb::object();
  const kf_dtype_t dt = to_dtype(c.dtype);  // in the schema's order, as the generic method
  const kf_device_t dev = to_device(c.device, kNoDevice);
  kf_tensor_t out = nullptr;
  check(make(dims, ndim, dt, dev, &out));
  return wrap(out);
}

nb::object fast_full(const FactoryCall& c) {
  int64_t dims[KF_MAX_NDIM];
  int32_t ndim = 0;
  kf_scalar_t s;
  const nb::handle value = c.args[1];
  if (!read_shape(c.args[0], dims, ndim) || tensor_of(value) != nullptr ||
      !to_scalar(value, s)) {
    return nb::object();
  }
  const kf_dtype_t dt = to_dtype(c.dtype);
  const kf_device_t dev = to_device(c.device, kNoDevice);
  kf_tensor_t out = nullptr;
  check(kf_full(dims, ndim, s, dt, dev, &out));
  return wrap(out);
}

/// The vectorcall function of one factory: the fast path, else _generic_<name>.
template <nb::object (*Fast)(const FactoryCall&), Py_ssize_t Positional, const char* Generic>
PyObject* factory(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  FactoryCall call;
  if (!read_call(args, nargs, kwnames, Positional, call)) {
    return generic(Generic, args, nargs, kwnames);
  }
  PyObject* out = nullptr;
  const bool ok = slot_call([&] { out = Fast(call).release().ptr(); });
  if (!ok) return nullptr;
  return out != nullptr ? out : generic(Generic, args, nargs, kwnames);
}

constexpr char kGenericEmpty[] = "_generic_empty";
constexpr char kGenericZeros[] = "_generic_zeros";
constexpr char kGenericOnes[] = "_generic_ones";
constexpr char kGenericFull[] = "_generic_full";

template <auto Fn>
PyCFunction fastcall() {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Fn));
}

PyMethodDef factory_defs[] = {
    {"empty", fastcall<&factory<&fast_factory<kf_empty>, 1, kGenericEmpty>>(),
     METH_FASTCALL | METH_KEYWORDS,
     "empty(shape, *, dtype=None, device=None, requires_grad=False)\n--\n\n"
     "The array API's empty: an uninitialised tensor of `shape` (float32 unless `dtype`)."},
    {"zeros", fastcall<&factory<&fast_factory<kf_zeros>, 1, kGenericZeros>>(),
     METH_FASTCALL | METH_KEYWORDS,
     "zeros(shape, *, dtype=None, device=None, requires_grad=False)\n--\n\n"
     "The array API's zeros: a tensor of zeros of `shape` (float32 unless `dtype`)."},
    {"ones", fastcall<&factory<&fast_factory<kf_ones>, 1, kGenericOnes>>(),
     METH_FASTCALL | METH_KEYWORDS,
     "ones(shape, *, dtype=None, device=None, requires_grad=False)\n--\n\n"
     "The array API's ones: a tensor of ones of `shape` (float32 unless `dtype`)."},
    {"full", fastcall<&factory<&fast_full, 2, kGenericFull>>(), METH_FASTCALL | METH_KEYWORDS,
     "full(shape, fill_value, *, dtype=None, device=None, requires_grad=False)\n--\n\n"
     "The array API's full: a tensor of `shape` holding `fill_value` (of its dtype unless "
     "`dtype`: bool, int64, float32 or complex64 for Python numbers)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

void bind_factories(nb::module_& m) {
  if (PyModule_AddFunctions(m.ptr(), factory_defs) != 0) throw nb::python_error();
}

}  // namespace kfpy
