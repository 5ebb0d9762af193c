"""Rules of the array API (2023.12) where it and PyTorch's rules differ, through the operators
and the namespace functions:

- type promotion ranks a 0-dim array like any other array (PyTorch ranks it below arrays with
  dims of its kind), and a Python number takes the dtype of the array beside it, 0-dim or not;
  Tensor methods keep PyTorch's rule;
- clip takes arrays as bounds, and no bound at all;
- the *_like factories take device=;
- finfo of a complex dtype describes its real part, as a real dtype;
- a bool mask whose sizes are 0 selects nothing from dims of any size;
- creation and manipulation at their edges: empty and uint64 ranges of arange, eye with any k,
  linspace without the endpoint and with complex bounds, squeeze and expand_dims refusing what
  they cannot do, reshape(copy=False), asarray of a sequence of arrays, and all/any of uint8,
  which are bool.

Every dtype pair is checked against the standard's promotion table (kf.result_type over dtypes),
with shapes () and (3,) on either side.
"""

import itertools

import numpy as np
import pytest

import kernforge as kf

PROMOTABLE = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "float32", "float64", "complex64", "complex128"]


def _pairs():
    for a, b in itertools.product(PROMOTABLE, repeat=2):
        try:
            kf.result_type(getattr(kf, a), getattr(kf, b))
        except (TypeError, ValueError):
            continue
        if "bool" in (a, b) and a != b:
            continue  # no arithmetic between bool and numbers in the standard
        yield a, b


def _array(dtype, shape):
    return kf.asarray(np.ones(shape, dtype=dtype))


@pytest.mark.parametrize("a, b", list(_pairs()))
@pytest.mark.parametrize("shapes", [((), (3,)), ((3,), ()), ((), ())])
def test_zero_dim_arrays_promote_like_any_array(a, b, shapes):
    x1, x2 = _array(a, shapes[0]), _array(b, shapes[1])
    want = kf.result_type(x1.dtype, x2.dtype)
    shape = np.broadcast_shapes(*shapes)
    for name, result in [("==", x1 == x2), ("equal", kf.equal(x1, x2))]:
        assert result.dtype == kf.bool and tuple(result.shape) == shape, name
    if a == "bool":
        results = [("&", x1 & x2), ("logical_and", kf.logical_and(x1, x2))]
        want = kf.bool
    else:
        results = [("+", x1 + x2), ("*", x1 * x2), ("add", kf.add(x1, x2)),
                   ("multiply", kf.multiply(x1, x2)), ("where", kf.where(x1 == x2, x1, x2))]
    for name, result in results:
        assert result.dtype == want, (name, a, b, shapes, result.dtype)
        assert tuple(result.shape) == shape, (name, result.shape)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "uint16", "uint32", "uint64", "int64",
                                   "float32", "complex64"])
def test_a_number_takes_the_dtype_of_a_zero_dim_array(dtype):
    x = _array(dtype, ())
    for result in (x + 1, 1 + x, x * 2, kf.add(x, 1), x == 1, x - 1):
        assert tuple(result.shape) == ()
    assert (x + 1).dtype == x.dtype and (1 + x).dtype == x.dtype and kf.add(x, 1).dtype == x.dtype
    assert bool(x == 1)
    y = _array(dtype, ())
    y += 1
    assert y.dtype == x.dtype and tuple(y.shape) == () and complex(y) == 2
    if dtype.startswith("float"):
        assert (x + 1.5).dtype == x.dtype and float(x + 1.5) == 2.5


def test_tensor_methods_keep_pytorchs_rule():
    x, s = _array("int8", (3,)), _array("int16", ())
    assert (x + s).dtype == kf.int16          # the standard's, through the operator
    assert x.add(s).dtype == kf.int8          # PyTorch's, through the method


def test_clip_takes_arrays_and_no_bound():
    x = kf.asarray([1.0, float("nan"), 5.0, -3.0])
    lo = kf.asarray([0.0, 0.0, float("nan"), -1.0])
    got = kf.clip(x, min=lo, max=4.0).numpy()
    np.testing.assert_array_equal(got, [1.0, np.nan, np.nan, -1.0])
    np.testing.assert_array_equal(kf.clip(x).numpy(), x.numpy())
    assert kf.clip(x) is not x
    i = kf.asarray([1, 7, -4], dtype=kf.int16)
    r = kf.clip(i, max=kf.asarray(5, dtype=kf.int16))
    assert r.dtype == kf.int16 and r.tolist() == [1, 5, -4]
    assert kf.clip(i, 0, 5).tolist() == [1, 5, 0]


@pytest.mark.parametrize("name, args", [("empty_like", ()), ("zeros_like", ()),
                                        ("ones_like", ()), ("full_like", (7,))])
def test_like_factories_take_device(name, args):
    x = kf.asarray([[1, 2]], dtype=kf.int16)
    f = getattr(kf, name)
    for kwargs in ({}, {"device": x.device}, {"device": x.device, "dtype": kf.float64}):
        r = f(x, *args, **kwargs)
        assert tuple(r.shape) == (1, 2) and r.device == x.device
        assert r.dtype == kwargs.get("dtype", kf.int16)
    if name == "full_like":
        assert f(x, 7, device="cpu").tolist() == [[7, 7]]


