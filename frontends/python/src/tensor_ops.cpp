// The Tensor's operators, bound straight to the typed C entry points (kf_add, kf_mul, ...): the
// path of `a + b` is one nanobind call, one C call and one new Python object, with no Python
// code in between. A Python number on either side becomes a 0-dim tensor (number_tensor), which
// the core's type promotion ranks below dimensioned tensors, as PyTorch does; a 0-dim tensor
// operand is passed as Note [0-dim operands] says.
#include <cstdint>
#include <vector>

#include "errors.hpp"
#include "kernforge/dtypes.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

using BinaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t, kf_tensor_t*);
using UnaryFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t*);
using InplaceFn = kf_status_t (*)(kf_tensor_t, kf_tensor_t);

// A 0-dim tensor made for one call.
struct Temporary {
  kf_tensor_t h = nullptr;
  ~Temporary() { kf_tensor_release(h); }
};

/// `t`'s dtype when it is floating or complex (number_tensor's context), else undefined.
kf_dtype_t inexact_dtype(kf_tensor_t t) {
  kf_dtype_t d = KF_DTYPE_UNDEFINED;
  if (kf_tensor_dtype(t, &d) != KF_OK) return KF_DTYPE_UNDEFINED;
  return inexact_context(d, KF_DTYPE_UNDEFINED);
}

kf_dtype_t dtype_of(kf_tensor_t t) {
  kf_dtype_t d = KF_DTYPE_UNDEFINED;
  check(kf_tensor_dtype(t, &d));
  return d;
}

kf_status_t add1(kf_tensor_t a, kf_tensor_t b, kf_tensor_t* o) { return kf_add(a, b, kf_scalar_i64(1), o); }
kf_status_t sub1(kf_tensor_t a, kf_tensor_t b, kf_tensor_t* o) { return kf_sub(a, b, kf_scalar_i64(1), o); }
kf_status_t add1_(kf_tensor_t a, kf_tensor_t b) { return kf_add_(a, b, kf_scalar_i64(1)); }
kf_status_t sub1_(kf_tensor_t a, kf_tensor_t b) { return kf_sub_(a, b, kf_scalar_i64(1)); }

// `other` as a tensor: itself, or a 0-dim tensor of a Python number held by `tmp`; nullptr when
// it is neither (the operator then returns NotImplemented, so Python tries the other side).
kf_tensor_t operand(nb::handle other, kf_tensor_t self, Temporary& tmp) {
  kf_tensor_t b = tensor_of(other);
  if (b != nullptr) return b;
  tmp.h = number_tensor(other, inexact_dtype(self));
  return tmp.h;
}

// Note [0-dim operands]
// The array API ranks a 0-dim array like any other in type promotion (int8 array + 0-dim int16
// array is int16) and gives a Python number the dtype of the array beside it, 0-dim or not
// (0-dim uint64 + 1 is uint64). The core follows PyTorch: a 0-dim tensor ranks below tensors
// with dims of its kind, and a number, a 0-dim tensor here, ranks alike with a 0-dim tensor. So
// the operators pass a 0-dim tensor operand as a view of shape [1] where the two rules differ:
// beside a tensor with dims of another dtype (the result has that tensor's shape either way),
// and beside a number, whose result is then viewed back as 0-dim. Two tensors of one dtype, or
// both with dims, or both 0-dim, agree under both rules and go in as they are.

int32_t ndim_of(kf_tensor_t t) {
  int32_t n = 0;
  check(kf_tensor_ndim(t, &n));
  return n;
}

/// `t` viewed as shape [1], held by `tmp`.
kf_tensor_t as_one_element(kf_tensor_t t, Temporary& tmp) {
  const int64_t one = 1;
  check(kf_reshape(t, &one, 1, &tmp.h));
  return tmp.h;
}

