"""Tensor indexing against numpy: basic keys (ints, slices with any step, None, ...), integer
arrays in one or several dims (broadcast together, negative values, adjacent or apart), bool
masks (whole-tensor and partial, 0-d True/False), for reading and for writing scalars, arrays
and broadcast values. Keys are drawn by Hypothesis; the result (or the written tensor) must
equal numpy's, shape and dtype included. Out-of-range indices and mismatched masks are
IndexErrors, as in numpy.
"""

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import kernforge as kf

settings.register_profile("kernforge-indexing", max_examples=60, deadline=None)

# The ops under indexing, compared with numpy here (test_ops_numpy_rest.py's coverage check).
COMPARED = {"index_copy_", "masked_select", "masked_select_static"}
settings.load_profile("kernforge-indexing")


def same(t, expected):
    expected = np.asarray(expected)
    assert t.dtype.name == expected.dtype.name, (t.dtype, expected.dtype)
    assert tuple(t.shape) == expected.shape, (t.shape, expected.shape)
    np.testing.assert_array_equal(t.numpy(), expected)


@st.composite
def basic_keys(draw, shape):
    key, dim = [], 0
    while dim < len(shape) and draw(st.booleans()):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis"]))
        size = shape[dim]
        if kind == "int" and size:
            key.append(draw(st.integers(-size, size - 1)))
            dim += 1
        elif kind == "none":
            key.append(None)
        elif kind == "ellipsis" and Ellipsis not in key:
            key.append(Ellipsis)
            dim = len(shape)
        else:
            bound = st.none() | st.integers(-size - 2, size + 2)
            step = draw(st.none() | st.integers(-3, 3).filter(lambda s: s != 0))
            key.append(slice(draw(bound), draw(bound), step))
            dim += 1
    return tuple(key)


@given(data=st.data())
def test_basic_read_and_write(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=5))
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    key = data.draw(basic_keys(shape))
    x = kf.asarray(a)
    same(x[key], a[key])
    view = a[key]
    b = a.copy()
    b[key] = -7
    x[key] = -7
    same(x, b)
    if np.ndim(view):
        value = np.arange(view.size, dtype=np.int32).reshape(view.shape) + 100
        y = kf.asarray(a)
        y[key] = kf.asarray(value)
        c = a.copy()
        c[key] = value
        same(y, c)


@given(data=st.data())
def test_integer_arrays(data):
    shape = data.draw(hnp.array_shapes(min_dims=2, max_dims=4, min_side=1, max_side=4))
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    index_shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3))
    key = []
    for size in shape:
        kind = data.draw(st.sampled_from(["array", "slice", "int"]))
        if kind == "array":
            key.append(data.draw(hnp.arrays(np.int64, index_shape,
                                            elements=st.integers(-size, size - 1))))
        elif kind == "int":
            key.append(data.draw(st.integers(-size, size - 1)))
        else:
            key.append(slice(None))
    key = tuple(key)
    assume(any(isinstance(k, np.ndarray) for k in key))
    kkey = tuple(kf.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
    x = kf.asarray(a)
    same(x[kkey], a[key])
    b = a.copy()
    b[key] = -1.5
    x[kkey] = -1.5
    same(x, b)


@given(data=st.data())
def test_bool_masks(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5))
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) - 3
    covered = data.draw(st.integers(1, len(shape)))
    start = data.draw(st.integers(0, len(shape) - covered))
    mask = data.draw(hnp.arrays(np.bool_, shape[start:start + covered]))
    key = (slice(None),) * start + (mask,)
    x = kf.asarray(a)
    same(x[(slice(None),) * start + (kf.asarray(mask),)], a[key])
    b = a.copy()
    b[key] = 9
    x[(slice(None),) * start + (kf.asarray(mask),)] = 9
    same(x, b)


