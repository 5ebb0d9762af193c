// Boxed op calls: every op of the registry, the ones plugins define included, is reached
// through one callable per op that converts Python arguments into kf_value_t by the kinds of the
// op's argument table (kf_op_arg_info: kf_arg_kind_t, optional) and calls kf_op_call. The Python
// package builds one function per op from the same tables (op_table.cpp, _ops.py), binds
// keywords and defaults there and hands the arguments here in schema order; nothing here or
// there parses a schema.
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "c_text.hpp"
#include "errors.hpp"
#include "op_call.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

struct CallState {
  std::vector<kf_value_t> values;
  std::vector<std::vector<int64_t>> ints;        // storage of int lists
  std::vector<std::vector<kf_tensor_t>> lists;   // storage of tensor lists
  std::vector<kf_tensor_t> temporaries;          // 0-dim tensors of Python numbers
  ~CallState() {
    for (kf_tensor_t t : temporaries) kf_tensor_release(t);
  }
};

[[noreturn]] void bad_argument(const Op& op, size_t i, const char* expected, nb::handle got) {
  PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be %s, not %s", kf_op_name(op.op),
               op.args[i].name.c_str(), expected, Py_TYPE(got.ptr())->tp_name);
  throw nb::python_error();
}

int64_t to_int(const Op& op, size_t i, nb::handle o) {
  if (PyBool_Check(o.ptr()) || !PyIndex_Check(o.ptr())) bad_argument(op, i, "an int", o);
  nb::object index = nb::steal(PyNumber_Index(o.ptr()));
  if (!index.is_valid()) throw nb::python_error();  // the object's own __index__ raised
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow != 0) {
    PyErr_Format(PyExc_OverflowError, "%s(): argument '%s' is %R, outside int64", kf_op_name(op.op),
                 op.args[i].name.c_str(), index.ptr());
    throw nb::python_error();
  }
  return v;
}

void int_list(const Op& op, size_t i, nb::handle o, CallState& st, kf_value_t& v) {
  std::vector<int64_t> list;
  if (PyIndex_Check(o.ptr()) && !PyBool_Check(o.ptr())) {
    list.push_back(to_int(op, i, o));  // one int for int[] (PyTorch's reading too)
  } else if (PySequence_Check(o.ptr()) && tensor_of(o) == nullptr) {
    for (nb::handle e : nb::borrow<nb::sequence>(o)) list.push_back(to_int(op, i, e));
  } else {
    bad_argument(op, i, "an int or a sequence of ints", o);
  }
  st.ints.push_back(std::move(list));
  v.tag = KF_VALUE_INT_LIST;
  v.v.ints.data = st.ints.back().data();
  v.v.ints.len = static_cast<int32_t>(st.ints.back().size());
}

void tensor_list(const Op& op, size_t i, nb::handle o, CallState& st, kf_value_t& v) {
  if (!PySequence_Check(o.ptr()) || tensor_of(o) != nullptr) {
    bad_argument(op, i, "a sequence of Tensors", o);
  }
  std::vector<kf_tensor_t> list;
  for (nb::handle e : nb::borrow<nb::sequence>(o)) {
    const kf_tensor_t t = tensor_of(e);
    if (t == nullptr) bad_argument(op, i, "a sequence of Tensors", e);
    list.push_back(t);
  }
  st.lists.push_back(std::move(list));
  v.tag = KF_VALUE_TENSOR_LIST;
  v.v.tensors.data = st.lists.back().data();
  v.v.tensors.len = static_cast<int32_t>(st.lists.back().size());
}

void tensor_arg(const Op& op, size_t i, nb::handle o, kf_dtype_t context, CallState& st,
                kf_value_t& v) {
  v.tag = KF_VALUE_TENSOR;
  v.v.tensor = tensor_of(o);
  if (v.v.tensor == nullptr) {
    v.v.tensor = number_tensor(o, context);
    if (v.v.tensor == nullptr) bad_argument(op, i, "a Tensor or a number", o);
    st.temporaries.push_back(v.v.tensor);
  }
}

