"""The dtypes of C ABI 2.0 from Python: uint16, uint32, uint64, complex64 and complex128. Values
at the edges of their ranges round-trip exactly (uint64 up to 2**64 - 1, complex parts of both
widths), Python complex numbers are weak scalars like floats, the array API's promotion table
holds (uint64 with a signed integer is an error that says to cast), and numpy agrees."""
import numpy as np
import pytest

import kernforge as kf

UNSIGNED = ["uint16", "uint32", "uint64"]
COMPLEX = ["complex64", "complex128"]


@pytest.mark.parametrize("name", UNSIGNED)
def test_unsigned_tops_round_trip_and_wrap(name):
    top = np.iinfo(name).max
    a = kf.asarray([0, 1, top - 1, top], dtype=getattr(kf, name))
    assert a.dtype == getattr(kf, name) and a.tolist() == [0, 1, top - 1, top]
    assert (a + 1).tolist() == [1, 2, top, 0]  # wraps modulo 2**bits
    assert (a - 1).tolist() == [top, 0, top - 2, top - 1]
    assert (a > 1).tolist() == [False, False, True, True]  # unsigned order
    assert int(a.amax()) == top and int(a[3]) == top and int(kf.max(a)) == top
    np.testing.assert_array_equal(a.numpy(), np.array([0, 1, top - 1, top], dtype=name))


def test_python_ints_beyond_int64():
    big = 2**64 - 1
    t = kf.asarray([1, big])
    assert t.dtype == kf.uint64 and t.tolist() == [1, big]
    assert kf.asarray(big).item() == big
    assert (kf.asarray([1, 2], dtype=kf.uint64) + 2**63).tolist() == [2**63 + 1, 2**63 + 2]
    with pytest.raises(OverflowError):
        kf.asarray([2**64])
    with pytest.raises(ValueError, match="out of range for int64"):
        kf.ones(2, dtype=kf.int64) + 2**63


def test_uint64_with_a_signed_integer_says_to_cast():
    u = kf.ones(2, dtype=kf.uint64)
    with pytest.raises(ValueError, match="no dtype holds both uint64 and int64.*cast"):
        u + kf.ones(2, dtype=kf.int64)
    assert (u + kf.ones(2, dtype=kf.uint8)).dtype == kf.uint64
    assert (kf.ones(2, dtype=kf.uint32) + kf.ones(2, dtype=kf.int32)).dtype == kf.int64
    assert (kf.ones(2, dtype=kf.uint16) + kf.ones(2, dtype=kf.int8)).dtype == kf.int32
    assert kf.result_type(kf.uint8, kf.int8) == kf.int16


@pytest.mark.parametrize("name", COMPLEX)
def test_complex_values_round_trip(name):
    values = [1 + 2j, -0.5j, 3, complex(float("inf"), -1)]
    t = kf.asarray(values, dtype=getattr(kf, name))
    assert t.dtype == getattr(kf, name) and t.tolist() == values
    np.testing.assert_array_equal(t.numpy(), np.array(values, dtype=name))
    back = kf.asarray(np.array(values, dtype=name))
    assert back.dtype == t.dtype and back.tolist() == values
    assert complex(t[0]) == 1 + 2j and t[1].item() == -0.5j


def test_python_complex_is_a_weak_scalar():
    assert kf.asarray(1 + 2j).dtype == kf.complex64  # the default complex dtype
    assert kf.asarray([1.5, 2j]).dtype == kf.complex64
    assert (kf.ones(2) + 1j).dtype == kf.complex64  # float32 + Python complex
    assert (kf.ones(2, dtype=kf.float64) * 1j).dtype == kf.complex128
    assert (kf.ones(2, dtype=kf.int32) + 1j).dtype == kf.complex64
    z = kf.asarray([1 + 1j], dtype=kf.complex128)
    assert (z + 0.1).dtype == kf.complex128 and (z + 0.1).tolist() == [1.1 + 1j]
    assert (kf.ones(2, dtype=kf.float64) + kf.ones(2, dtype=kf.complex64)).dtype == kf.complex128


def test_complex_arithmetic_matches_numpy():
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(np.complex64)
    b = (rng.standard_normal((4, 2)) + 1j * rng.standard_normal((4, 2))).astype(np.complex64)
    x, y = kf.asarray(a), kf.asarray(b)
    np.testing.assert_allclose((x * x).numpy(), a * a, rtol=1e-6)
    np.testing.assert_allclose((x / (x + 3)).numpy(), a / (a + 3), rtol=1e-5)
    np.testing.assert_allclose((x @ y).numpy(), a @ b, rtol=1e-5)
    np.testing.assert_allclose(kf.exp(x).numpy(), np.exp(a), rtol=1e-5)
    np.testing.assert_allclose(kf.sum(x, axis=1).numpy(), a.sum(axis=1), rtol=1e-5)
    assert (x == x).all() and not (x != x).any()


def test_complex_into_real_dtypes():
    with pytest.raises(ValueError, match="imaginary part"):
        kf.full((2,), 1 + 2j, dtype=kf.float32)
    assert kf.full((2,), 3 + 0j, dtype=kf.float32).tolist() == [3.0, 3.0]
    z = kf.asarray([1 + 2j])
    with pytest.raises(TypeError, match="complex"):
        float(z[0])
    assert bool(kf.asarray(0j)) is False and bool(kf.asarray(1j)) is True


def test_dtype_facts():
    assert kf.finfo(kf.complex64).bits == 32 and kf.finfo(kf.complex128).eps == np.finfo(float).eps
    assert kf.iinfo(kf.uint64).max == 2**64 - 1 and kf.iinfo(kf.uint32).min == 0
    assert kf.isdtype(kf.complex64, "complex floating") and kf.isdtype(kf.uint64, "unsigned integer")
    assert kf.uint64.itemsize == 8 and kf.complex128.itemsize == 16 and kf.complex64.kind == "c"
