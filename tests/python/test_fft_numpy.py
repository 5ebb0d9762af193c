"""kf.fft against numpy: every function of the array API's fft extension, with n= / s=
(trimming and zero-padding), axis= / axes= and every norm=, on complex64 and complex128 (float32
and float64 for the real transforms), batched. The lengths cover each of the cpu plan kinds:
small factors (KISS FFT), large primes (Bluestein) and long lengths (the four-step split), and
the round trips ifft(fft(x)) == x and irfft(rfft(x)) == x hold.
"""

import numpy as np
import pytest

import kernforge as kf

# The ops of the registry these tests compare with numpy (test_ops_numpy_rest.py's coverage check).
COMPARED = {"fft_c2c", "fft_r2c", "fft_c2r"}

NORMS = ["backward", "ortho", "forward"]
COMPLEX = ["complex64", "complex128"]
REAL = ["float32", "float64"]
# small factors, 7 and 11 (KISS FFT's generic butterfly), primes (Bluestein), 2 * prime, and
# four-step lengths (2^15, and 3^2 * 5 * 7^2 * 11 * 13 with a generic factor on each side)
LENGTHS = [1, 2, 3, 5, 8, 12, 49, 77, 97, 101, 202, 1009, 4096, 32768, 315315]


def tol(dtype, n=1):
    scale = max(1.0, np.log2(max(n, 2)) / 8)
    if dtype in ("complex64", "float32"):
        return dict(rtol=2e-4 * scale, atol=2e-4 * scale)
    return dict(rtol=1e-10 * scale, atol=1e-10 * scale)


def random(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def close(got, expected, dtype, n=1):
    """got (a kf array) against expected: shape and dtype exactly, values to a tolerance
    relative to the largest magnitude (an FFT's error spreads over every output)."""
    expected = np.asarray(expected)
    assert tuple(got.shape) == expected.shape
    assert got.dtype.name == str(expected.dtype)
    values = got.numpy()
    bound = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
    t = tol(dtype, n)
    np.testing.assert_allclose(values / bound, expected / bound, rtol=t["rtol"], atol=t["atol"])


def reference(name, a, **kw):
    """numpy's result in the dtype the standard asks for (numpy keeps float32 as well)."""
    out = getattr(np.fft, name)(a, **kw)
    if name in ("irfft", "irfftn", "hfft"):
        return out.astype({"complex64": "float32"}.get(str(a.dtype), "float64"))
    if name in ("rfft", "rfftn", "ihfft"):
        return out.astype({"float32": "complex64"}.get(str(a.dtype), "complex128"))
    return out.astype(a.dtype)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", COMPLEX)
def test_fft_and_ifft_of_every_plan_kind(n, dtype):
    a = random((2, n), dtype, seed=n)
    x = kf.asarray(a)
    close(kf.fft.fft(x), reference("fft", a), dtype, n)
    close(kf.fft.ifft(x), reference("ifft", a), dtype, n)
    close(kf.fft.ifft(kf.fft.fft(x)), a, dtype, n)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", REAL)
def test_rfft_and_irfft_of_every_plan_kind(n, dtype):
    a = random((3, n), dtype, seed=n)
    x = kf.asarray(a)
    spectrum = kf.fft.rfft(x)
    close(spectrum, reference("rfft", a), dtype, n)
    close(kf.fft.irfft(spectrum, n=n), a, dtype, n)
    b = random((3, n // 2 + 1), "complex64" if dtype == "float32" else "complex128", seed=1)
    close(kf.fft.irfft(kf.asarray(b), n=n), reference("irfft", b, n=n), dtype, n)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["fft", "ifft"])
@pytest.mark.parametrize("n", [None, 5, 16, 23])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_c2c_n_axis_and_norm(norm, name, n, axis):
    a = random((6, 10, 3), "complex128", seed=3)
    got = getattr(kf.fft, name)(kf.asarray(a), n=n, axis=axis, norm=norm)
    close(got, reference(name, a, n=n, axis=axis, norm=norm), "complex128")


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["rfft", "ihfft"])
@pytest.mark.parametrize("n", [None, 1, 7, 16, 25])
@pytest.mark.parametrize("axis", [0, -1])
def test_real_to_complex_n_axis_and_norm(norm, name, n, axis):
    a = random((9, 12), "float64", seed=4)
    got = getattr(kf.fft, name)(kf.asarray(a), n=n, axis=axis, norm=norm)
    close(got, reference(name, a, n=n, axis=axis, norm=norm), "complex128")


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["irfft", "hfft"])
@pytest.mark.parametrize("n", [None, 1, 2, 7, 16, 25])
@pytest.mark.parametrize("axis", [0, -1])
def test_complex_to_real_n_axis_and_norm(norm, name, n, axis):
    a = random((9, 12), "complex128", seed=5)
    got = getattr(kf.fft, name)(kf.asarray(a), n=n, axis=axis, norm=norm)
    close(got, reference(name, a, n=n, axis=axis, norm=norm), "complex128")


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["fftn", "ifftn"])
@pytest.mark.parametrize("s, axes", [(None, None), (None, (0, 2)), ((4, 6), (1, 2)),
                                     ((3, 8, 5), (2, 0, 1)), ((5,), (-1,)), (None, (1,))])
