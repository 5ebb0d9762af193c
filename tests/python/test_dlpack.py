"""DLPack both ways: zero copy with numpy (and torch where installed), versioned and legacy
capsules, read-only producers, copy= and dl_device=, lifetimes, and the errors."""

import ctypes
import gc

import numpy as np
import pytest

import kernforge as kf

_capsule_is = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is.restype = ctypes.c_int
_capsule_is.argtypes = [ctypes.py_object, ctypes.c_char_p]


def capsule_named(capsule, name):
    return _capsule_is(capsule, name.encode()) == 1


NUMPY_DTYPES = [np.float32, np.float64, np.float16, np.int8, np.uint8, np.int16, np.int32,
                np.int64, np.bool_]


@pytest.mark.parametrize("dt", NUMPY_DTYPES)
def test_numpy_to_kernforge_shares_memory(dt):
    a = (np.arange(12) % 3).astype(dt).reshape(3, 4)
    t = kf.from_dlpack(a)
    assert t.data_ptr() == a.ctypes.data
    assert t.shape == (3, 4) and t.dtype.name == np.dtype(dt).name
    assert t.tolist() == a.tolist()
    a[0, 0] = 1
    assert t[0, 0].item() == a[0, 0]  # a write through numpy is seen: the same memory


@pytest.mark.parametrize("dt", NUMPY_DTYPES)
def test_kernforge_to_numpy_shares_memory(dt):
    t = kf.arange(12).to(dtype=np.dtype(dt).name).reshape(3, 4)
    a = np.from_dlpack(t)
    assert a.ctypes.data == t.data_ptr() and a.dtype == np.dtype(dt)
    assert a.tolist() == t.tolist()
    t.fill_(0)
    assert not a.any()  # a write through kernforge is seen: the same memory


def test_strided_views_keep_their_strides():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    view = a.T[1:, ::2]  # strides (1, 12) elements
    t = kf.from_dlpack(view)
    assert t.stride() == (1, 12) and t.tolist() == view.tolist()
    back = np.from_dlpack(kf.arange(24, dtype=kf.float32).reshape(4, 6).transpose(0, 1)[1:])
    assert back.tolist() == a.T[1:].tolist() and back.strides == (4, 24)


def test_negative_strides_import_without_a_copy():
    a = np.arange(24, dtype=np.float64).reshape(4, 6)
    view = a[::-1, ::-2]  # NumPy exports negative strides: (-6, -2) elements
    t = kf.from_dlpack(view)
    assert t.stride() == (-6, -2) and t.tolist() == view.tolist()
    assert t.data_ptr() == view.ctypes.data
    a[3, 5] = -1.0  # the same memory
    assert float(t[0, 0]) == -1.0
    assert t[::-1].tolist() == view[::-1].tolist() and (t * 2).tolist() == (view * 2).tolist()


def test_zero_dim_and_empty():
    assert kf.from_dlpack(np.array(2.5)).shape == ()
    assert kf.from_dlpack(np.array(2.5)).item() == 2.5
    assert kf.from_dlpack(np.zeros((0, 3), np.int64)).shape == (0, 3)
    assert np.from_dlpack(kf.zeros((2, 0))).shape == (2, 0)
    assert np.from_dlpack(kf.tensor(7)).item() == 7


def test_kernforge_round_trip_shares_memory():
    t = kf.rand(5, 5)
    u = kf.from_dlpack(t)
    assert u.data_ptr() == t.data_ptr() and u.tolist() == t.tolist()
    b = kf.ones(3, dtype=kf.bfloat16)  # numpy has no bfloat16; kernforge does
    assert kf.from_dlpack(b).dtype is kf.bfloat16


def test_versioned_and_legacy_capsules():
    t = kf.arange(4)
    v = t.__dlpack__(max_version=(1, 0))
    assert capsule_named(v, "dltensor_versioned")
    legacy = t.__dlpack__()
    assert capsule_named(legacy, "dltensor")
    assert capsule_named(t.__dlpack__(max_version=(0, 8)), "dltensor")
    for cap, used in ((v, "used_dltensor_versioned"), (legacy, "used_dltensor")):
        assert kf.from_dlpack(cap).tolist() == [0, 1, 2, 3]
        assert capsule_named(cap, used)
        with pytest.raises(ValueError, match="consumed"):
            kf.from_dlpack(cap)