void scalar_arg(const Op& op, size_t i, nb::handle o, kf_value_t& v) {
  v.tag = KF_VALUE_SCALAR;
  if (!to_scalar(o, v.v.scalar)) {
    const kf_tensor_t t = tensor_of(o);  // a one-element tensor passes its value
    if (t == nullptr || kf_tensor_item(t, &v.v.scalar) != KF_OK) bad_argument(op, i, "a number", o);
  }
}

// A float, an int, or an object with __float__ or __index__; an error that object's own
// conversion raises is the caller's to see, and propagates as it is.
double float_arg(const Op& op, size_t i, nb::handle o) {
  PyNumberMethods* n = Py_TYPE(o.ptr())->tp_as_number;
  if (!PyFloat_Check(o.ptr()) && (n == nullptr || (n->nb_float == nullptr && n->nb_index == nullptr))) {
    bad_argument(op, i, "a float", o);
  }
  const double d = PyFloat_AsDouble(o.ptr());
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return d;
}

bool bool_arg(nb::handle o) {
  const int b = PyObject_IsTrue(o.ptr());
  if (b < 0) throw nb::python_error();
  return b != 0;
}

// Converts by the argument's kind: every kind of kf_arg_kind_t has a case (-Wswitch holds this
// to the generated list, so a kind added to ARG_KINDS does not build until it is converted).
void convert(const Op& op, size_t i, nb::handle o, kf_dtype_t context, CallState& st,
             kf_value_t& v) {
  const OpArg& a = op.args[i];
  v = kf_value_none();
  if (o.is_none()) {
    if (a.optional) return;
    bad_argument(op, i, "given (it has no default)", o);
  }
  switch (static_cast<kf_arg_kind_t>(a.kind)) {
    case KF_ARG_KIND_TENSOR: return tensor_arg(op, i, o, context, st, v);
    case KF_ARG_KIND_TENSOR_LIST: return tensor_list(op, i, o, st, v);
    case KF_ARG_KIND_INT_LIST: return int_list(op, i, o, st, v);
    case KF_ARG_KIND_INT: v = kf_value_int(to_int(op, i, o)); return;
    case KF_ARG_KIND_FLOAT: v = kf_value_float(float_arg(op, i, o)); return;
    case KF_ARG_KIND_BOOL: v = kf_value_bool(bool_arg(o)); return;
    case KF_ARG_KIND_SCALAR: return scalar_arg(op, i, o, v);
    case KF_ARG_KIND_DTYPE: v = kf_value_dtype(to_dtype(o)); return;
    case KF_ARG_KIND_DEVICE: v = kf_value_device(to_device(o, kf_device_cpu())); return;
    case KF_ARG_KIND_MAX_ENUM: break;
  }
  raise(PyExc_RuntimeError, "internal: unknown argument kind");  // make_op refused it
}

// The promoted dtype of the floating and complex tensor arguments, which decides the dtype of
// a Python number in a Tensor slot (number_tensor says how).
kf_dtype_t number_context(const Op& op, const nb::args& args) {
  kf_dtype_t context = KF_DTYPE_UNDEFINED;
  for (size_t i = 0; i < args.size() && i < op.args.size(); ++i) {
    if (op.args[i].kind != KF_ARG_KIND_TENSOR) continue;
    const kf_tensor_t t = tensor_of(args[i]);
    kf_dtype_t d;
    if (t != nullptr && kf_tensor_dtype(t, &d) == KF_OK) context = inexact_context(context, d);
  }
  return context;
}

