// The small factories in C++: kernforge.empty, zeros, ones and full (kernforge/_creation.py)
// call these with a shape of Python ints and, for full, a Python number. Each is one typed C
// ABI call (kf_empty, kf_zeros, kf_ones, kf_full), with the op's own defaults: dtype None is
// the op's default (float32, or full's dtype of its value) and device None the default device.
// Any other shape or value gives None, and _creation.py then calls the op's generic method,
// which reads every form the op accepts and says what is wrong with the rest.
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

template <Factory make>
nb::object factory(nb::handle shape, nb::handle dtype, nb::handle device) {
  int64_t dims[KF_MAX_NDIM];
  int32_t ndim = 0;
  if (!read_shape(shape.ptr(), dims, ndim)) return nb::none();
  const kf_dtype_t dt = to_dtype(dtype);  // in the schema's order, as the generic method
  const kf_device_t dev = to_device(device, kNoDevice);
  kf_tensor_t out = nullptr;
  check(make(dims, ndim, dt, dev, &out));
  return wrap(out);
}

nb::object full(nb::handle shape, nb::handle value, nb::handle dtype, nb::handle device) {
  int64_t dims[KF_MAX_NDIM];
  int32_t ndim = 0;
  kf_scalar_t s;
  if (!read_shape(shape.ptr(), dims, ndim) || tensor_of(value) != nullptr ||
      !to_scalar(value, s)) {
    return nb::none();
  }
  const kf_dtype_t dt = to_dtype(dtype);
  const kf_device_t dev = to_device(device, kNoDevice);
  kf_tensor_t out = nullptr;
  check(kf_full(dims, ndim, s, dt, dev, &out));
  return wrap(out);
}

template <Factory make>
void def_factory(nb::module_& m, const char* name, const char* doc) {
  m.def(name, &factory<make>, nb::arg("shape").none(), nb::arg("dtype").none(),
        nb::arg("device").none(), doc);
}

}  // namespace

void bind_factories(nb::module_& m) {
  def_factory<kf_empty>(m, "empty", "kf_empty of a shape of Python ints, else None.");
  def_factory<kf_zeros>(m, "zeros", "kf_zeros of a shape of Python ints, else None.");
  def_factory<kf_ones>(m, "ones", "kf_ones of a shape of Python ints, else None.");
  m.def("full", &full, nb::arg("shape").none(), nb::arg("fill_value").none(),
        nb::arg("dtype").none(), nb::arg("device").none(),
        "kf_full of a shape of Python ints and a Python number, else None.");
}

}  // namespace kfpy