def test_the_everyday_forms():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = kf.asarray(a)
    same(x[x > 5], a[a > 5])
    same(x[::-1], a[::-1])
    same(x[:, ::-2], a[:, ::-2])
    same(x[[0, 2]], a[[0, 2]])
    same(x[[0, 2], [1, 3]], a[[0, 2], [1, 3]])
    same(x[True], a[True])
    same(x[False], a[False])
    same(x[..., None, 1], a[..., None, 1])
    same(x[kf.asarray(1)], a[1])
    x[x > 5] = 0
    b = a.copy()
    b[b > 5] = 0
    same(x, b)
    y = kf.asarray(a)
    y[a[:, 0] > 3] = kf.asarray(np.ones(4, dtype=np.float32))
    c = a.copy()
    c[a[:, 0] > 3] = 1
    same(y, c)
    z = kf.asarray(a)
    z[::-1, 0] = kf.asarray(np.array([7, 8, 9], dtype=np.float32))
    d = a.copy()
    d[::-1, 0] = [7, 8, 9]
    same(z, d)


def test_bad_indices_are_index_errors():
    x = kf.asarray(np.arange(6).reshape(2, 3))
    with pytest.raises(IndexError, match="out of range"):
        x[kf.asarray([0, 5])]
    with pytest.raises(IndexError, match="out of range"):
        x[:, [-4]]
    with pytest.raises(IndexError, match="does not match"):
        x[kf.asarray([True, False, True])]
    with pytest.raises(IndexError, match="broadcast"):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="too many"):
        x[0, 0, 0]
    with pytest.raises(IndexError):
        x["a"]
    with pytest.raises(IndexError, match="integer or bool"):
        x[kf.asarray([0.5])]


def test_negative_steps_are_views():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = kf.asarray(a)
    r = x[::-1, ::-2]
    same(r, a[::-1, ::-2])
    r[0, 0] = 100.0  # the last entry of the last row of x
    b = a.copy()
    b[3, 5] = 100.0
    same(x, b)
    r += 1  # in place, through strides -6 and -2
    b[::-1, ::-2] += 1
    same(x, b)
    back = np.from_dlpack(r)  # numpy reads the negative strides
    np.testing.assert_array_equal(back, b[::-1, ::-2])
    assert back.strides == (-24, -8)
    x[::-1] = x  # reads x before writing it: x reversed
    same(x, b[::-1])


def test_advanced_indices_next_to_a_negative_step():
    a = np.arange(20, dtype=np.int64).reshape(4, 5)
    x = kf.asarray(a)
    same(x[::-1, [0, 3]], a[::-1, [0, 3]])
    same(x[1::-1][a[1::-1] % 3 == 0], a[1::-1][a[1::-1] % 3 == 0])
    x[::-2, [4, 1]] = kf.asarray(np.array([[7, 8], [9, 10]]))
    b = a.copy()
    b[::-2, [4, 1]] = [[7, 8], [9, 10]]
    same(x, b)


@pytest.mark.parametrize("name, numpy_name", [
    ("sin", "sin"), ("abs", "abs"), ("negative", "negative"), ("sum", "sum"),
    ("max", "max"), ("argmax", "argmax"), ("sort", "sort"), ("argsort", "argsort"),
    ("cumulative_sum", "cumsum"), ("flip", "flip"), ("unique_values", "unique"),
    ("matmul", "matmul"), ("nonzero", "nonzero"), ("roll", "roll")])
def test_functions_of_reversed_views(name, numpy_name):
    a = np.array([[3, 1, 4, 1, 5, 9], [2, 6, 5, 3, 5, 8], [9, 7, 9, 3, 2, 3],
                  [8, 4, 6, 2, 6, 4]], dtype=np.float64)
    view, expected_of = kf.asarray(a)[::-1, ::-2], a[::-1, ::-2]
    np_f, kf_f = getattr(np, numpy_name), getattr(kf, name)
    if name == "matmul":
        got, want = kf_f(view, view.mT), np_f(expected_of, expected_of.T)
    elif name == "argsort":  # rows with ties: the standard's argsort is stable
        got, want = kf_f(view, axis=1), np_f(expected_of, axis=1, kind="stable")
    elif name in ("argmax", "cumulative_sum", "sort"):
        got, want = kf_f(view, axis=1), np_f(expected_of, axis=1)
    elif name == "roll":
        got, want = kf_f(view, 1, axis=0), np_f(expected_of, 1, axis=0)
    elif name == "nonzero":
        got, want = kf_f(view > 4), np_f(expected_of > 4)
    else:
        got, want = kf_f(view), np_f(expected_of)
    for g, w in zip(got if isinstance(got, tuple) else [got],
                    want if isinstance(want, tuple) else [want]):
        np.testing.assert_array_equal(np.asarray(g.numpy()), w)


