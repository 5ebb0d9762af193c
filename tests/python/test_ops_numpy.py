"""Ops against numpy, with shapes, dtypes and broadcasting drawn by Hypothesis.

The expected result dtype comes from promote() below, an independent statement of PyTorch's
rules (numpy's differ: int32 + float32 is float64 there); the values from numpy computing in
that dtype. Binary ops are checked twice: through kernforge.ops, whose 0-dim tensors rank below
dimensioned ones (PyTorch's result_type), and through the operators and the namespace's
functions, where a 0-dim array promotes like any other (the array API's rule).
"""

import operator

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import kernforge as kf

settings.register_profile("kernforge", max_examples=60, deadline=None)
settings.load_profile("kernforge")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
NUMERIC = DTYPES[1:]
FLOATS = ["float32", "float64"]


def promote(a, b):
    """PyTorch's promote_types for the dtypes above."""
    if a == b:
        return a
    kind = {"bool": 0, "uint8": 1, "int8": 1, "int16": 1, "int32": 1, "int64": 1}
    ka, kb = kind.get(a, 2), kind.get(b, 2)
    if ka != kb:
        return a if ka > kb else b
    if {a, b} == {"uint8", "int8"}:
        return "int16"
    size = lambda d: np.dtype(d).itemsize
    return a if size(a) > size(b) else b


def category(d):
    return 0 if d == "bool" else 1 if np.dtype(d).kind in "iu" else 2


def result_type(a, b):
    """PyTorch's result_type of two tensors: a 0-dim one decides only when its category (bool <
    integer < floating) is higher than the dimensioned one's."""
    da, db = a.dtype.name, b.dtype.name
    if (a.ndim == 0) != (b.ndim == 0):
        dim, zero = (da, db) if b.ndim == 0 else (db, da)
        return dim if category(zero) <= category(dim) else promote(dim, zero)
    return promote(da, db)


def scalar_fits(a, b, r):
    """Whether the 0-dim operand beside a dimensioned one, converted to the result dtype r, is
    a value of r: such an operand is a scalar to kernforge, converted by the core's one rule
    (a value r cannot hold is refused; comparisons are then computed exactly instead)."""
    if (a.ndim == 0) == (b.ndim == 0):
        return True
    zero = a if a.ndim == 0 else b
    if zero.dtype.name == r or r == "bool":
        return True
    v = zero.item()
    if np.dtype(r).kind in "iu":
        info = np.iinfo(r)
        return info.min <= int(v) <= info.max
    return not np.isfinite(v) or abs(v) <= np.finfo(r).max


def values(dtype, shape):
    if dtype == "bool":
        elems = st.booleans()
    elif dtype.startswith(("int", "uint")):
        lo = 0 if dtype == "uint8" else -20
        elems = st.integers(lo, 20)
    else:
        elems = st.floats(-20, 20, width=16 if dtype == "float16" else 32)
    return hnp.arrays(np.dtype(dtype), shape, elements=elems)


@st.composite
def binary_case(draw, dtypes=NUMERIC):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4))
    da, db = draw(st.sampled_from(dtypes)), draw(st.sampled_from(dtypes))
    return draw(values(da, shapes.input_shapes[0])), draw(values(db, shapes.input_shapes[1]))


def check(t, expected, dtype, rtol=1e-6, atol=1e-6):
    assert t.dtype.name == dtype, f"dtype {t.dtype.name}, expected {dtype}"
    assert t.shape == expected.shape
    got = t.to(dtype="float32").numpy() if dtype == "bfloat16" else t.numpy()
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, expected.astype(dtype), rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(got, expected.astype(dtype))


