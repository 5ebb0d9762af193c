// The Tensor, dtype and device classes and their accessors. The arithmetic operators are in
// tensor_ops.cpp; the op methods are added by the Python package from the registry.
#include "tensor.hpp"

#include <new>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "c_text.hpp"
#include "errors.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

// The dtype singletons, owned by the module's `_dtypes` list (so they live while it does).
PyObject* g_dtypes[KF_DTYPE_COUNT] = {};

std::string device_name(kf_device_t d) {
  char buf[64];
  check(kf_device_name(d, buf, sizeof buf));
  return buf;
}

nb::tuple shape_of(kf_tensor_t h) {
  int32_t ndim = 0;
  const int64_t* shape = nullptr;
  check(kf_tensor_ndim(h, &ndim));
  check(kf_tensor_shape(h, &shape));
  PyObject* t = PyTuple_New(ndim);
  if (t == nullptr) throw nb::python_error();
  for (int32_t i = 0; i < ndim; ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(shape[i]));
  return nb::steal<nb::tuple>(t);
}

nb::tuple strides_of(kf_tensor_t h) {
  int32_t ndim = 0;
  const int64_t* strides = nullptr;
  check(kf_tensor_ndim(h, &ndim));
  check(kf_tensor_strides(h, &strides));
  nb::list l;
  for (int32_t i = 0; i < ndim; ++i) l.append(strides[i]);
  return nb::tuple(l);
}

nb::object item_of(kf_tensor_t h) {
  kf_scalar_t s;
  check(kf_tensor_item(h, &s));
  return scalar_object(s);
}

bool is_inexact(kf_dtype_t d) { return kf_dtype_kind(d) == 'f' || kf_dtype_kind(d) == 'c'; }

void bind_dtype(nb::module_& m) {
  nb::class_<DType>(m, "dtype", "A tensor element type (kf.float32, kf.int64, kf.bool, ...).")
      .def_prop_ro("name", [](const DType& d) { return kf_dtype_name(static_cast<kf_dtype_t>(d.code)); })
      .def_prop_ro("itemsize", [](const DType& d) { return kf_dtype_itemsize(d.code); })
      .def_prop_ro("kind", [](const DType& d) { return std::string(1, kf_dtype_kind(d.code)); },
                   "'f' floating, 'i' signed, 'u' unsigned, 'b' bool")
      .def_prop_ro("is_floating_point", [](const DType& d) { return kf_dtype_kind(d.code) == 'f'; })
      .def_ro("code", &DType::code)
      .def("__repr__", [](const DType& d) {
        return std::string("kernforge.") + kf_dtype_name(static_cast<kf_dtype_t>(d.code));
      })
      .def("__str__", [](const DType& d) { return kf_dtype_name(static_cast<kf_dtype_t>(d.code)); })
      .def("__reduce__", [](const DType& d) {
        return nb::make_tuple(nb::module_::import_("kernforge").attr("dtype_from_name"),
                              nb::make_tuple(kf_dtype_name(static_cast<kf_dtype_t>(d.code))));
      });
  nb::list dtypes;
  for (int32_t code = 0; code < KF_DTYPE_COUNT; ++code) {
    nb::object o = nb::cast(DType{code}, nb::rv_policy::move);
    g_dtypes[code] = o.ptr();
    dtypes.append(o);
  }
  m.attr("_dtypes") = dtypes;
}

void bind_device(nb::module_& m) {
  nb::class_<Device>(m, "device", "A device: kf.device('cpu'), kf.device('cuda:1').")
      .def("__init__", [](Device* self, nb::handle spec) {
        new (self) Device{to_device(spec, kf_device_cpu())};
      }, nb::arg("spec"))
      .def("__init__", [](Device* self, nb::str type, int32_t index) {
        kf_device_t d;
        check(kf_device_parse(c_text(type, "device type"), &d));
        d.index = index;
        new (self) Device{d};
      }, nb::arg("type"), nb::arg("index"))
      .def_prop_ro("type", [](const Device& d) {
        std::string name = device_name(kf_device_t{d.d.type, 0});
        return name.substr(0, name.find(':'));
      })
      .def_prop_ro("index", [](const Device& d) { return d.d.index; })
      .def("__str__", [](const Device& d) { return device_name(d.d); })
      .def("__repr__", [](const Device& d) { return "device('" + device_name(d.d) + "')"; })
      .def("__eq__", [](const Device& a, nb::handle b) {
        if (!nb::isinstance<Device>(b) && !nb::isinstance<nb::str>(b)) return false;
        const kf_device_t d = to_device(b, kf_device_cpu());
        return a.d.type == d.type && a.d.index == d.index;
      })
      .def("__hash__", [](const Device& d) { return (static_cast<int64_t>(d.d.type) << 32) | d.d.index; });
}

}  // namespace

PyTypeObject* g_tensor_type = nullptr;