/// The operands of `self op other` by Note [0-dim operands]; b is nullptr when other is neither
/// a tensor nor a number. In place, a 0-dim self beside a tensor with dims stays itself (self is
/// never broadcast, and the refusal should name its own shape).
struct Operands {
  Temporary number, view;
  kf_tensor_t a = nullptr, b = nullptr;
  bool zero_dim_result = false;

  Operands(kf_tensor_t self, nb::handle other, bool in_place = false) : a(self) {
    if (self == nullptr) return;
    b = tensor_of(other);
    if (b == nullptr) {
      b = number.h = number_tensor(other, inexact_dtype(self));
      if (b != nullptr && ndim_of(self) == 0) {
        a = as_one_element(self, view);
        zero_dim_result = true;
      }
      return;
    }
    const bool a0 = ndim_of(self) == 0, b0 = ndim_of(b) == 0;
    if (a0 == b0 || (a0 && in_place) || dtype_of(self) == dtype_of(b)) return;
    if (a0) {
      a = as_one_element(self, view);
    } else {
      b = as_one_element(b, view);
    }
  }
};

/// `a @ b` by the array API: the operands promoted to one dtype first (kf_matmul, PyTorch's,
/// takes one dtype; x.matmul(y) and the C ABI keep that rule).
kf_status_t matmul_promoted(kf_tensor_t a, kf_tensor_t b, kf_tensor_t* out) {
  const kf_dtype_t da = dtype_of(a), db = dtype_of(b);
  if (da == db) return kf_matmul(a, b, out);
  kf_dtype_t common = da;
  if (const kf_status_t s = kf_promote_types(da, db, &common); s != KF_OK) return s;
  Temporary ca, cb;
  if (da != common) {
    if (const kf_status_t s = kf_to_dtype(a, common, &ca.h); s != KF_OK) return s;
    a = ca.h;
  }
  if (db != common) {
    if (const kf_status_t s = kf_to_dtype(b, common, &cb.h); s != KF_OK) return s;
    b = cb.h;
  }
  return kf_matmul(a, b, out);
}

template <BinaryFn Fn, bool Reflected = false, bool Numbers = true>
nb::object binary(nb::handle self, nb::handle other) {
  if constexpr (Numbers) {
    const Operands o(tensor_of(self), other);
    if (o.a == nullptr || o.b == nullptr) return nb::borrow(Py_NotImplemented);
    kf_tensor_t out = nullptr;
    const kf_status_t s = Reflected ? Fn(o.b, o.a, &out) : Fn(o.a, o.b, &out);
    if (s != KF_OK) raise_status(s);
    if (o.zero_dim_result) {
      Temporary one{out};
      check(kf_reshape(one.h, nullptr, 0, &out));
    }
    return wrap(out);
  } else {
    const kf_tensor_t a = tensor_of(self), b = tensor_of(other);
    if (a == nullptr || b == nullptr) return nb::borrow(Py_NotImplemented);
    kf_tensor_t out = nullptr;
    const kf_status_t s = Reflected ? Fn(b, a, &out) : Fn(a, b, &out);
    if (s != KF_OK) raise_status(s);
    return wrap(out);
  }
}

/// `x op= y`: into x itself, or into its [1] view when x is 0-dim (Note [0-dim operands]).
template <InplaceFn Fn>
nb::object inplace(nb::handle self, nb::handle other) {
  const Operands o(tensor_of(self), other, true);
  if (o.a == nullptr || o.b == nullptr) return nb::borrow(Py_NotImplemented);
  check(Fn(o.a, o.b));
  return nb::borrow(self);
}

template <UnaryFn Fn>
nb::object unary(nb::handle self) {
  kf_tensor_t out = nullptr;
  check(Fn(tensor_of(self), &out));
  return wrap(out);
}

/// bool < integer < floating < complex: an in-place op may not write a higher one into a lower.
int category(kf_dtype_t d) {
  switch (kf::dtype_kind(d)) {
    case 'b': return 0;
    case 'f': return 2;
    case 'c': return 3;
    default: return 1;
  }
}

