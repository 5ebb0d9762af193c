"""The array API's elementwise functions that test_ops_numpy.py does not cover, against numpy,
through the namespace's standard names (kf.atan2, kf.bitwise_invert, ...): values, result
dtypes and shapes, drawn by Hypothesis, in float32, float64 and the complex dtypes where the
function takes them, every integer dtype for the integer functions. numpy computes each
reference in float64 or complex128 (or exactly, for integers); the tolerance is the result
dtype's rounding. The special cases of each function's docstring: test_special_cases.py.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import kernforge as kf

settings.register_profile("kernforge-elementwise", max_examples=30, deadline=None)
settings.load_profile("kernforge-elementwise")

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-12, atol=1e-13),
       "complex64": dict(rtol=5e-5, atol=5e-6), "complex128": dict(rtol=1e-11, atol=1e-12)}

# function: (numpy reference, domain of the real inputs, whether complex inputs are taken)
UNARY_FLOAT = {
    "tan": (np.tan, (-1.5, 1.5), True), "asin": (np.arcsin, (-1, 1), True),
    "acos": (np.arccos, (-1, 1), True), "atan": (np.arctan, (-50, 50), True),
    "sinh": (np.sinh, (-8, 8), True), "cosh": (np.cosh, (-8, 8), True),
    "asinh": (np.arcsinh, (-50, 50), True), "acosh": (np.arccosh, (1, 50), True),
    "atanh": (np.arctanh, (-0.99, 0.99), True), "expm1": (np.expm1, (-8, 8), True),
    "log1p": (np.log1p, (-0.99, 50), True), "log2": (np.log2, (0.01, 50), True),
    "log10": (np.log10, (0.01, 50), True),
}
BINARY_FLOAT = {
    "atan2": np.arctan2, "hypot": np.hypot, "copysign": np.copysign,
    "logaddexp": np.logaddexp, "nextafter": np.nextafter,
}


def floats(dtype, shape, lo=-20, hi=20):
    width = 32 if dtype in ("float32", "complex64") else 64
    lo, hi = float(np.float32(lo)), float(np.float32(hi))
    part = st.floats(lo, hi, width=width)
    if dtype.startswith("complex"):
        part = st.builds(complex, part, part)
    return hnp.arrays(np.dtype(dtype), shape, elements=part)


def shapes(min_dims=0):
    return hnp.array_shapes(min_dims=min_dims, max_dims=3, min_side=1, max_side=5)


def close(t, expected, dtype):
    assert t.dtype.name == dtype, f"dtype {t.dtype.name}, expected {dtype}"
    assert t.shape == expected.shape
    np.testing.assert_allclose(t.numpy(), expected.astype(dtype), **TOL[dtype])


@pytest.mark.parametrize("name", sorted(UNARY_FLOAT))
@given(data=st.data())
def test_unary_floating_functions(name, data):
    ref, (lo, hi), takes_complex = UNARY_FLOAT[name]
    dtype = data.draw(st.sampled_from(["float32", "float64"] +
                                      ["complex64", "complex128"] * takes_complex))
    a = data.draw(floats(dtype, data.draw(shapes()), lo, hi))
    wide = a.astype("complex128" if dtype.startswith("complex") else "float64")
    with np.errstate(all="ignore"):
        close(getattr(kf, name)(kf.asarray(a)), ref(wide), dtype)


@pytest.mark.parametrize("name", sorted(UNARY_FLOAT))
def test_unary_floating_functions_of_integers_give_float32(name):
    ref, (lo, hi), _ = UNARY_FLOAT[name]
    a = np.array([int(np.ceil(lo)), int(np.floor(hi))], np.int32)
    with np.errstate(all="ignore"):
        close(getattr(kf, name)(kf.asarray(a)), ref(a.astype("float64")), "float32")


@pytest.mark.parametrize("name", sorted(BINARY_FLOAT))
@given(data=st.data())
def test_binary_floating_functions_broadcast(name, data):
    dtype = data.draw(st.sampled_from(["float32", "float64"]))
    s = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4))
    a = data.draw(floats(dtype, s.input_shapes[0]))
    b = data.draw(floats(dtype, s.input_shapes[1]))
    got = getattr(kf, name)(kf.asarray(a), kf.asarray(b))
    if name == "nextafter":  # one step of the dtype itself: numpy in that dtype, exactly
        assert got.dtype.name == dtype
        np.testing.assert_array_equal(got.numpy(), np.nextafter(a, b))
    else:
        close(got, BINARY_FLOAT[name](a.astype("float64"), b.astype("float64")), dtype)


@given(data=st.data())
def test_floor_divide_and_remainder_are_pythons(data):
    dtype = data.draw(st.sampled_from(INTS + ["float32", "float64"]))
    s = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4))
    if dtype in INTS:
        info = np.iinfo(dtype)
        elems = st.integers(max(int(info.min), -1000), min(int(info.max), 1000))
        a = data.draw(hnp.arrays(np.dtype(dtype), s.input_shapes[0], elements=elems))
        b = data.draw(hnp.arrays(np.dtype(dtype), s.input_shapes[1], elements=elems))
        with np.errstate(all="ignore"):  # x // 0 is 0 in both
            q, r = np.floor_divide(a, b), np.remainder(a, b)
        assert kf.floor_divide(kf.asarray(a), kf.asarray(b)).tolist() == q.tolist()
        assert kf.remainder(kf.asarray(a), kf.asarray(b)).tolist() == r.tolist()
    else:
        a = data.draw(floats(dtype, s.input_shapes[0]))
        b = data.draw(floats(dtype, s.input_shapes[1]).filter(lambda x: (x != 0).all()))
        x, y = kf.asarray(a), kf.asarray(b)  # numpy in the same dtype: one algorithm
        close(kf.floor_divide(x, y), np.floor_divide(a, b), dtype)
        close(kf.remainder(x, y), np.remainder(a, b), dtype)


@pytest.mark.parametrize("dtype", INTS + ["bool"])
@given(data=st.data())
def test_bitwise_functions(dtype, data):
    s = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4))
    a = data.draw(hnp.arrays(np.dtype(dtype), s.input_shapes[0]))
    b = data.draw(hnp.arrays(np.dtype(dtype), s.input_shapes[1]))
    x, y = kf.asarray(a), kf.asarray(b)
    for name, ref in [("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                      ("bitwise_xor", np.bitwise_xor)]:
        got = getattr(kf, name)(x, y)
        assert got.dtype.name == dtype and got.tolist() == ref(a, b).tolist(), name
    assert kf.bitwise_invert(x).tolist() == np.invert(a).tolist()
    if dtype == "bool":
        return
    bits = np.dtype(dtype).itemsize * 8
    n = data.draw(hnp.arrays(np.dtype(dtype), s.input_shapes[1],
                             elements=st.integers(0, bits - 1)))
    k = kf.asarray(n)
    assert kf.bitwise_left_shift(x, k).tolist() == np.left_shift(a, n).tolist()
    assert kf.bitwise_right_shift(x, k).tolist() == np.right_shift(a, n).tolist()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int16",
                                   "uint32", "bool"])
def test_predicates_and_logical_functions(dtype):
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, -2.5, 3.0, 1e-30]
    if dtype.startswith("complex"):
        a = np.array([complex(r, i) for r in specials[:4] for i in (0.0, np.nan)] +
                     [complex(1, np.inf), 2j], dtype)
    elif dtype.startswith("float"):
        a = np.array(specials, dtype)
    else:
        a = np.array([0, 1, 7, 0, 1], dtype)
    x = kf.asarray(a)
    for name in ("isnan", "isinf", "isfinite", "logical_not"):
        got = getattr(kf, name)(x)
        assert got.dtype == kf.bool and got.tolist() == getattr(np, name)(a).tolist(), name
    if not dtype.startswith("complex"):
        assert kf.signbit(x).tolist() == np.signbit(a).tolist()
    b = np.roll(a, 1)
    assert kf.logical_xor(x, kf.asarray(b)).tolist() == np.logical_xor(a, b).tolist()


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint16", "int64"])
def test_trunc_and_square(dtype):
    a = (np.array([-2.75, -0.5, 0.25, 3.5, 11.0, -0.0], dtype) if "float" in dtype
         else np.array([-5, 0, 3, 100, 17], dtype) if dtype[0] == "i"
         else np.array([0, 3, 300, 17], dtype))
    x = kf.asarray(a)
    assert kf.trunc(x).tolist() == np.trunc(a).tolist() and kf.trunc(x).dtype.name == dtype
    assert kf.square(x).tolist() == np.square(a).tolist()  # integers wrap in both


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "int32"])
def test_conj_real_imag(dtype):
    a = np.array([1.5 - 2j, -3 + 0.25j, 0j, 4j] if dtype.startswith("complex")
                 else [1, -2, 0, 7], dtype)
    x = kf.asarray(a)
    for name, ref in [("conj", np.conj), ("real", np.real), ("imag", np.imag)]:
        got, want = getattr(kf, name)(x), ref(a)
        assert got.dtype.name == want.dtype.name, name
        assert got.tolist() == want.tolist(), name
    assert kf.square(x).tolist() == np.square(a).tolist()


def test_operators_are_the_functions():
    a, b = np.array([7, -7, 12], np.int32), np.array([2, 3, -5], np.int32)
    x, y = kf.asarray(a), kf.asarray(b)
    assert (x // y).tolist() == (a // b).tolist() and (x % y).tolist() == (a % b).tolist()
    assert (x & y).tolist() == (a & b).tolist() and (x | y).tolist() == (a | b).tolist()
    assert (x ^ y).tolist() == (a ^ b).tolist() and (~x).tolist() == (~a).tolist()
    assert (x << 1).tolist() == (a << 1).tolist() and (x >> 1).tolist() == (a >> 1).tolist()
    assert (-7.5 // kf.asarray(np.float32(2))).item() == -4.0


@pytest.mark.parametrize("name,args", [
    ("atan2", ("complex64", "float32")), ("signbit", ("complex64",)),
    ("bitwise_and", ("float32", "int32")), ("bitwise_left_shift", ("bool", "bool")),
    ("bitwise_invert", ("float64",)), ("floor_divide", ("bool", "bool")),
    ("remainder", ("complex128", "float64"))])
def test_refusals_name_the_function_and_the_dtype(name, args):
    arrays = [kf.asarray(np.ones(2, d)) for d in args]
    with pytest.raises(ValueError) as e:
        getattr(kf, name)(*arrays)
    op = "bitwise_not" if name == "bitwise_invert" else name  # the registry's name
    assert op in str(e.value) and any(d in str(e.value) for d in args), str(e.value)


# Ops of the registry this file compares with numpy (test_ops_numpy_rest.py checks that every
# op is compared somewhere); the registry's names, which differ from the standard's for
# bitwise_not (bitwise_invert).
COMPARED = set(UNARY_FLOAT) | set(BINARY_FLOAT) | {
    "floor_divide", "remainder", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
    "bitwise_left_shift", "bitwise_right_shift", "isnan", "isinf", "isfinite", "signbit",
    "logical_not", "logical_xor", "trunc", "square", "conj", "real", "imag"}
