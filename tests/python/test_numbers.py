"""Numbers that must not come out wrong with success (issue 29, item 3).

- A tensor's value into Python: int() as Python's int(float) (exact, any size; ValueError for
  NaN, OverflowError for an infinity), float(), bool(), item(), tolist().
- A Python number into a dtype: the core's one rule (Note [Scalars to dtypes]): a value the
  dtype cannot hold is a ValueError naming it and the dtype, in full, full_like, fill_ and
  beside a tensor (NEP 50's weak scalars: int8_tensor + 300); in range, a float truncates for
  an integer dtype (full, fill_); comparisons with an out-of-range number are exact.
- Bool bytes that are not 0 or 1 (Note [Bool bytes]) from safe Python: memoryview.cast('?'),
  numpy bool arrays holding byte 2 through asarray (a copy: normalised) and from_dlpack (no
  copy: every kernel reads a bool as byte != 0).
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kernforge as kf


# ------------------------------------------------------------ tensor to Python

def test_int_of_nan_and_infinities_raises_as_python_does():
    for dtype in (kf.float32, kf.float64, kf.float16):
        with pytest.raises(ValueError):
            int(kf.tensor(math.nan, dtype=dtype))
        with pytest.raises(OverflowError):
            int(kf.tensor(math.inf, dtype=dtype))
        with pytest.raises(OverflowError):
            int(kf.tensor(-math.inf, dtype=dtype))


def test_int_of_large_floats_is_exact():
    assert int(kf.tensor(1.5e19, dtype=kf.float64)) == 15000000000000000000
    assert int(kf.tensor(-1e300, dtype=kf.float64)) == int(-1e300)
    t = kf.tensor(1.5e19)  # float32
    assert int(t) == int(float(t)) == int(np.float32(1.5e19))
    assert int(kf.tensor(-2.75)) == -2 and int(kf.tensor(2.75)) == 2


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_int_matches_python_for_every_float64(x):
    assert int(kf.tensor(x, dtype=kf.float64)) == int(x)


def test_int_float_bool_item_of_integers():
    big = 2**63 - 1
    assert int(kf.tensor(big)) == big and kf.tensor(big).item() == big
    assert int(kf.tensor(-(2**63))) == -(2**63)
    assert float(kf.tensor(2**62 + 1)) == float(2**62 + 1)
    assert bool(kf.tensor(math.nan)) is True and bool(kf.tensor(0.0)) is False
    assert int(kf.tensor(True)) == 1 and kf.tensor(True).item() is True
    assert math.isnan(kf.tensor(math.nan).item())
    assert kf.tensor([1.5e19], dtype=kf.float64).tolist() == [1.5e19]


# ------------------------------------------------------------ Python to a dtype

def test_full_refuses_values_the_dtype_cannot_hold():
    message = r"full: fill_value 300 is out of range for int8 \(-128\.\.127\)"
    with pytest.raises(ValueError, match=message):
        kf.full((2,), 300, dtype=kf.int8)
    with pytest.raises(ValueError, match="nan .*int32"):
        kf.full((2,), math.nan, dtype=kf.int32)
    with pytest.raises(ValueError, match="uint8"):
        kf.full((2,), -1, dtype=kf.uint8)
    with pytest.raises(ValueError, match="float16"):
        kf.full((2,), 1e10, dtype=kf.float16)
    with pytest.raises(ValueError, match="full_like: fill_value 300"):
        kf.full_like(kf.zeros((2,), dtype=kf.int8), 300)
    assert kf.full((2,), 2.75, dtype=kf.int8).tolist() == [2, 2]
    assert kf.full((2,), -1.5, dtype=kf.int32).tolist() == [-1, -1]


def test_fill_follows_the_same_rule():
    t = kf.zeros((2,), dtype=kf.int8)
    with pytest.raises(ValueError, match="fill_: value 300 is out of range for int8"):
        t.fill_(300)
    with pytest.raises(ValueError, match="int8"):
        t[0] = 128
    t.fill_(-3.9)
    assert t.tolist() == [-3, -3]


def test_python_scalars_beside_a_tensor_are_weak_and_checked():
    x = kf.tensor([1, -2], dtype=kf.int8)
    with pytest.raises(ValueError, match="300 is out of range for int8"):
        x + 300
    with pytest.raises(ValueError, match="int8"):
        300 * x
    with pytest.raises(ValueError, match="int8"):
        x ** 300
    with pytest.raises(ValueError, match="int8"):
        x += 300
    assert (x + 5).dtype is kf.int8 and (x + 5).tolist() == [6, 3]
    y = x + 1.5  # a Python float with an integer tensor: the default float dtype
    assert y.dtype is kf.float32 and y.tolist() == [2.5, -0.5]
    with pytest.raises(ValueError, match="float16"):
        kf.tensor([1.0], dtype=kf.float16) + 1e6


def test_comparisons_with_numbers_out_of_range_are_exact():
    x = kf.tensor([-128, 0, 127], dtype=kf.int8)
    assert (x < 300).tolist() == [True, True, True]
    assert (x == 300).tolist() == [False, False, False]
    assert (x > -1000).tolist() == [True, True, True]
    u = kf.tensor([0, 255], dtype=kf.uint8)
    assert (u > -1).tolist() == [True, True]


def test_where_and_clamp_with_scalars():
    c = kf.tensor([True, False])
    x = kf.tensor([1, 2], dtype=kf.int8)
    with pytest.raises(ValueError, match="where.*-129"):  # PyTorch's rule: the 0-dim int64
        kf.ops.where(c, x, kf.tensor(-129))               # tensor is a scalar to int8's x
    assert kf.where(c, x, kf.tensor(-129)).tolist() == [1, -129]  # the array API's: an array
    with pytest.raises(ValueError, match="clamp: min -1000"):
        x.clamp(min=-1000)
    with pytest.raises(ValueError, match="arange: the last value 299"):
        kf.arange(0, 300, dtype=kf.int8)


# ------------------------------------------------------------ bool bytes

def test_memoryview_cast_to_bool_is_normalised():
    b = kf.asarray(memoryview(b"\x02\x00\x01").cast("?"))
    assert b.dtype is kf.bool
    assert b.sum().item() == 2
    assert (b == True).tolist() == [True, False, True]  # noqa: E712
    assert _C_bytes(b) == b"\x01\x00\x01"


def test_numpy_bool_bytes_through_asarray():
    a = np.frombuffer(b"\x02\x00", dtype=bool)
    b = kf.asarray(a)
    assert b.sum().item() == 1
    assert (b == True).tolist() == [True, False]  # noqa: E712
    assert _C_bytes(b) == b"\x01\x00"


def test_numpy_bool_bytes_through_from_dlpack_without_a_copy():
    raw = np.array([2, 0, 1, 255], dtype=np.uint8)
    b = kf.from_dlpack(raw.view(bool))  # writable: borrowed, the bytes stay as they are
    assert b.sum().item() == 3
    assert (b == True).tolist() == [True, False, True, True]  # noqa: E712
    assert b.all().item() is False and b.any().item() is True
    assert b.to(kf.int32).tolist() == [1, 0, 1, 1]
    assert kf.where(b, kf.tensor(1.0), kf.tensor(0.0)).tolist() == [1.0, 0.0, 1.0, 1.0]
    assert _C_bytes(b.clone()) == b"\x01\x00\x01\x01"  # a copy is normalised
    ro = np.frombuffer(b"\x02\x00\x10", dtype=bool)  # read-only: imported as a copy
    c = kf.from_dlpack(ro)
    assert c.sum().item() == 2 and (c == True).tolist() == [True, False, True]  # noqa: E712


def _C_bytes(t):
    return kf._C.to_bytes(t)