std::vector<int64_t> shape_of(kf_tensor_t t) {
  int32_t ndim = 0;
  const int64_t* shape = nullptr;
  check(kf_tensor_ndim(t, &ndim));
  check(kf_tensor_shape(t, &shape));
  return std::vector<int64_t>(shape, shape + ndim);
}

using OutOfPlace = nb::object (*)(nb::handle, nb::handle);

// `x op= y` for the operators without an in-place kernel (**, @, & and |): `op` out of place,
// then copied into x, which must keep its shape (no broadcasting x itself) and may not receive
// a result of a higher dtype category (an int tensor **= 0.5 is a TypeError, as in PyTorch);
// anything else x's own dtype holds is written with copy_'s conversion.
template <OutOfPlace Op>
nb::object inplace_by_copy(nb::handle self, nb::handle other) {
  nb::object r = Op(self, other);
  if (r.is(nb::handle(Py_NotImplemented))) return r;
  const kf_tensor_t a = tensor_of(self), result = tensor_of(r);
  if (shape_of(result) != shape_of(a)) {
    raise(PyExc_ValueError, "an in-place operator's result has another shape than the tensor it "
                            "writes to (the tensor itself is not broadcast); use x = x op y");
  }
  if (category(dtype_of(result)) > category(dtype_of(a))) {
    PyErr_Format(PyExc_TypeError, "an in-place operator cannot write its %s result into a %s "
                 "tensor; use x = x op y, or convert x first", kf_dtype_name(dtype_of(result)),
                 kf_dtype_name(dtype_of(a)));
    throw nb::python_error();
  }
  check(kf_copy_(a, result));
  return nb::borrow(self);
}

int64_t numel(kf_tensor_t t) {
  int64_t n = 0;
  check(kf_tensor_numel(t, &n));
  return n;
}

// The one element's value: one C call, and the element count only to word a failure.
kf_scalar_t only_value(nb::handle self, const char* what) {
  const kf_tensor_t t = tensor_of(self);
  kf_scalar_t s;
  const kf_status_t status = kf_tensor_item(t, &s);
  if (status == KF_OK) return s;
  const int64_t n = numel(t);
  if (n == 1) raise_status(status);
  PyErr_Format(PyExc_ValueError, "%s of a tensor with %lld elements is ambiguous; it needs "
               "exactly one element (use .any() or .all() for a truth value)", what,
               static_cast<long long>(n));
  throw nb::python_error();
}

// A real scalar's truth and value without a Python number made first.
bool truth_of(const kf_scalar_t& s) {
  switch (s.tag) {
    case KF_SCALAR_FLOAT64: return s.v.f64 != 0;  // NaN is true, as Python's bool(nan)
    case KF_SCALAR_INT64: return s.v.i64 != 0;
    case KF_SCALAR_UINT64: return s.v.u64 != 0;
    case KF_SCALAR_BOOL: return s.v.b;
    default: return PyObject_IsTrue(scalar_object(s).ptr()) == 1;
  }
}

// int(t) as Python's int(float) and int(int): exact, of any size (a float64 1.5e19 is the int
// 15000000000000000000); ValueError for NaN and OverflowError for an infinity, raised by
// PyLong_FromDouble with Python's own messages. A C cast of a double beyond int64 would be
// undefined behaviour.
nb::object int_of(const kf_scalar_t& s) {
  if (s.tag == KF_SCALAR_COMPLEX128) {
    raise(PyExc_TypeError, "int() of a complex tensor: take .real first");
  }
  if (s.tag != KF_SCALAR_FLOAT64) return nb::int_(scalar_object(s));
  PyObject* o = PyLong_FromDouble(s.v.f64);
  if (o == nullptr) throw nb::python_error();
  return nb::steal(o);
}

