// Boxed op calls: every op of the registry, the ones plugins define included, is reached
// through one callable per op that converts Python arguments into kf_value_t by a kind string
// and calls kf_op_call. The Python package parses each op's schema once at import (_ops.py),
// binds keywords and defaults in a generated Python function, and hands the arguments here in
// schema order with the kinds the schema gives (codes below), so no schema is parsed in C++.
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

// Argument kinds, one character each; upper case required, lower case optional (None allowed).
//   T/t Tensor   L/l Tensor[]   I/i int[]   N/n int   F/f float   B/b bool   S/s Scalar
//   D/d ScalarType   V/v Device
struct Op {
  kf_op_t op = nullptr;
  std::string kinds;
  std::vector<std::string> names;
  bool inplace = false;  // returns its first argument (fill_, copy_): the same Python object
};

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
               op.names[i].c_str(), expected, Py_TYPE(got.ptr())->tp_name);
  throw nb::python_error();
}

int64_t to_int(const Op& op, size_t i, nb::handle o) {
  if (PyBool_Check(o.ptr()) || !PyIndex_Check(o.ptr())) bad_argument(op, i, "an int", o);
  const long long v = PyLong_AsLongLong(nb::steal(PyNumber_Index(o.ptr())).ptr());
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
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
  v = kf_value_int_list(st.ints.back().data(), static_cast<int32_t>(st.ints.back().size()));
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
  v = kf_value_tensor_list(st.lists.back().data(),
                           static_cast<int32_t>(st.lists.back().size()));
}

void convert(const Op& op, size_t i, nb::handle o, bool floating, CallState& st, kf_value_t& v) {
  const char k = op.kinds[i];
  v = kf_value_none();
  if (o.is_none()) {
    if (k >= 'a' && k <= 'z') return;
    bad_argument(op, i, "given (it has no default)", o);
  }
  switch (k) {
    case 'T': case 't':
      v.tag = KF_VALUE_TENSOR;
      v.v.tensor = tensor_of(o);
      if (v.v.tensor == nullptr) {
        v.v.tensor = number_tensor(o, floating);
        if (v.v.tensor == nullptr) bad_argument(op, i, "a Tensor or a number", o);
        st.temporaries.push_back(v.v.tensor);
      }
      return;
    case 'L': case 'l': return tensor_list(op, i, o, st, v);
    case 'I': case 'i': return int_list(op, i, o, st, v);
    case 'N': case 'n': v = kf_value_int(to_int(op, i, o)); return;
    case 'F': case 'f': {
      const double d = PyFloat_AsDouble(o.ptr());
      if (d == -1.0 && PyErr_Occurred()) { PyErr_Clear(); bad_argument(op, i, "a float", o); }
      v = kf_value_float(d); return;
    }
    case 'B': case 'b': {
      const int b = PyObject_IsTrue(o.ptr());
      if (b < 0) throw nb::python_error();
      v = kf_value_bool(b != 0); return;
    }
    case 'S': case 's':
      v.tag = KF_VALUE_SCALAR;
      if (!to_scalar(o, v.v.scalar)) {
        const kf_tensor_t t = tensor_of(o);  // a one-element tensor passes its value
        if (t == nullptr || kf_tensor_item(t, &v.v.scalar) != KF_OK) bad_argument(op, i, "a number", o);
      }
      return;
    case 'D': case 'd': v = kf_value_dtype(to_dtype(o)); return;
    case 'V': case 'v': v = kf_value_device(to_device(o, kf_device_cpu())); return;
    default: raise(PyExc_RuntimeError, "internal: unknown argument kind");
  }
}

// A Python number in a Tensor slot is float64 when some tensor argument is floating, else
// float32 (number_tensor says why).
bool floating_context(const Op& op, const nb::args& args) {
  for (size_t i = 0; i < args.size() && i < op.kinds.size(); ++i) {
    const char k = op.kinds[i];
    if (k != 'T' && k != 't') continue;
    const kf_tensor_t t = tensor_of(args[i]);
    kf_dtype_t d;
    if (t != nullptr && kf_tensor_dtype(t, &d) == KF_OK && kf_dtype_kind(d) == 'f') return true;
  }
  return false;
}

nb::object call(const Op& op, nb::args args) {
  if (args.size() > op.kinds.size()) raise(PyExc_TypeError, "too many arguments");
  CallState st;
  st.ints.reserve(args.size());
  st.lists.reserve(args.size());
  st.values.resize(args.size());
  const bool floating = floating_context(op, args);
  for (size_t i = 0; i < args.size(); ++i) convert(op, i, args[i], floating, st, st.values[i]);
  const int32_t nret = kf_op_num_returns(op.op);
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
  if (nret == 1) return wrap(results[0].v.tensor);
  nb::list out;
  for (kf_value_t& r : results) out.append(wrap(r.v.tensor));
  return nb::tuple(out);
}

}  // namespace

void bind_ops(nb::module_& m) {
  nb::class_<Op>(m, "Op", "One op of the registry, called with its arguments in schema order.")
      .def("__init__", [](Op* self, const std::string& name) {
        kf_op_t op = nullptr;
        check(kf_op_find(name.c_str(), &op));
        new (self) Op{op, {}, {}, false};
      }, nb::arg("name"))
      .def_prop_ro("name", [](const Op& o) { return kf_op_name(o.op); })
      .def_prop_ro("schema", [](const Op& o) { return kf_op_schema(o.op); })
      .def_prop_ro("doc", [](const Op& o) { return kf_op_doc(o.op); })
      .def_prop_ro("num_returns", [](const Op& o) { return kf_op_num_returns(o.op); })
      .def("_set_signature", [](Op& o, std::string kinds, std::vector<std::string> names, bool inplace) {
        if (kinds.size() != names.size()) raise(PyExc_ValueError, "kinds and names differ in length");
        o.kinds = std::move(kinds);
        o.names = std::move(names);
        o.inplace = inplace;
      })
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
}

}  // namespace kfpy