@given(data=st.data())
def test_writes_of_arrays_through_any_layout(data):
    """Integer-array and mask writes of array values, into the tensor or into a transposed or
    reversed view of it (whose indexed dims cannot be merged into one view), with repeated
    positions: the later value is the one written, as numpy's."""
    shape = data.draw(hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=5))
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    layout = data.draw(st.sampled_from(["plain", "transposed", "reversed"]))
    np_view = {"plain": lambda t: t, "transposed": lambda t: t.swapaxes(0, -1),
               "reversed": lambda t: t[::-1]}[layout]
    kf_view = {"plain": lambda t: t, "transposed": lambda t: t.transpose(0, -1),
               "reversed": lambda t: t[::-1]}[layout]
    target = np_view(a)
    size = target.shape[0]
    idx = data.draw(hnp.arrays(np.int64, data.draw(st.integers(1, 6)),
                               elements=st.integers(-size, size - 1)))
    values = np.arange(idx.size * int(np.prod(target.shape[1:])), dtype=np.float64) + 100
    values = values.reshape((idx.size,) + target.shape[1:])
    b = a.copy()
    np_view(b)[idx] = values
    x = kf.asarray(a)
    kf_view(x)[kf.asarray(idx)] = kf.asarray(values)
    same(x, b)
    mask = data.draw(hnp.arrays(np.bool_, target.shape))
    fill = np.arange(int(mask.sum()), dtype=np.float64) - 50
    c = a.copy()
    np_view(c)[mask] = fill
    y = kf.asarray(a)
    kf_view(y)[kf.asarray(mask)] = kf.asarray(fill)
    same(y, c)
    same(kf_view(y)[kf.asarray(mask)], np_view(c)[mask])


@given(data=st.data())
def test_the_ops_under_the_indexing(data):
    """masked_select (a mask broadcast over the leading dims too), masked_select_static (its
    padding) and index_copy_ along any dim with repeated positions, against numpy."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5))
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) - 7
    mask = data.draw(hnp.arrays(np.bool_, shape))
    x, m = kf.asarray(a), kf.asarray(mask)
    same(kf.masked_select(x, m), a[mask])
    if len(shape) > 1 and shape[0] > 0:  # the last row of the mask, broadcast over the first dim
        same(x.masked_select(m[-1]), a[np.broadcast_to(mask[-1], shape)])
    extra = data.draw(st.integers(0, 3))
    padded = np.concatenate([a[mask], np.zeros(extra, dtype=np.float32)])
    same(kf.ops.masked_select_static(x, m, size=int(mask.sum()) + extra), padded)
    d = data.draw(st.integers(0, len(shape) - 1))
    idx = data.draw(hnp.arrays(np.int64, data.draw(st.integers(0, 6)),
                               elements=st.integers(0, max(shape[d] - 1, 0))))
    assume(shape[d] > 0 or idx.size == 0)
    src = np.arange(int(np.prod(shape[:d] + (idx.size,) + shape[d + 1:])), dtype=np.float32)
    src = src.reshape(shape[:d] + (idx.size,) + shape[d + 1:]) + 100
    b = a.copy()
    for j, i in enumerate(idx):
        b[(slice(None),) * d + (i,)] = src[(slice(None),) * d + (j,)]
    y = kf.asarray(a)
    y.index_copy_(d, kf.asarray(idx), kf.asarray(src))
    same(y, b)