@pytest.mark.parametrize("dtype", COMPLEX)
def test_fftn_and_ifftn(norm, name, s, axes, dtype):
    a = random((4, 5, 6), dtype, seed=6)
    got = getattr(kf.fft, name)(kf.asarray(a), s=s, axes=axes, norm=norm)
    close(got, reference(name, a, s=s, axes=axes, norm=norm), dtype)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("s, axes", [(None, None), (None, (0, 2)), ((4, 6), (1, 2)),
                                     ((3, 8, 5), (2, 0, 1)), ((7,), (-1,)), (None, (0,))])
@pytest.mark.parametrize("dtype", REAL)
def test_rfftn_and_irfftn(norm, s, axes, dtype):
    a = random((4, 5, 6), dtype, seed=7)
    x = kf.asarray(a)
    close(kf.fft.rfftn(x, s=s, axes=axes, norm=norm),
          reference("rfftn", a, s=s, axes=axes, norm=norm), dtype)
    spectrum = np.fft.rfftn(a, s=s, axes=axes).astype(
        "complex64" if dtype == "float32" else "complex128")
    close(kf.fft.irfftn(kf.asarray(spectrum), s=s, axes=axes, norm=norm),
          reference("irfftn", spectrum, s=s, axes=axes, norm=norm), dtype)


def test_rfft2_of_a_strided_view_and_its_round_trip():
    a = random((40, 66), "float32", seed=8)
    view = kf.asarray(a)[::2, 1::3]
    expected = np.fft.rfft2(a[::2, 1::3]).astype("complex64")
    got = kf.fft.rfftn(view, axes=(0, 1))
    close(got, expected, "float32")
    close(kf.fft.irfftn(got, s=(20, 22), axes=(0, 1)), a[::2, 1::3], "float32")


def test_a_transform_over_a_middle_axis_of_a_transposed_input():
    a = random((7, 9, 33), "complex64", seed=9)
    x = kf.permute_dims(kf.asarray(a), (2, 0, 1))
    close(kf.fft.fft(x, axis=1), np.fft.fft(np.transpose(a, (2, 0, 1)), axis=1).astype("complex64"),
          "complex64")


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "ihfft"])
def test_empty_batches(name):
    dtype = "complex64" if name in ("fft", "ifft") else "float32"
    a = random((0, 8), dtype)
    got = getattr(kf.fft, name)(kf.asarray(a))
    close(got, reference(name, a), dtype)


def test_real_input_to_fft_and_complex_dtype_kept():
    a = random((16,), "float64")
    close(kf.fft.fft(kf.asarray(a)), np.fft.fft(a), "complex128")
    assert kf.fft.fft(kf.asarray(random((4,), "float32"))).dtype.name == "complex64"


def test_non_finite_values_propagate():
    a = np.zeros(16, dtype="complex128")
    a[3] = np.nan
    got = kf.fft.fft(kf.asarray(a)).numpy()
    assert np.all(np.isnan(got))