def test_unconsumed_capsules_free_their_tensor():
    t = kf.ones(1000)
    before = kf.memory_stats("cpu")
    for _ in range(100):
        t.__dlpack__(max_version=(1, 1))
        t.__dlpack__()
    del t
    gc.collect()
    after = kf.memory_stats("cpu")
    # Every export held a reference; once the capsules and t are gone the block is free again.
    assert after["allocated_bytes"] < before["allocated_bytes"]


def test_the_producer_stays_alive_while_kernforge_uses_its_memory():
    a = np.arange(1000, dtype=np.float64)
    t = kf.from_dlpack(a)
    del a
    gc.collect()
    assert t.sum().item() == sum(range(1000))


def test_dlpack_device():
    assert kf.ones(2).__dlpack_device__() == (1, 0)
    assert np.from_dlpack(kf.ones(2), device="cpu").tolist() == [1.0, 1.0]


def test_copy_and_dl_device():
    t = kf.arange(3)
    same = kf.from_dlpack(t, copy=False)
    assert same.data_ptr() == t.data_ptr()
    copied = kf.from_dlpack(t, copy=True)
    assert copied.data_ptr() != t.data_ptr() and copied.tolist() == [0, 1, 2]
    cap = t.__dlpack__(max_version=(1, 1), dl_device=(1, 0), copy=False)
    assert kf.from_dlpack(cap).data_ptr() == t.data_ptr()
    cap = t.__dlpack__(max_version=(1, 1), copy=True)
    assert kf.from_dlpack(cap).data_ptr() != t.data_ptr()
    with pytest.raises(BufferError, match="copy=False"):
        t.__dlpack__(max_version=(1, 1), dl_device=(2, 0), copy=False)
    with pytest.raises((RuntimeError, ValueError, LookupError)):
        t.__dlpack__(max_version=(1, 1), dl_device=(2, 0))  # no CUDA backend here


def test_read_only_producers_are_copied_or_refused():
    a = np.arange(4, dtype=np.int32)
    a.setflags(write=False)
    t = kf.from_dlpack(a)
    assert t.tolist() == [0, 1, 2, 3] and t.data_ptr() != a.ctypes.data
    t[0] = 9  # kernforge's own copy: numpy's read-only memory is untouched
    assert a[0] == 0
    with pytest.raises(BufferError, match="read-only"):
        kf.from_dlpack(a, copy=False)


def test_refusals_are_exceptions():
    with pytest.raises(TypeError, match="__dlpack__"):
        kf.from_dlpack([1, 2, 3])
    with pytest.raises((TypeError, ValueError, BufferError)):
        kf.from_dlpack(np.zeros(3, np.float128))  # no kernforge dtype of 16-byte floats


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64", "complex64", "complex128"])
def test_the_wide_dtypes_both_ways(name):
    a = np.array([0, 1, 2**15 + 3], dtype=name) if "int" in name else \
        np.array([1 + 2j, -0.5j, 3], dtype=name)
    if name == "uint64":
        a[2] = 2**64 - 1  # beyond int64: exact both ways
    t = kf.from_dlpack(a)
    assert t.dtype == getattr(kf, name) and t.data_ptr() == a.ctypes.data
    assert t.tolist() == a.tolist()
    back = np.from_dlpack(t)
    assert back.dtype == a.dtype and back.tolist() == a.tolist()


def test_torch_both_ways():
    torch = pytest.importorskip("torch")
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    t = kf.from_dlpack(x)
    assert t.data_ptr() == x.data_ptr() and t.tolist() == x.tolist()
    y = torch.from_dlpack(t)
    assert y.data_ptr() == t.data_ptr() and y.tolist() == t.tolist()