void bind_alpha_methods(nb::class_<Tensor>& cls) {
  cls.def("add_", [](nb::handle self, nb::handle other, nb::handle alpha) {
    kf_scalar_t a;
    if (!to_scalar(alpha, a)) raise(PyExc_TypeError, "alpha must be a Python number");
    Temporary tmp;
    const kf_tensor_t b = operand(other, tensor_of(self), tmp);
    if (b == nullptr) raise(PyExc_TypeError, "add_: other must be a Tensor or a number");
    check(kf_add_(tensor_of(self), b, a));
    return nb::borrow(self);
  }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1, "In place: self += alpha * other.");
  cls.def("sub_", [](nb::handle self, nb::handle other, nb::handle alpha) {
    kf_scalar_t a;
    if (!to_scalar(alpha, a)) raise(PyExc_TypeError, "alpha must be a Python number");
    Temporary tmp;
    const kf_tensor_t b = operand(other, tensor_of(self), tmp);
    if (b == nullptr) raise(PyExc_TypeError, "sub_: other must be a Tensor or a number");
    check(kf_sub_(tensor_of(self), b, a));
    return nb::borrow(self);
  }, nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1, "In place: self -= alpha * other.");
  cls.def("mul_", &inplace<kf_mul_>, "In place: self *= other.");
  cls.def("div_", &inplace<kf_div_>, "In place: self /= other.");
}

// bool(), float(), int() and operator.index() of a tensor: number slots of the type
// (tensor_number_slots), which CPython calls straight, with no method lookup.
int bool_slot(PyObject* self) noexcept {
  bool truth = false;
  return slot_call([&] { truth = truth_of(only_value(self, "the truth value")); }) ? truth : -1;
}

double float_of(nb::handle self) {
  const kf_scalar_t s = only_value(self, "float()");
  if (s.tag == KF_SCALAR_COMPLEX128) {
    raise(PyExc_TypeError, "float() of a complex tensor: take .real or abs() first");
  }
  if (s.tag == KF_SCALAR_FLOAT64) return s.v.f64;
  const double v = PyFloat_AsDouble(scalar_object(s).ptr());  // Python's int rounding
  if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

PyObject* float_slot(PyObject* self) noexcept {
  PyObject* out = nullptr;
  return slot_call([&] { out = PyFloat_FromDouble(float_of(self)); }) ? out : nullptr;
}

PyObject* int_slot(PyObject* self) noexcept {
  PyObject* out = nullptr;
  return slot_call([&] { out = int_of(only_value(self, "int()")).release().ptr(); }) ? out
                                                                                       : nullptr;
}

nb::object index_of(nb::handle self) {
  int32_t ndim = 0;
  check(kf_tensor_ndim(tensor_of(self), &ndim));
  const kf_dtype_t d = dtype_of(tensor_of(self));
  if (ndim != 0 || !kf::is_integer_dtype(d)) {
    PyErr_Format(PyExc_TypeError, "only a 0-dim tensor of an integer dtype is an index, "
                 "not a %d-dim %s tensor", static_cast<int>(ndim), kf_dtype_name(d));
    throw nb::python_error();
  }
  return int_of(only_value(self, "an index"));
}

PyObject* index_slot(PyObject* self) noexcept {
  PyObject* out = nullptr;
  return slot_call([&] { out = index_of(self).release().ptr(); }) ? out : nullptr;
}

// complex() and len() of a tensor.
void bind_conversions(nb::class_<Tensor>& cls) {
  cls.def("__complex__", [](nb::handle self) {
        const kf_scalar_t s = only_value(self, "complex()");
        if (s.tag == KF_SCALAR_COMPLEX128) return scalar_object(s);
        const nb::object real = scalar_object(s);
        PyObject* c = PyComplex_FromDoubles(PyFloat_AsDouble(real.ptr()), 0.0);
        if (c == nullptr) throw nb::python_error();
        return nb::steal(c);
      })
      .def("__len__", [](nb::handle self) {
        int32_t ndim = 0;
        const int64_t* shape = nullptr;
        check(kf_tensor_ndim(tensor_of(self), &ndim));
        if (ndim == 0) raise(PyExc_TypeError, "len() of a 0-dim tensor");
        check(kf_tensor_shape(tensor_of(self), &shape));
        return shape[0];
      });
}

}  // namespace

