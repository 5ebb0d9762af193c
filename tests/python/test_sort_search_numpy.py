"""Sorting, searching and set functions against numpy: sort and argsort (stable, both
directions, NaN last ascending and first descending, as numpy's ascending order reversed
stably), nonzero, searchsorted (both sides, sorter), the unique_* functions (NaNs distinct,
-0 equal to +0) and cumulative_prod with include_initial (complex128 too). Values come from
Hypothesis in float, integer, unsigned and bool dtypes, with many ties; results must equal
numpy's, dtype and shape included. Complex inputs to sort are refused naming the dtype.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import kernforge as kf

settings.register_profile("kernforge-sort", max_examples=40, deadline=None)
settings.load_profile("kernforge-sort")

DTYPES = ["float32", "float64", "int8", "int64", "uint16", "uint8", "bool"]
# The ops of the registry this file compares with numpy (test_ops_numpy_rest.py checks that
# every op is compared somewhere).
COMPARED = {"sort", "argsort", "nonzero", "nonzero_static", "searchsorted", "cumprod"}


def arrays(draw, dtype, min_dims=1, max_dims=3, max_side=6):
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0,
                                  max_side=max_side))
    if np.dtype(dtype).kind == "f":
        elements = st.sampled_from([0.0, -0.0, 1.5, -2.0, 3.0, np.nan, np.inf, -np.inf, 7.25])
        return draw(hnp.arrays(np.dtype(dtype), shape, elements=elements))
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        elements = st.sampled_from([0, 1, 2, 5, info.max, info.min, info.max // 2])
        return draw(hnp.arrays(np.dtype(dtype), shape, elements=elements))
    return draw(hnp.arrays(np.dtype(dtype), shape))


def same(t, expected):
    expected = np.asarray(expected)
    assert t.dtype.name == expected.dtype.name, (t.dtype, expected.dtype)
    assert tuple(t.shape) == expected.shape, (t.shape, expected.shape)
    np.testing.assert_array_equal(t.numpy(), expected)


def np_argsort(a, axis, descending):
    """numpy's stable order; descending keeps equal values in input order (NaN first)."""
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    flipped = np.flip(a, axis=axis)
    order = np.flip(np.argsort(flipped, axis=axis, kind="stable"), axis=axis)
    return a.shape[axis] - 1 - order


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
@given(data=st.data())
def test_sort_and_argsort(dtype, descending, data):
    a = arrays(data.draw, dtype)
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    order = np_argsort(a, axis, descending)
    same(kf.argsort(kf.asarray(a), axis=axis, descending=descending), order)
    got = kf.sort(kf.asarray(a), axis=axis, descending=descending)
    want = np.take_along_axis(a, order, axis=axis)
    same(got, want)
    if np.dtype(dtype).kind == "f":  # each zero keeps its sign
        np.testing.assert_array_equal(np.signbit(got.numpy()), np.signbit(want))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int32", "uint64"])