def test_finfo_of_complex_is_of_its_part():
    assert kf.finfo(kf.complex64).dtype == kf.float32
    assert kf.finfo(kf.complex128).dtype == kf.float64
    assert kf.finfo(kf.complex64).bits == 32 and kf.finfo(kf.float32).dtype == kf.float32


def test_empty_masks_select_nothing():
    x = kf.zeros((1,))
    assert tuple(x[kf.zeros((0,), dtype=kf.bool)].shape) == (0,)
    y = kf.zeros((2, 3))
    assert tuple(y[kf.zeros((2, 0), dtype=kf.bool)].shape) == (0,)
    with pytest.raises(IndexError):
        y[kf.zeros((2, 2), dtype=kf.bool)]


def test_arange_at_its_edges():
    for args in [(1, 0), (0, 5, -1), (-3,), (1.0, 0.0), (0.0, 1.0, -0.5)]:
        r = kf.arange(*args)
        assert tuple(r.shape) == (0,), args
    assert kf.arange(1.0, 0.0).dtype == kf.float32 and kf.arange(1, 0).dtype == kf.int64
    big = 2 ** 63
    assert kf.arange(big, big + 3, dtype=kf.uint64).tolist() == [big, big + 1, big + 2]
    assert kf.arange(0, 2 ** 64 - 1, 2 ** 62, dtype=kf.uint64).tolist() == \
        [0, 2 ** 62, 2 ** 63, 3 * 2 ** 62]
    assert kf.arange(0, 1, big, dtype=kf.uint64).tolist() == [0]
    assert kf.arange(10, 0, -3).tolist() == list(range(10, 0, -3))
    for args in [(big + 5, big, -1), (2 ** 64 - 1, 0, -2 ** 62)]:  # falling, in uint64
        assert kf.arange(*args, dtype=kf.uint64).tolist() == list(range(*args))


def test_eye_with_any_k():
    for k in (2 ** 63, -2 ** 63 - 1, 3, -2):
        assert kf.eye(2, k=k).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    np.testing.assert_array_equal(kf.eye(3, 4, k=-1).numpy(), np.eye(3, 4, k=-1))


def test_linspace_without_endpoint_and_complex():
    for num in (0, 1, 3, 7):
        for dtype in (kf.float32, kf.float64):
            got = kf.linspace(0.0, 1.0, num, endpoint=False, dtype=dtype)
            want = kf.linspace(0.0, 1.0, num + 1, dtype=dtype)[:num]
            assert got.tolist() == want.tolist()
    z = kf.linspace(0j, 1 + 2j, 3)
    assert z.dtype == kf.complex64 and z.tolist() == [0j, 0.5 + 1j, 1 + 2j]
    w = kf.linspace(0.0, 1.0, 3, dtype=kf.complex128)
    assert w.dtype == kf.complex128 and w.tolist() == [0j, 0.5 + 0j, 1 + 0j]


def test_manipulation_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="size 2"):
        kf.squeeze(kf.ones((1, 2)), axis=1)
    assert tuple(kf.squeeze(kf.ones((1, 2)), axis=0).shape) == (2,)
    with pytest.raises(IndexError):
        kf.expand_dims(kf.ones((2,)), axis=5)
    assert tuple(kf.expand_dims(kf.ones((2,)), axis=-2).shape) == (1, 2)
    with pytest.raises(ValueError, match="copy=False"):
        kf.reshape(kf.ones((2, 3)).T, (6,), copy=False)
    x = kf.ones((2, 3))
    assert tuple(kf.reshape(x, 6, copy=False).shape) == (6,)  # an int shape, as reshape takes
    v = kf.reshape(x, (6,), copy=False)
    x[0, 0] = 5
    assert float(v[0]) == 5  # a view


def test_asarray_of_a_sequence_of_arrays_stacks_them():
    parts = kf.unstack(kf.reshape(kf.arange(6), (2, 3)))
    r = kf.asarray(parts, dtype=kf.float32)
    assert r.dtype == kf.float32 and r.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert kf.asarray([kf.ones(2), kf.zeros(2)]).tolist() == [[1, 1], [0, 0]]
    with pytest.raises(ValueError):
        kf.asarray([kf.ones(2), kf.ones(3)])


def test_all_and_any_are_bool():
    u = kf.asarray([[1, 0]], dtype=kf.uint8)
    assert kf.all(u).dtype == kf.bool and kf.any(u, axis=0).dtype == kf.bool
    assert kf.any(u, axis=1).tolist() == [True] and not bool(kf.all(u))


def test_the_info_functions_are_in_the_namespace_too():
    info = kf.__array_namespace_info__()
    assert kf.capabilities() == info.capabilities()
    assert kf.default_device() == info.default_device()
    assert kf.default_dtypes() == info.default_dtypes()
    assert kf.dtypes(kind="bool") == info.dtypes(kind="bool") == {"bool": kf.bool}
    assert kf.dtypes(device=kf.default_device()) == info.dtypes()


def test_transpose_attribute_is_for_matrices_only():
    a = kf.asarray([[1, 2, 3], [4, 5, 6]])
    assert a.T.tolist() == [[1, 4], [2, 5], [3, 6]]
    assert a.T.shape == (3, 2)
    for shape in [(), (3,), (2, 3, 4)]:
        with pytest.raises(ValueError, match=r"\.T transposes a 2-D array only.*\.mT"):
            kf.ones(shape).T
    assert kf.ones((2, 3, 4)).mT.shape == (2, 4, 3)