def check_both_rules(name, standard, ref, a, b, out_dtype=None, **tol):
    """kernforge.ops.<name> against PyTorch's result_type, and `standard` (an operator or a
    namespace function) against the promotion of the two dtypes; out_dtype: the result's dtype
    when it is not the promoted one (bool for comparisons)."""
    ta, tb = kf.asarray(a), kf.asarray(b)
    r = result_type(a, b)
    if not scalar_fits(a, b, r) and out_dtype is None:
        with pytest.raises(ValueError, match=f"out of range for {r}"):
            getattr(kf.ops, name)(ta, tb)
    else:
        if not scalar_fits(a, b, r):  # comparisons: exact, in the wide dtype of r's kind
            r = "float64" if np.dtype(r).kind == "f" else "int64"
        with np.errstate(over="ignore"):
            expected = ref(a.astype(r), b.astype(r))
        check(getattr(kf.ops, name)(ta, tb), expected, out_dtype or r, **tol)
    s = promote(a.dtype.name, b.dtype.name)
    with np.errstate(over="ignore"):
        expected = ref(a.astype(s), b.astype(s))
    check(standard(ta, tb), expected, out_dtype or s, **tol)


@pytest.mark.parametrize("name,standard,ref", [
    ("add", operator.add, np.add), ("sub", operator.sub, np.subtract),
    ("mul", operator.mul, np.multiply), ("maximum", kf.maximum, np.maximum),
    ("minimum", kf.minimum, np.minimum)])
@given(case=binary_case())
def test_binary_ops_broadcast_and_promote(name, standard, ref, case):
    a, b = case
    half = promote(a.dtype.name, b.dtype.name) == "float16" or result_type(a, b) == "float16"
    check_both_rules(name, standard, ref, a, b, rtol=1e-3 if half else 1e-6,
                     atol=1e-2 if half else 1e-6)


@pytest.mark.parametrize("name,standard,ref", [
    ("eq", operator.eq, np.equal), ("ne", operator.ne, np.not_equal),
    ("lt", operator.lt, np.less), ("le", operator.le, np.less_equal),
    ("gt", operator.gt, np.greater), ("ge", operator.ge, np.greater_equal)])
@given(case=binary_case(DTYPES))
def test_comparisons(name, standard, ref, case):
    check_both_rules(name, standard, ref, *case, out_dtype="bool")


@given(case=binary_case(FLOATS))
def test_true_division(case):
    a, b = case
    b = np.where(b == 0, 1, b).astype(b.dtype)
    check_both_rules("div", operator.truediv, np.divide, a, b, rtol=1e-5)


@pytest.mark.parametrize("name,ref,positive", [
    ("exp", np.exp, False), ("log", np.log, True), ("sqrt", np.sqrt, True),
    ("sin", np.sin, False), ("cos", np.cos, False), ("tanh", np.tanh, False),
    ("abs", np.abs, False), ("neg", np.negative, False), ("floor", np.floor, False),
    ("ceil", np.ceil, False), ("relu", lambda x: np.maximum(x, 0), False),
    ("sigmoid", lambda x: 1 / (1 + np.exp(-x)), False)])
@given(data=st.data())
def test_unary_float_ops(name, ref, positive, data):
    dtype = data.draw(st.sampled_from(FLOATS))
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, max_side=5))
    a = data.draw(values(dtype, shape))
    if positive:
        a = np.abs(a) + np.array(0.5, dtype)
    check(getattr(kf, name)(kf.asarray(a)), ref(a.astype("float64")), dtype, rtol=2e-5, atol=1e-5)


@pytest.mark.parametrize("name,ref", [("sum", np.sum), ("mean", np.mean), ("max", np.max),
                                      ("min", np.min), ("prod", np.prod)])