nb::object call(const Op& op, nb::args args) {
  if (args.size() > op.args.size()) raise(PyExc_TypeError, "too many arguments");
  CallState st;
  st.ints.reserve(args.size());
  st.lists.reserve(args.size());
  st.values.resize(args.size());
  const kf_dtype_t context = number_context(op, args);
  for (size_t i = 0; i < args.size(); ++i) convert(op, i, args[i], context, st, st.values[i]);
  const int32_t nret = op.nreturns;
  std::vector<kf_value_t> results(static_cast<size_t>(nret > 0 ? nret : 0));
  kf_status_t s;
  {
    nb::gil_scoped_release unlocked;  // a kernel may run long; handles need no interpreter
    s = kf_op_call(op.op, st.values.data(), static_cast<int32_t>(st.values.size()),
                   results.data(), nret);
  }
  check(s);
  if (op.inplace) {
    for (kf_value_t& r : results) kf_tensor_release(r.v.tensor);
    return nb::borrow(args[0]);
  }
  if (nret == 0) return nb::none();  // an op that writes its tensor lists
  if (nret == 1) return wrap(results[0].v.tensor);
  nb::list out;
  for (kf_value_t& r : results) out.append(wrap(r.v.tensor));
  return nb::tuple(out);
}

}  // namespace

bool converts(int32_t kind) noexcept {
  switch (static_cast<kf_arg_kind_t>(kind)) {
#define KFPY_KIND_CASE_(name, text, value_tag) case KF_ARG_KIND_##name:
    KF_ARG_KIND_LIST(KFPY_KIND_CASE_)
#undef KFPY_KIND_CASE_
      return true;
    case KF_ARG_KIND_MAX_ENUM: break;
  }
  return false;
}

kf_op_arg_info_t arg_info(kf_op_t op, int32_t index) {
  kf_op_arg_info_t info{};
  info.struct_size = sizeof info;
  check(kf_op_arg_info(op, index, &info));
  return info;
}

Op make_op(kf_op_t op) {
  Op o;
  o.op = op;
  o.nreturns = kf_op_num_returns(op);
  o.inplace = kf_op_is_inplace(op) == 1;
  const int32_t n = kf_op_arg_count(op);
  o.args.reserve(static_cast<size_t>(n > 0 ? n : 0));
  for (int32_t i = 0; i < n; ++i) {
    const kf_op_arg_info_t a = arg_info(op, i);
    if (!converts(a.kind)) {
      PyErr_Format(PyExc_ValueError, "%s: argument '%s' is of kind %d, which this frontend does "
                   "not convert (a newer libkernforge than kernforge._C?)", kf_op_name(op),
                   a.name, static_cast<int>(a.kind));
      throw nb::python_error();
    }
    o.args.push_back(OpArg{a.name, a.kind, a.optional});
  }
  return o;
}

void bind_ops(nb::module_& m) {
  nb::class_<Op>(m, "Op", "One op of the registry, called with its arguments in schema order.")
      .def("__init__", [](Op* self, nb::str name) {
        kf_op_t op = nullptr;
        check(kf_op_find(c_text(name, "op name"), &op));
        new (self) Op(make_op(op));
      }, nb::arg("name"))
      .def_prop_ro("name", [](const Op& o) { return kf_op_name(o.op); })
      .def_prop_ro("schema", [](const Op& o) { return kf_op_schema(o.op); })
      .def_prop_ro("doc", [](const Op& o) { return kf_op_doc(o.op); })
      .def_prop_ro("num_returns", [](const Op& o) { return o.nreturns; })
      .def_prop_ro("inplace", [](const Op& o) { return o.inplace; })
      .def("__call__", &call)
      .def("__repr__", [](const Op& o) { return std::string("<kernforge op ") + kf_op_schema(o.op) + ">"; });
  m.def("op_list", []() {
    nb::list out;
    const int32_t n = kf_op_count();
    for (int32_t i = 0; i < n; ++i) {
      kf_op_t op = nullptr;
      check(kf_op_at(i, &op));
      out.append(nb::make_tuple(kf_op_name(op), kf_op_schema(op), kf_op_doc(op)));
    }
    return out;
  }, "(name, schema, doc) of every op of the registry, the ones plugins define included.");
  bind_op_table(m);
}

}  // namespace kfpy