nb::object wrap(kf_tensor_t h) {
  nb::object o;
  try {
    o = nb::inst_alloc(reinterpret_cast<PyObject*>(g_tensor_type));
  } catch (...) {  // MemoryError: h is not kept, so it goes back
    kf_tensor_release(h);
    throw;
  }
  if (!o.is_valid()) {
    kf_tensor_release(h);
    throw nb::python_error();
  }
  new (nb::inst_ptr<Tensor>(o)) Tensor(h);
  nb::inst_mark_ready(o);
  return o;
}

nb::object dtype_object(int32_t code) {
  if (code < 0 || code >= KF_DTYPE_COUNT) raise(PyExc_ValueError, "unknown dtype code");
  return nb::borrow(g_dtypes[code]);
}

kf_dtype_t to_dtype(nb::handle o) {
  if (o.is_none()) return KF_DTYPE_UNDEFINED;
  if (nb::isinstance<DType>(o)) return static_cast<kf_dtype_t>(nb::inst_ptr<DType>(o)->code);
  if (o.ptr() == reinterpret_cast<PyObject*>(&PyBool_Type)) return KF_BOOL;
  if (o.ptr() == reinterpret_cast<PyObject*>(&PyLong_Type)) return KF_INT64;
  if (o.ptr() == reinterpret_cast<PyObject*>(&PyFloat_Type)) return KF_FLOAT64;
  nb::object name;
  if (nb::isinstance<nb::str>(o)) {
    name = nb::borrow(o);
  } else if (nb::hasattr(o, "name") && nb::isinstance<nb::str>(o.attr("name"))) {
    name = o.attr("name");  // numpy.dtype('float32')
  } else if (nb::hasattr(o, "__name__")) {
    name = o.attr("__name__");  // numpy.float32
  } else {
    PyErr_Format(PyExc_TypeError, "expected a dtype (kf.float32, 'float32', ...), got %R", o.ptr());
    throw nb::python_error();
  }
  kf_dtype_t d;
  if (!nb::isinstance<nb::str>(name)) {
    PyErr_Format(PyExc_TypeError, "expected a dtype (kf.float32, 'float32', ...), got %R", o.ptr());
    throw nb::python_error();
  }
  const char* text = c_text(name, "dtype name");
  if (kf_dtype_parse(text, &d) != KF_OK) {
    PyErr_Format(PyExc_TypeError, "%s; expected a dtype (kf.float32, 'float32', 'f32', ...), got %R",
                 kf_last_error_message(), o.ptr());
    throw nb::python_error();
  }
  return d;
}

kf_device_t to_device(nb::handle o, kf_device_t fallback) {
  if (o.is_none()) return fallback;
  if (nb::isinstance<Device>(o)) return nb::inst_ptr<Device>(o)->d;
  if (!nb::isinstance<nb::str>(o)) {
    PyErr_Format(PyExc_TypeError, "expected a device (kf.device('cpu'), 'cpu', 'cuda:1'), got %R",
                 o.ptr());
    throw nb::python_error();
  }
  kf_device_t d;
  check(kf_device_parse(c_text(o, "device name"), &d));
  return d;
}

namespace {

/// A Python int as an int64 scalar, or a uint64 one above int64's maximum.
kf_scalar_t int_scalar(PyObject* p) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
  if (overflow == 0) return kf_scalar_i64(v);
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(p);
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) return kf_scalar_u64(u);
    PyErr_Clear();
  }
  raise(PyExc_OverflowError, "a Python int outside [-2^63, 2^64 - 1] cannot be a kernforge "
                             "scalar (int64 and uint64 hold no more)");
}

}  // namespace

bool to_scalar(nb::handle o, kf_scalar_t& out) {
  PyObject* p = o.ptr();
  if (PyBool_Check(p)) {
    out = kf_scalar_bool(p == Py_True);
  } else if (PyLong_Check(p)) {
    out = int_scalar(p);
  } else if (PyFloat_Check(p)) {
    out = kf_scalar_f64(PyFloat_AS_DOUBLE(p));
  } else if (PyComplex_Check(p)) {
    out = kf_scalar_c128(PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p));
  } else {
    return false;
  }
  return true;
}

nb::object scalar_object(const kf_scalar_t& s) {
  PyObject* o = nullptr;
  switch (s.tag) {
    case KF_SCALAR_BOOL: return nb::bool_(s.v.b);
    case KF_SCALAR_INT64: o = PyLong_FromLongLong(s.v.i64); break;
    case KF_SCALAR_UINT64: o = PyLong_FromUnsignedLongLong(s.v.u64); break;
    case KF_SCALAR_COMPLEX128: o = PyComplex_FromDoubles(s.v.c128.re, s.v.c128.im); break;
    default: o = PyFloat_FromDouble(s.v.f64); break;
  }
  if (o == nullptr) throw nb::python_error();
  return nb::steal(o);
}

kf_dtype_t inexact_context(kf_dtype_t a, kf_dtype_t b) {
  const bool ia = is_inexact(a), ib = is_inexact(b);
  if (ia && ib) {
    kf_dtype_t r = a;
    return kf_promote_types(a, b, &r) == KF_OK ? r : a;
  }
  return ia ? a : ib ? b : KF_DTYPE_UNDEFINED;
}