@given(data=st.data())
def test_reductions_with_axis_and_keepdims(name, ref, data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = data.draw(values("float64", shape))
    axis = data.draw(st.none() | st.lists(st.integers(0, len(shape) - 1), unique=True,
                                           min_size=1).map(tuple))
    keepdims = data.draw(st.booleans())
    got = getattr(kf, name)(kf.asarray(a), axis=axis, keepdims=keepdims)
    check(got, np.asarray(ref(a, axis=axis, keepdims=keepdims)), "float64", rtol=1e-9, atol=1e-9)


@given(data=st.data())
def test_var_std_follow_the_array_api_in_the_namespace(data):
    a = data.draw(values("float64", data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=2))))
    np.testing.assert_allclose(kf.var(kf.asarray(a)).item(), np.var(a), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(kf.std(kf.asarray(a), correction=1).item(), np.std(a, ddof=1),
                               rtol=1e-9, atol=1e-12)


@given(m=st.integers(1, 6), k=st.integers(1, 6), n=st.integers(1, 6),
       dtype=st.sampled_from(FLOATS), data=st.data())
def test_matmul_operator(m, k, n, dtype, data):
    a, b = data.draw(values(dtype, (m, k))), data.draw(values(dtype, (k, n)))
    check(kf.asarray(a) @ kf.asarray(b), a.astype("float64") @ b.astype("float64"), dtype,
          rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("tensor_dtype,number,expected", [
    ("int32", 2, "int32"), ("int32", 2.5, "float32"), ("float16", 2.5, "float16"),
    ("float64", 0.1, "float64"), ("bool", 1, "int64"), ("bool", True, "bool"),
    ("uint8", 3, "uint8"), ("int64", 1.5, "float32"), ("bfloat16", 2, "bfloat16")])
def test_python_numbers_promote_like_pytorch(tensor_dtype, number, expected):
    t = kf.ones(3, dtype=tensor_dtype)
    for r in (t + number, number + t, t * number, number * t):
        assert r.dtype.name == expected
    if tensor_dtype != "bool":
        assert (t + number).tolist() == [1 + number] * 3


def test_float64_numbers_keep_their_precision():
    assert (kf.zeros(1, dtype=kf.float64) + 0.1).item() == 0.1
    assert (1 - kf.zeros(1, dtype=kf.float64) - 0.1).item() == 0.9


def test_reflected_and_inplace_operators():
    t = kf.tensor([1.0, 2.0, 4.0])
    assert (2 - t).tolist() == [1.0, 0.0, -2.0]
    assert (8 / t).tolist() == [8.0, 4.0, 2.0]
    assert (2 ** kf.tensor([1.0, 3.0])).tolist() == [2.0, 8.0]
    assert (t ** 2).tolist() == [1.0, 4.0, 16.0]
    u = t
    u += 1
    u *= 2
    assert u is t and t.tolist() == [4.0, 6.0, 10.0]
    assert (-t).tolist() == [-4.0, -6.0, -10.0] and abs(-t).tolist() == t.tolist()
    m = kf.tensor([True, False])
    assert (m & kf.tensor([True, True])).tolist() == [True, False]
    assert (~m).tolist() == [False, True] and (m | False).tolist() == [True, False]
    i, j = kf.tensor([12, -7, 5], dtype=kf.int32), kf.tensor([10, 3, -2], dtype=kf.int32)
    a, b = np.array([12, -7, 5], np.int32), np.array([10, 3, -2], np.int32)
    assert (i & j).tolist() == (a & b).tolist() and (i | j).tolist() == (a | b).tolist()
    assert (i ^ j).tolist() == (a ^ b).tolist() and (~i).tolist() == (~a).tolist()
    assert (i // j).tolist() == (a // b).tolist() and (i % j).tolist() == (a % b).tolist()
    assert (i << 2).tolist() == (a << 2).tolist() and (i >> 1).tolist() == (a >> 1).tolist()
    assert (7 // j).tolist() == (7 // b).tolist() and (1 << kf.tensor([3])).tolist() == [8]
    assert (5 % j).tolist() == (5 % b).tolist() and (3 & j).tolist() == (3 & b).tolist()
    k = kf.tensor([12, -7, 5], dtype=kf.int32)
    k //= 2
    k %= 4
    k <<= 1
    k ^= 3
    assert k.tolist() == (((a // 2) % 4 << 1) ^ 3).tolist()
    with pytest.raises(ValueError, match="bitwise_and: needs integer or bool"):
        kf.ones(2) & kf.ones(2)
    assert t.__add__("x") is NotImplemented
    with pytest.raises(TypeError):
        t + "x"