PyType_Slot tensor_number_slots[] = {
    {Py_nb_bool, reinterpret_cast<void*>(&bool_slot)},
    {Py_nb_float, reinterpret_cast<void*>(&float_slot)},
    {Py_nb_int, reinterpret_cast<void*>(&int_slot)},
    {Py_nb_index, reinterpret_cast<void*>(&index_slot)},
    {0, nullptr}};

void bind_tensor_ops(nb::module_& m, nb::class_<Tensor>& cls) {
  cls.def("__add__", &binary<add1>)
      .def("__radd__", &binary<add1, true>)
      .def("__sub__", &binary<sub1>)
      .def("__rsub__", &binary<sub1, true>)
      .def("__mul__", &binary<kf_mul>)
      .def("__rmul__", &binary<kf_mul, true>)
      .def("__truediv__", &binary<kf_div>)
      .def("__rtruediv__", &binary<kf_div, true>)
      .def("__pow__", &binary<kf_pow>)
      .def("__rpow__", &binary<kf_pow, true>)
      .def("__matmul__", &binary<matmul_promoted, false, false>)
      .def("__rmatmul__", &binary<matmul_promoted, true, false>)
      .def("__eq__", &binary<kf_eq>)
      .def("__ne__", &binary<kf_ne>)
      .def("__lt__", &binary<kf_lt>)
      .def("__le__", &binary<kf_le>)
      .def("__gt__", &binary<kf_gt>)
      .def("__ge__", &binary<kf_ge>)
      .def("__floordiv__", &binary<kf_floor_divide>)
      .def("__rfloordiv__", &binary<kf_floor_divide, true>)
      .def("__mod__", &binary<kf_remainder>)
      .def("__rmod__", &binary<kf_remainder, true>)
      // &, |, ^ and ~ are bitwise (logical on bool), as in Python, numpy and PyTorch.
      .def("__and__", &binary<kf_bitwise_and>)
      .def("__rand__", &binary<kf_bitwise_and, true>)
      .def("__or__", &binary<kf_bitwise_or>)
      .def("__ror__", &binary<kf_bitwise_or, true>)
      .def("__xor__", &binary<kf_bitwise_xor>)
      .def("__rxor__", &binary<kf_bitwise_xor, true>)
      .def("__lshift__", &binary<kf_bitwise_left_shift>)
      .def("__rlshift__", &binary<kf_bitwise_left_shift, true>)
      .def("__rshift__", &binary<kf_bitwise_right_shift>)
      .def("__rrshift__", &binary<kf_bitwise_right_shift, true>)
      .def("__invert__", &unary<kf_bitwise_not>)
      .def("__iadd__", &inplace<add1_>)
      .def("__isub__", &inplace<sub1_>)
      .def("__imul__", &inplace<kf_mul_>)
      .def("__itruediv__", &inplace<kf_div_>)
      .def("__ipow__", &inplace_by_copy<&binary<kf_pow>>)
      .def("__imatmul__", &inplace_by_copy<&binary<matmul_promoted, false, false>>)
      .def("__ifloordiv__", &inplace<kf_floor_divide_>)
      .def("__imod__", &inplace<kf_remainder_>)
      .def("__iand__", &inplace<kf_bitwise_and_>)
      .def("__ior__", &inplace<kf_bitwise_or_>)
      .def("__ixor__", &inplace<kf_bitwise_xor_>)
      .def("__ilshift__", &inplace<kf_bitwise_left_shift_>)
      .def("__irshift__", &inplace<kf_bitwise_right_shift_>)
      .def("__neg__", &unary<kf_neg>)
      .def("__abs__", &unary<kf_abs>)
      .def("__pos__", [](nb::handle self) { return nb::borrow(self); });
  bind_conversions(cls);
  bind_alpha_methods(cls);
  (void)m;
}

}  // namespace kfpy