kf_tensor_t number_tensor(nb::handle o, kf_dtype_t context) {
  kf_scalar_t s;
  if (!to_scalar(o, s)) return nullptr;
  kf_tensor_t t = nullptr;
  const kf_device_t cpu = kf_device_cpu();
  switch (s.tag) {
    case KF_SCALAR_BOOL: {
      const bool v = s.v.b;
      check(kf_tensor_from_data(&v, nullptr, 0, KF_BOOL, cpu, &t));
      break;
    }
    case KF_SCALAR_INT64:
      check(kf_tensor_from_data(&s.v.i64, nullptr, 0, KF_INT64, cpu, &t));
      break;
    case KF_SCALAR_UINT64:
      check(kf_tensor_from_data(&s.v.u64, nullptr, 0, KF_UINT64, cpu, &t));
      break;
    case KF_SCALAR_COMPLEX128: {
      const bool wide = is_inexact(context) && kf_dtype_itemsize(context) /
                                                   (kf_dtype_kind(context) == 'c' ? 2 : 1) == 8;
      if (wide) {
        check(kf_tensor_from_data(&s.v.c128, nullptr, 0, KF_COMPLEX128, cpu, &t));
      } else {
        const float v[2] = {static_cast<float>(s.v.c128.re), static_cast<float>(s.v.c128.im)};
        check(kf_tensor_from_data(v, nullptr, 0, KF_COMPLEX64, cpu, &t));
      }
      break;
    }
    default:
      if (is_inexact(context)) {
        check(kf_tensor_from_data(&s.v.f64, nullptr, 0, KF_FLOAT64, cpu, &t));
      } else {
        const float v = static_cast<float>(s.v.f64);
        check(kf_tensor_from_data(&v, nullptr, 0, KF_FLOAT32, cpu, &t));
      }
      break;
  }
  return t;
}

/// The slots given when the Tensor type is made: every list of tensor.hpp, then {0, null}.
const PyType_Slot* tensor_slots() {
  static const std::vector<PyType_Slot> slots = [] {
    std::vector<PyType_Slot> all;
    for (const PyType_Slot* list : {tensor_index_slots, tensor_number_slots}) {
      for (const PyType_Slot* s = list; s->slot != 0; ++s) all.push_back(*s);
    }
    all.push_back({0, nullptr});
    return all;
  }();
  return slots.data();
}

void bind_tensor(nb::module_& m) {
  bind_dtype(m);
  bind_device(m);
  auto cls = nb::class_<Tensor>(m, "Tensor",
                                "An n-dimensional array on a kernforge device (a reference to a "
                                "kf_tensor_t).", nb::type_slots(tensor_slots()));
  g_tensor_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  cls.def_prop_ro("shape", [](const Tensor& t) { return shape_of(t.h); })
      .def_prop_ro("ndim", [](const Tensor& t) {
        int32_t n = 0;
        check(kf_tensor_ndim(t.h, &n));
        return n;
      })
      .def_prop_ro("dtype", [](const Tensor& t) {
        kf_dtype_t d;
        check(kf_tensor_dtype(t.h, &d));
        return dtype_object(d);
      })
      .def_prop_ro("device", [](const Tensor& t) {
        kf_device_t d;
        check(kf_tensor_device(t.h, &d));
        return Device{d};
      })
      .def("numel", [](const Tensor& t) {
        int64_t n = 0;
        check(kf_tensor_numel(t.h, &n));
        return n;
      }, "The number of elements.")
      .def("stride", [](const Tensor& t) { return strides_of(t.h); }, "Strides in elements.")
      .def("is_contiguous", [](const Tensor& t) {
        bool c = false;
        check(kf_tensor_is_contiguous(t.h, &c));
        return c;
      })
      .def("data_ptr", [](const Tensor& t) {
        void* p = nullptr;
        check(kf_tensor_data_ptr(t.h, &p));
        return reinterpret_cast<uintptr_t>(p);
      }, "The address of element [0, ..., 0].")
      .def("item", [](const Tensor& t) { return item_of(t.h); },
           "The value of a one-element tensor as a Python bool, int or float.")
      .def("_to", [](const Tensor& t, nb::handle device, nb::handle dtype) {
        kf_device_t cur;
        check(kf_tensor_device(t.h, &cur));
        kf_tensor_t out = nullptr;
        check(kf_tensor_to(t.h, to_device(device, cur), to_dtype(dtype), &out));
        return wrap(out);
      }, nb::arg("device").none() = nb::none(), nb::arg("dtype").none() = nb::none(),
         "A copy on `device` with `dtype` (either may be None: unchanged).")
      .def_prop_ro("_handle", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.h); })
      .def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()); });
  bind_tensor_ops(m, cls);
  bind_basic_index(m, cls);
  bind_autograd(m, cls);
}

}  // namespace kfpy