@pytest.mark.parametrize("n", [1, 2, 7, 8, 101])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_fftfreq_and_rfftfreq(n, d):
    got = kf.fft.fftfreq(n, d=d)
    assert got.dtype == kf.float32
    np.testing.assert_allclose(got.numpy(), np.fft.fftfreq(n, d=d), rtol=1e-6)
    got = kf.fft.rfftfreq(n, d=d)
    np.testing.assert_allclose(got.numpy(), np.fft.rfftfreq(n, d=d), rtol=1e-6)


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_fftfreq_and_rfftfreq_take_a_real_floating_dtype(name):
    """dtype= (which the standard's 2024.12 revision adds): float32 or float64, the values
    computed in float64 either way; another dtype is a TypeError."""
    f, want = getattr(kf.fft, name), getattr(np.fft, name)(7, d=0.3)
    got = f(7, d=0.3, dtype=kf.float64, device=kf.asarray(1.0).device)
    assert got.dtype == kf.float64
    np.testing.assert_array_equal(got.numpy(), want)
    assert f(7, d=0.3, dtype=kf.float32).dtype == kf.float32
    for bad in (kf.int64, kf.complex64):
        with pytest.raises(TypeError, match="real floating"):
            f(7, dtype=bad)


@pytest.mark.parametrize("axes", [None, 0, (1,), (0, 1), (-1, 0)])
@pytest.mark.parametrize("shape", [(5, 6), (4, 7)])
def test_fftshift_and_ifftshift(axes, shape):
    a = np.arange(np.prod(shape), dtype="float64").reshape(shape)
    x = kf.asarray(a)
    np.testing.assert_array_equal(kf.fft.fftshift(x, axes=axes).numpy(),
                                  np.fft.fftshift(a, axes=axes))
    np.testing.assert_array_equal(kf.fft.ifftshift(x, axes=axes).numpy(),
                                  np.fft.ifftshift(a, axes=axes))


@pytest.mark.parametrize("call, error", [
    (lambda x: kf.fft.fft(x, n=0), ValueError),
    (lambda x: kf.fft.fft(x, axis=2), IndexError),
    (lambda x: kf.fft.fft(x, norm="both"), ValueError),
    (lambda x: kf.fft.fftn(x, s=(4, 4), axes=(0,)), ValueError),
    (lambda x: kf.fft.fftn(x, s=(2, 4, 4)), ValueError),
    (lambda x: kf.fft.rfft(x), TypeError),
    (lambda x: kf.fft.irfft(x[:, :1]), ValueError),
])
def test_bad_arguments_say_what_is_wrong(call, error):
    x = kf.asarray(random((3, 4), "complex64"))
    with pytest.raises(error):
        call(x)


def test_the_kernels_refuse_what_they_do_not_transform():
    x = kf.asarray(random((4,), "float32"))
    with pytest.raises(Exception, match="complex64 or complex128"):
        kf.ops.fft_c2c(x, [0], True, 1.0)
    with pytest.raises(Exception, match="last_dim_size"):
        kf.ops.fft_c2r(kf.asarray(random((4,), "complex64")), [0], 4, 1.0)
    with pytest.raises(Exception, match="dim"):
        kf.ops.fft_c2c(kf.asarray(random((4,), "complex64")), [], True, 1.0)


def test_an_empty_batch_of_very_long_lines_plans_nothing():
    """A zero-size batch with a huge transformed dim returns at once (no plan of that length)."""
    x = kf.zeros((0, 1 << 40), dtype=kf.float32)
    assert kf.ops.fft_r2c(x, [1], 1.0).shape == (0, (1 << 39) + 1)
    spectrum = kf.zeros((0, (1 << 39) + 1), dtype=kf.complex64)
    assert kf.ops.fft_c2r(spectrum, [1], 1 << 40, 1.0).shape == (0, 1 << 40)
    assert kf.ops.fft_c2c(kf.zeros((0, 1 << 40), dtype=kf.complex64), [1], True, 1.0).shape[0] == 0
