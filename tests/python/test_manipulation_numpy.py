"""The array API functions composed from ops in Python (kernforge/_manipulation.py and
_array_api.py) against numpy: flip, roll, moveaxis, tile, repeat, broadcast_arrays, meshgrid,
unstack, tril, triu, eye with k, take_along_axis, count_nonzero, vecdot, tensordot and
cumulative_sum with include_initial. Shapes, axes and values are drawn by Hypothesis, in a
float, an integer and the bool dtype (complex where the function conjugates); results must be
equal to numpy's, dtype and shape included (vecdot and tensordot: to the dtype's rounding). Bad
axes and arguments must raise, naming the function.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import kernforge as kf

settings.register_profile("kernforge-manipulation", max_examples=40, deadline=None)
settings.load_profile("kernforge-manipulation")

DTYPES = ["float32", "int32", "uint8", "bool"]

# The ops of the registry these tests compare with numpy (test_ops_numpy_rest.py's coverage check).
COMPARED = {"flip", "count_nonzero"}


def arrays(draw, dtype, min_dims=1, max_dims=4, shape=None):
    if shape is None:
        shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0,
                                      max_side=4))
    return draw(hnp.arrays(np.dtype(dtype), shape))


def same(t, expected):
    expected = np.asarray(expected)
    assert t.dtype.name == expected.dtype.name, (t.dtype, expected.dtype)
    assert tuple(t.shape) == expected.shape, (t.shape, expected.shape)
    np.testing.assert_array_equal(t.numpy(), expected)


def axes_of(draw, ndim):
    """None, one axis (either sign) or a tuple of distinct axes."""
    kind = draw(st.sampled_from(["none", "one", "tuple"]))
    if kind == "none" or ndim == 0:
        return None
    if kind == "one":
        return draw(st.integers(-ndim, ndim - 1))
    return tuple(draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim)))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_flip(dtype, data):
    a = arrays(data.draw, dtype, min_dims=0)
    axis = axes_of(data.draw, a.ndim)
    same(kf.flip(kf.asarray(a), axis=axis), np.flip(a, axis=axis))


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int16", "uint64", "bool"])
def test_flip_op_of_a_strided_view(dtype):
    a = (np.arange(60).reshape(3, 4, 5) % 7).astype(dtype)
    t = kf.permute_dims(kf.asarray(a), (2, 0, 1))  # strides (1, 20, 5): not contiguous
    view = np.transpose(a, (2, 0, 1))
    for dims in ([0], [1, -1], [], [0, 1, 2]):
        same(kf.ops.flip(t, dims), np.flip(view, axis=tuple(dims)))
        same(t.flip(dims), np.flip(view, axis=tuple(dims)))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_roll(dtype, data):
    a = arrays(data.draw, dtype)
    axis = axes_of(data.draw, a.ndim)
    if isinstance(axis, tuple):
        shift = tuple(data.draw(st.integers(-9, 9)) for _ in axis)
    else:
        shift = data.draw(st.integers(-9, 9))
    same(kf.roll(kf.asarray(a), shift, axis=axis), np.roll(a, shift, axis=axis))


@given(data=st.data())
def test_moveaxis(data):
    a = arrays(data.draw, "float32")
    n = data.draw(st.integers(1, a.ndim))
    src = data.draw(st.permutations(range(a.ndim)))[:n]
    dst = data.draw(st.permutations(range(-a.ndim, 0)))[:n]
    same(kf.moveaxis(kf.asarray(a), tuple(src), tuple(dst)), np.moveaxis(a, src, dst))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_tile(dtype, data):
    a = arrays(data.draw, dtype, min_dims=0, max_dims=3)
    reps = tuple(data.draw(st.lists(st.integers(0, 3), max_size=4)))
    same(kf.tile(kf.asarray(a), reps), np.tile(a, reps))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_repeat(dtype, data):
    a = arrays(data.draw, dtype, max_dims=3)
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1)))
    n = a.size if axis is None else a.shape[axis]
    kind = data.draw(st.sampled_from(["int", "one", "each"]))
    if kind == "int":
        reps = data.draw(st.integers(0, 3))
        got = kf.repeat(kf.asarray(a), reps, axis=axis)
    else:
        reps = data.draw(st.lists(st.integers(0, 3), min_size=1 if kind == "one" else n,
                                  max_size=1 if kind == "one" else n))
        got = kf.repeat(kf.asarray(a), kf.asarray(np.array(reps, np.int64)), axis=axis)
    same(got, np.repeat(a, reps, axis=axis))


@given(data=st.data())
def test_broadcast_arrays(data):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_side=4)).input_shapes
    arrs = [np.arange(int(np.prod(s)), dtype=np.int32).reshape(s) for s in shapes]
    got = kf.broadcast_arrays(*[kf.asarray(a) for a in arrs])
    assert isinstance(got, list)
    for g, e in zip(got, np.broadcast_arrays(*arrs)):
        same(g, e)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@given(sizes=st.lists(st.integers(0, 4), max_size=4))
def test_meshgrid(indexing, sizes):
    vs = [np.arange(n, dtype=np.float32) * (i + 1) for i, n in enumerate(sizes)]
    got = kf.meshgrid(*[kf.asarray(v) for v in vs], indexing=indexing)
    assert isinstance(got, list) and len(got) == len(vs)
    for g, e in zip(got, np.meshgrid(*vs, indexing=indexing)):
        same(g, e)


@given(data=st.data())
def test_unstack(data):
    a = arrays(data.draw, "int32")
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    got = kf.unstack(kf.asarray(a), axis=axis)
    assert isinstance(got, tuple) and len(got) == a.shape[axis]
    for i, g in enumerate(got):
        same(g, np.take(a, i, axis=axis))


@pytest.mark.parametrize("name", ["tril", "triu"])
@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_tril_triu(name, dtype, data):
    a = arrays(data.draw, dtype, min_dims=2)
    k = data.draw(st.integers(-5, 5))
    same(getattr(kf, name)(kf.asarray(a), k=k), getattr(np, name)(a, k=k))


@given(rows=st.integers(0, 5), cols=st.one_of(st.none(), st.integers(0, 5)),
       k=st.integers(-6, 6), dtype=st.sampled_from(["float32", "int64", "bool"]))
def test_eye_with_k(rows, cols, k, dtype):
    same(kf.eye(rows, cols, k=k, dtype=getattr(kf, dtype)),
         np.eye(rows, cols, k=k, dtype=dtype))


@pytest.mark.parametrize("dtype", ["float32", "int64"])
@given(data=st.data())
def test_take_along_axis(dtype, data):
    a = arrays(data.draw, dtype)
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    shape = list(a.shape)
    shape[axis] = data.draw(st.integers(0, 4)) if n else 0
    for d in range(a.ndim):  # broadcast along the other axes, from either side
        if d != axis % a.ndim and data.draw(st.booleans()):
            shape[d] = 1
    idx = data.draw(hnp.arrays(np.int64, tuple(shape),
                               elements=st.integers(-n, n - 1) if n else st.just(0)))
    expected = np.take_along_axis(a, idx, axis=axis)
    same(kf.take_along_axis(kf.asarray(a), kf.asarray(idx), axis=axis), expected)


@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", "complex64"])
@given(data=st.data())
def test_count_nonzero(dtype, data):
    a = arrays(data.draw, dtype, min_dims=0)
    axis = axes_of(data.draw, a.ndim)
    keepdims = data.draw(st.booleans())
    expected = np.count_nonzero(a, axis=axis, keepdims=keepdims)
    same(kf.count_nonzero(kf.asarray(a), axis=axis, keepdims=keepdims),
         np.asarray(expected, np.int64))


def values(draw, dtype, shape):
    if dtype.startswith("complex"):
        re = draw(hnp.arrays(np.float32, shape, elements=st.floats(-4, 4, width=32)))
        im = draw(hnp.arrays(np.float32, shape, elements=st.floats(-4, 4, width=32)))
        return (re + 1j * im).astype(dtype)
    if dtype.startswith("float"):
        return draw(hnp.arrays(np.dtype(dtype), shape, elements=st.floats(-4, 4, width=32)))
    return draw(hnp.arrays(np.dtype(dtype), shape, elements=st.integers(-20, 20)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
@given(data=st.data())
def test_vecdot(dtype, data):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=1,
                                                         max_side=4)).input_shapes
    n = data.draw(st.integers(1, 5))
    s1, s2 = shapes[0] + (n,), shapes[1] + (n,)
    x1, x2 = values(data.draw, dtype, s1), values(data.draw, dtype, s2)
    axis = -1 if data.draw(st.booleans()) else -data.draw(st.integers(1, min(len(s1), len(s2))))
    if x1.shape[axis] != x2.shape[axis]:
        axis = -1
    wide = np.complex128 if dtype.startswith("complex") else np.float64
    x1b, x2b = np.broadcast_arrays(x1, x2)
    expected = np.sum(np.conj(x1b.astype(wide)) * x2b.astype(wide), axis=axis)
    got = kf.vecdot(kf.asarray(x1), kf.asarray(x2), axis=axis)
    assert got.dtype.name == dtype and tuple(got.shape) == expected.shape
    np.testing.assert_allclose(got.numpy(), expected.astype(dtype), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@given(data=st.data())
def test_tensordot(dtype, data):
    s1 = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4))
    if data.draw(st.booleans()):
        n = data.draw(st.integers(0, len(s1)))
        s2 = s1[len(s1) - n:] + data.draw(hnp.array_shapes(min_dims=0, max_dims=2,
                                                          min_side=1, max_side=4))
        axes = n
    else:
        a1 = data.draw(st.permutations(range(len(s1))))[:data.draw(st.integers(0, len(s1)))]
        rest = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=4))
        order = data.draw(st.permutations(range(len(a1) + len(rest))))
        sizes = [s1[i] for i in a1] + list(rest)
        s2 = tuple(sizes[i] for i in order)
        a2 = [order.index(i) for i in range(len(a1))]
        axes = (list(a1), a2)
    x1, x2 = values(data.draw, dtype, s1), values(data.draw, dtype, s2)
    expected = np.tensordot(x1.astype(np.complex128), x2.astype(np.complex128), axes=axes)
    if not dtype.startswith("complex"):
        expected = expected.real
    got = kf.tensordot(kf.asarray(x1), kf.asarray(x2), axes=axes)
    assert got.dtype.name == dtype and tuple(got.shape) == expected.shape
    np.testing.assert_allclose(got.numpy(), expected.astype(dtype), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("dtype", ["float64", "int32", "complex64", "complex128"])
@given(data=st.data())
def test_cumulative_sum_include_initial(dtype, data):
    a = values(data.draw, dtype, data.draw(hnp.array_shapes(min_dims=1, max_dims=3,
                                                            min_side=0, max_side=4)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1)) if a.ndim > 1 else None
    got = kf.cumulative_sum(kf.asarray(a), axis=axis, include_initial=True)
    ax = 0 if axis is None else axis
    acc = np.cumsum(a, axis=ax, dtype=got.numpy().dtype)
    shape = list(acc.shape)
    shape[ax] = 1
    expected = np.concatenate([np.zeros(shape, acc.dtype), acc], axis=ax)
    # complex64 sums accumulate in complex128 here and in complex64 in numpy
    tol = 1e-5 if dtype == "complex64" else 1e-12
    np.testing.assert_allclose(got.numpy(), expected, rtol=tol, atol=tol)
    assert tuple(got.shape) == expected.shape


BAD = [
    ("flip", lambda x: kf.flip(x, axis=2), IndexError),
    ("flip", lambda x: kf.flip(x, axis=(0, 0)), ValueError),
    ("roll", lambda x: kf.roll(x, (1, 2), axis=(0, 1, 1)), ValueError),
    ("moveaxis", lambda x: kf.moveaxis(x, (0, 1), 0), ValueError),
    ("moveaxis", lambda x: kf.moveaxis(x, -3, 0), IndexError),
    ("tile", lambda x: kf.tile(x, (-1,)), ValueError),
    ("repeat", lambda x: kf.repeat(x, -1), ValueError),
    ("repeat", lambda x: kf.repeat(x, kf.asarray([1, 2, 3]), axis=0), ValueError),
    ("broadcast_arrays", lambda x: kf.broadcast_arrays(x, kf.zeros((4,))), ValueError),
    ("meshgrid", lambda x: kf.meshgrid(x), ValueError),
    ("meshgrid", lambda x: kf.meshgrid(x[0], indexing="yx"), ValueError),
    ("unstack", lambda x: kf.unstack(x, axis=5), IndexError),
    ("tril", lambda x: kf.tril(x[0]), ValueError),
    ("take_along_axis", lambda x: kf.take_along_axis(x, kf.asarray([0]), axis=0), ValueError),
    ("vecdot", lambda x: kf.vecdot(x, kf.zeros((2, 4))), ValueError),
    ("vecdot", lambda x: kf.vecdot(x, x, axis=0), ValueError),
    ("tensordot", lambda x: kf.tensordot(x, x, axes=3), ValueError),
    ("tensordot", lambda x: kf.tensordot(x, x, axes=([0], [0, 1])), ValueError),
    ("tensordot", lambda x: kf.tensordot(x, x, axes=([0], [1])), ValueError),
]


@pytest.mark.parametrize("name,call,error", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_arguments_raise_naming_the_function(name, call, error):
    x = kf.zeros((2, 3))
    with pytest.raises(error, match=name):
        call(x)