@pytest.mark.parametrize(
    "shape,axis", [((70000,), 0), ((140001,), 0), ((3000, 37), 0), ((5, 400, 21), 1)]
)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_long_and_side_by_side_lines(dtype, shape, axis, descending):
    """Lines long enough for the threads to share them, and lines along a dim that is not the
    last (sorted in blocks of side-by-side lines): ties, NaNs and zeros of both signs."""
    rng = np.random.default_rng(5)
    a = rng.integers(-20, 20, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        flat = a.reshape(-1)
        flat[::13] = -0.0
        flat[::29] = np.nan
        flat[5::31] = 0.0
    order = np_argsort(a, axis, descending)
    same(kf.argsort(kf.asarray(a), axis=axis, descending=descending), order)
    got = kf.sort(kf.asarray(a), axis=axis, descending=descending)
    want = np.take_along_axis(a, order, axis=axis)
    same(got, want)
    np.testing.assert_array_equal(np.signbit(got.numpy()), np.signbit(want))


def test_sort_refuses_complex():
    with pytest.raises(Exception, match="complex"):
        kf.sort(kf.asarray([1 + 2j, 3j]))


@pytest.mark.parametrize("dtype", DTYPES + ["complex64"])
@given(data=st.data())
def test_nonzero(dtype, data):
    if dtype == "complex64":
        a = arrays(data.draw, "float32") + 1j * arrays(data.draw, "float32", min_dims=0,
                                                       max_dims=0)
        a = a.astype(np.complex64)
    else:
        a = arrays(data.draw, dtype)
    got = kf.nonzero(kf.asarray(a))
    want = np.nonzero(a)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        same(g, w.astype(np.int64))


@pytest.mark.parametrize("size", [0, 3, 40])
@given(data=st.data())
def test_nonzero_static(size, data):
    a = arrays(data.draw, "float32")
    want = np.full((size, a.ndim), -7, dtype=np.int64)
    found = np.argwhere(a)[:size]
    want[:len(found)] = found
    same(kf.ops.nonzero_static(kf.asarray(a), size=size, fill_value=-7), want)
    same(kf.ops.nonzero(kf.asarray(a)), np.argwhere(a).astype(np.int64))


def test_nonzero_refuses_0d():
    with pytest.raises(ValueError, match="0-dimensional"):
        kf.nonzero(kf.asarray(3.0))


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8"])
@pytest.mark.parametrize("side", ["left", "right"])
@given(data=st.data())
def test_searchsorted(dtype, side, data):
    seq = np.sort(arrays(data.draw, dtype, max_dims=1, max_side=12))
    values = arrays(data.draw, dtype)
    same(kf.searchsorted(kf.asarray(seq), kf.asarray(values), side=side),
         np.searchsorted(seq, values, side=side).astype(np.int64))
    perm = np.random.default_rng(0).permutation(seq.shape[0])
    shuffled = seq[perm]
    sorter = np.argsort(shuffled, kind="stable")
    same(kf.searchsorted(kf.asarray(shuffled), kf.asarray(values), side=side,
                         sorter=kf.asarray(sorter)),
         np.searchsorted(shuffled, values, side=side, sorter=sorter).astype(np.int64))


def np_unique(a):
    """numpy's unique_all, with every NaN its own value (the standard's rule)."""
    flat = a.reshape(-1)
    order = np.argsort(flat, kind="stable")
    s = flat[order]
    new = np.ones(s.shape, dtype=bool)
    new[1:] = s[1:] != s[:-1]
    starts = np.nonzero(new)[0]
    counts = np.diff(np.append(starts, s.size))
    inverse = np.empty(s.size, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return s[starts], order[starts], inverse.reshape(a.shape), counts


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_unique(dtype, data):
    a = arrays(data.draw, dtype)
    values, indices, inverse, counts = np_unique(a)
    x = kf.asarray(a)
    got = kf.unique_all(x)
    same(got.values, values)
    same(got.indices, indices.astype(np.int64))
    same(got.inverse_indices, inverse)
    same(got.counts, counts.astype(np.int64))
    same(kf.unique_values(x), values)
    same(kf.unique_counts(x).counts, counts.astype(np.int64))
    same(kf.unique_inverse(x).inverse_indices, inverse)
    if a.size and not np.isnan(a.astype(np.float64)).any():
        np.testing.assert_array_equal(values[inverse], a)


def test_unique_complex_is_lexicographic():
    a = np.array([2 + 1j, 1 + 5j, 2 + 1j, 1 - 1j, 2 + 0j], dtype=np.complex64)
    got = kf.unique_counts(kf.asarray(a))
    same(got.values, np.array([1 - 1j, 1 + 5j, 2 + 0j, 2 + 1j], dtype=np.complex64))
    same(got.counts, np.array([1, 1, 1, 2], dtype=np.int64))


@pytest.mark.parametrize("dtype", ["float64", "int64", "complex128"])
@pytest.mark.parametrize("include_initial", [False, True])
@given(data=st.data())
def test_cumulative_prod(dtype, include_initial, data):
    # Gaussian integers for complex128: their products are exact, as numpy's are
    levels = [1, 2, -1, 3, 0] + ([1j, 1 - 1j, -2j] if dtype.startswith("complex") else [])
    a = data.draw(hnp.arrays(np.dtype(dtype), data.draw(hnp.array_shapes(min_dims=1, max_dims=3,
                                                                          min_side=0, max_side=4)),
                             elements=st.sampled_from(levels)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    want = np.cumprod(a, axis=axis)
    if include_initial:
        shape = list(a.shape)
        shape[axis] = 1
        want = np.concatenate([np.ones(shape, dtype=want.dtype), want], axis=axis)
    same(kf.cumulative_prod(kf.asarray(a), axis=axis, include_initial=include_initial), want)
