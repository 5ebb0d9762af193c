// The ops' argument tables for the package: _C.op_table() reads every op of the registry through
// the C ABI (kf_op_count/kf_op_at, kf_op_arg_info) and gives _ops.py, per op, what it builds the
// Python function from (names, kinds as kf_arg_kind_name spells them, optional and keyword-only
// marks, defaults as Python values) with the callable _C.Op that converts by the same table.
#include <string>

#include <nanobind/stl/string.h>

#include "errors.hpp"
#include "op_call.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

// A default as the Python value a signature shows: None, 1, 1e-05, False, () ...
nb::object default_object(const kf_value_t& v) {
  switch (v.tag) {
    case KF_VALUE_INT: return nb::int_(v.v.i);
    case KF_VALUE_FLOAT: return nb::float_(v.v.f);
    case KF_VALUE_BOOL: return nb::bool_(v.v.b);
    case KF_VALUE_SCALAR:
      return scalar_object(v.v.scalar);
    case KF_VALUE_INT_LIST: {
      nb::list items;
      for (int32_t i = 0; i < v.v.ints.len; ++i) items.append(nb::int_(v.v.ints.data[i]));
      return nb::tuple(items);
    }
    case KF_VALUE_DTYPE: return dtype_object(v.v.dtype);
    case KF_VALUE_DEVICE: return nb::cast(Device{v.v.device});
    default: return nb::none();
  }
}

// (name, kind, optional, kwonly, has_default, default, written) of every argument.
nb::tuple arg_table(kf_op_t op) {
  const int32_t n = kf_op_arg_count(op);
  nb::list out;
  for (int32_t i = 0; i < n; ++i) {
    const kf_op_arg_info_t a = arg_info(op, i);
    out.append(nb::make_tuple(a.name, kf_arg_kind_name(a.kind), a.optional, a.kwarg_only,
                              a.has_default, default_object(a.default_value), a.written));
  }
  return nb::tuple(out);
}

// The callable of `op`, or why there is none (a kind this frontend does not convert).
nb::object callable(kf_op_t op) {
  try {
    return nb::cast(make_op(op));
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_ValueError)) throw;
    return nb::str(e.value());
  }
}

}  // namespace

void bind_op_table(nb::module_& m) {
  nb::list kinds;  // every kind's name, from the generated list (the stub generator's check)
#define KFPY_KIND_NAME_(name, text, value_tag) kinds.append(nb::str(text));
  KF_ARG_KIND_LIST(KFPY_KIND_NAME_)
#undef KFPY_KIND_NAME_
  m.attr("arg_kinds") = nb::tuple(kinds);
  m.def("op_table", []() {
    nb::list out;
    const int32_t n = kf_op_count();
    for (int32_t i = 0; i < n; ++i) {
      kf_op_t op = nullptr;
      check(kf_op_at(i, &op));
      out.append(nb::make_tuple(kf_op_name(op), kf_op_schema(op), kf_op_doc(op), callable(op),
                                arg_table(op)));
    }
    return out;
  }, "(name, schema, doc, op, args) of every op of the registry, the ones plugins define "
     "included: op is its _C.Op (or, when this frontend cannot call it, why), args its argument "
     "table from the C ABI: (name, kind, optional, kwonly, has_default, default, written) each, "
     "kind as kf_arg_kind_name spells it ('Tensor', 'int[]', ...).");
}

}  // namespace kfpy
