"""The extension's fast paths against the Python paths they stand in for: Tensor.__getitem__ and
__setitem__ with basic keys (basic_index.cpp) against _indexing.getitem and _indexing.setitem,
Tensor.reshape of ints against the op's generic method, asarray of Python numbers and nested
lists (sequences.cpp, _C.from_sequence) against _creation._from_python, and the small factories
(factories.cpp) against the ops' generic methods. Keys, values and data are drawn by Hypothesis; each pair must give the
same tensor (shape, dtype, values, and for reads whether it is a view of the same memory) or
raise the same exception with the same message.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import kernforge as kf
from kernforge import _C, _creation, _indexing

settings.register_profile("kernforge-fast-paths", max_examples=150, deadline=None)
settings.load_profile("kernforge-fast-paths")


def outcome(f):
    try:
        return "ok", f()
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return "raised", (type(e), str(e))


def same_tensor(a, b):
    assert a.dtype == b.dtype and tuple(a.shape) == tuple(b.shape)
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def same_outcome(fast, slow):
    kind, value = fast
    assert kind == slow[0], (fast, slow)
    if kind == "raised":
        assert value == slow[1]
    elif value is not None:
        same_tensor(value, slow[1])


bound = st.none() | st.integers(-8, 8) | st.sampled_from([2**63 - 1, -2**63, 2**70])
item = st.one_of(
    st.integers(-6, 6), st.none(), st.just(Ellipsis),
    st.builds(slice, bound, bound, st.none() | st.integers(-4, 4) | st.just(2**65)),
    st.sampled_from([True, np.int64(1), 2**64]))  # the Python path's keys


@given(shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5),
       key=st.lists(item, max_size=5).map(tuple) | item)
def test_basic_keys_read_as_the_python_path_does(shape, key):
    x = kf.asarray(np.arange(math.prod(shape), dtype=np.float32).reshape(shape))
    fast, slow = outcome(lambda: x[key]), outcome(lambda: _indexing.getitem(x, key))
    same_outcome(fast, slow)
    items = key if isinstance(key, tuple) else (key,)
    basic = all(type(k) in (int, slice, type(None), type(Ellipsis)) for k in items)
    if basic and fast[0] == "ok" and fast[1].numel():
        assert fast[1].data_ptr() == slow[1].data_ptr(), "a view of the same element"
        assert fast[1].stride() == slow[1].stride()


@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
       key=st.lists(item, max_size=4).map(tuple) | item,
       value=st.sampled_from([0, -2.5, True, 7, 1e40, 2**70, "tensor", [1.0]]))
def test_basic_keys_write_as_the_python_path_does(shape, key, value):
    base = np.arange(math.prod(shape), dtype=np.int32).reshape(shape)
    if value == "tensor":
        value = kf.asarray(np.array(5, dtype=np.int32))
    x, y = kf.asarray(base), kf.asarray(base)

    def fast():
        x[key] = value

    def slow():
        _indexing.setitem(y, key, value)
    same_outcome(outcome(fast), outcome(slow))
    same_tensor(x, y)


shapes = st.one_of(st.integers(-2, 13), st.lists(st.integers(-2, 6), max_size=4),
                   st.lists(st.integers(-2, 6), max_size=4).map(tuple),
                   st.sampled_from([(2**64,), [np.int64(3), 4], "12", 2.0, (True, 12)]))


@given(shape=shapes)
def test_reshape_as_the_generic_method_does(shape):
    x = kf.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))[:, ::-1]
    generic = kf.ops.reshape
    same_outcome(outcome(lambda: x.reshape(shape)), outcome(lambda: generic(x, shape)))
    same_outcome(outcome(lambda: x.reshape(shape=shape)), outcome(lambda: generic(x, shape=shape)))


leaf = st.one_of(st.booleans(), st.integers(-2**63, 2**63 - 1), st.integers(2**63, 2**64),
                 st.floats(allow_nan=False), st.sampled_from([1e39, -1e39, math.inf, 1j]))


def nested(shape):
    if not shape:
        return leaf
    return st.lists(nested(shape[1:]), min_size=shape[0], max_size=shape[0])


@given(data=st.data(),
       dtype=st.sampled_from([None, kf.float32, kf.float64, kf.int64, kf.bool, kf.float16]))
def test_sequences_convert_as_the_python_path_does(data, dtype):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    obj = data.draw(nested(shape) | st.recursive(leaf, lambda c: st.lists(c, max_size=3)))
    slow = outcome(lambda: _creation._from_python(obj, dtype, None))
    fast = outcome(lambda: _C.from_sequence(obj, dtype, None))
    if fast[0] == "ok" and fast[1] is None:
        return  # the fast path declined: asarray takes the Python path
    same_outcome(fast, slow)
    if fast[0] == "ok":
        np.testing.assert_array_equal(kf.asarray(obj, dtype=dtype).numpy(), slow[1].numpy())


factory_shapes = st.one_of(st.integers(-2, 5), st.lists(st.integers(-2, 4), max_size=3),
                           st.lists(st.integers(0, 4), max_size=3).map(tuple),
                           st.sampled_from([[np.int64(2), 3], "3", 2.0, (True, 2), [1] * 17]))
factory_dtypes = st.sampled_from([None, kf.float64, kf.int8, kf.bool, "int32", "nonsense"])
factory_devices = st.sampled_from([None, "cpu", kf.device("cpu"), "nowhere"])


@given(name=st.sampled_from(["empty", "zeros", "ones", "full"]), shape=factory_shapes,
       dtype=factory_dtypes, device=factory_devices,
       value=st.sampled_from([0, -2.5, True, 300, 2**70, 1j, "x", np.float32(2)]))
def test_factories_make_what_the_generic_methods_make(name, shape, dtype, device, value):
    generic = getattr(_creation._array_api_ops, name)
    fast = getattr(kf, name)
    extra = (value,) if name == "full" else ()
    f = outcome(lambda: fast(shape, *extra, dtype=dtype, device=device))
    s = outcome(lambda: generic(shape, *extra, dtype=dtype, device=device))
    if name == "empty" and f[0] == "ok":
        assert f[1].dtype == s[1].dtype and f[1].shape == s[1].shape
        return
    same_outcome(f, s)


def test_the_fast_paths_are_taken():
    # Declining is always correct, so check that the common cases do not decline.
    assert _C.from_sequence([[1.0, 2], [True, 4.5]], None, None).dtype == kf.float32
    assert _C.from_sequence((1, 2, 3), kf.float64, None).dtype == kf.float64
    assert _C.from_sequence(7, None, None).shape == ()
    for declined in ([], [1j], [np.float32(1)], [[1], [2, 3]], [2**64], [1, 2]):
        dtype = kf.float32 if declined == [1, 2] else None
        assert _C.from_sequence(declined, dtype, None) is None
    x = kf.zeros((3, 4))
    row = x[1]
    row[2] = 5  # writes x: a view
    assert float(x[1, 2]) == 5.0
    assert x[::-1].stride() == (-4, 1)
    assert kf.zeros is _creation.zeros is _C.zeros and kf.full is _creation.full is _C.full
    assert kf.zeros((2, 3)).shape == (2, 3) and kf.full([2], 1.5).dtype == kf.float32
    assert kf.empty((2,), dtype=kf.int8, device="cpu").dtype == kf.int8
    # What the C++ path declines, the op's generic method takes, with the same arguments.
    assert kf.ones([np.int64(2)]).shape == (2,) and kf.full([np.int64(2)], 1).tolist() == [1, 1]
    assert kf.full((2,), kf.asarray(3)).tolist() == [3, 3]
    with pytest.raises(TypeError):
        kf.zeros((2,), kf.float32)  # dtype is keyword-only
    with pytest.raises(TypeError):
        kf.zeros((2,), order="C")
    with pytest.raises(TypeError):
        kf.zeros()
