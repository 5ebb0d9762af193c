"""kernforge.fft: the array API's Fourier transform extension (2023.12).

The transforms are three ops of the schema, as PyTorch's: ``fft_c2c`` (complex to complex),
``fft_r2c`` (real to its non-negative frequencies) and ``fft_c2r`` (back), each over a list of
dims and times a scale (on the cpu backend, KISS FFT with Bluestein's algorithm for lengths with
large prime factors). What is here spells the standard's functions with them: ``n=`` and ``s=``
trim or zero-pad the input, ``norm=`` is the scale, and the frequency and shift helpers compose
``arange`` and ``roll``.
"""

import math
import operator

from . import _dtypes, _manipulation

_ops = None  # kernforge.ops, set by _bind()
_NORMS = ("backward", "ortho", "forward")
_REAL_OF = {"complex64": "float32", "complex128": "float64"}


def _bind(ops):
    """Called by kernforge's assembly: the ops."""
    global _ops
    _ops = ops


def _dtype(name):
    return _dtypes._dtype_named(name)


def _as_complex(x):
    """x in the complex dtype of its precision (float32 -> complex64; integers -> complex128)."""
    name = x.dtype.name
    if name in _REAL_OF:
        return x
    small = name in ("float32", "float16", "bfloat16")
    return _ops.to_dtype(x, _dtype("complex64" if small else "complex128"))


def _as_real(fn, x):
    """x in float32 or float64 (half floats -> float32, integers -> float64)."""
    name = x.dtype.name
    if name in _REAL_OF:
        raise TypeError(f"fft.{fn}: the input must be real, got {name}; use fft.fft or "
                        "fft.fftn for complex input")
    if name in ("float32", "float64"):
        return x
    return _ops.to_dtype(x, _dtype("float32" if name in ("float16", "bfloat16") else "float64"))


def _scale(fn, norm, n, inverse):
    """The factor of a transform over n points: 'backward' scales the inverse by 1/n,
    'forward' the forward one, 'ortho' both by 1/sqrt(n)."""
    if norm not in _NORMS:
        raise ValueError(f"fft.{fn}: norm must be one of {', '.join(map(repr, _NORMS))}, "
                         f"got {norm!r}")
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    return 1.0 / n if (norm == "forward") != inverse else 1.0


def _axis(fn, axis, ndim):
    return _manipulation._axis(f"fft.{fn}", axis, ndim)


def _points(fn, n):
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"fft.{fn}: the number of points must be at least 1, got {n}")
    return n


def _resized(x, axis, n):
    """x trimmed or zero-padded to n entries along axis."""
    m = x.shape[axis]
    if n == m:
        return x
    if n < m:
        return _ops.slice(x, axis, 0, n)
    shape = list(x.shape)
    shape[axis] = n - m
    return _ops.cat([x, _ops.zeros(shape, dtype=x.dtype, device=x.device)], axis)


def _one_axis(fn, x, n, axis, default_n=None):
    if x.ndim == 0:
        raise ValueError(f"fft.{fn}: the input must have at least one dimension")
    a = _axis(fn, axis, x.ndim)
    if n is None:
        n = x.shape[a] if default_n is None else default_n(x.shape[a])
    return a, _points(fn, n)


def _axes_and_sizes(fn, x, s, axes):
    """The transformed axes (wrapped) and their sizes, numpy's way: no axes means every axis,
    or the last len(s) when s is given; -1 in s keeps that axis's size."""
    if axes is None and s is not None and len(s) > x.ndim:
        raise ValueError(f"fft.{fn}: s has {len(s)} entries but x has only {x.ndim} axes; give "
                         "at most one size per axis")
    if axes is None:
        axes = range(x.ndim) if s is None else range(x.ndim - len(s), x.ndim)
    elif isinstance(axes, int):
        axes = (axes,)
    axes = [_axis(fn, a, x.ndim) for a in axes]
    if s is None:
        return axes, [x.shape[a] for a in axes]
    s = [operator.index(v) for v in s]
    if len(s) != len(axes):
        raise ValueError(f"fft.{fn}: s has {len(s)} entries for {len(axes)} axes; give one "
                         "size per axis")
    return axes, [x.shape[a] if v == -1 else _points(fn, v) for v, a in zip(s, axes)]


def _c2c(fn, x, sizes, axes, norm, forward):
    x = _as_complex(x)
    if not axes:
        return _ops.clone(x)
    if len(set(axes)) != len(axes):  # a repeated axis: one transform per entry, last first
        for n, a in reversed(list(zip(sizes, axes))):
            x = _c2c(fn, x, [n], [a], norm, forward)
        return x
    for n, a in zip(sizes, axes):
        x = _resized(x, a, n)
    return _ops.fft_c2c(x, axes, forward, _scale(fn, norm, math.prod(sizes), not forward))


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    a, n = _one_axis("fft", x, n, axis)
    return _c2c("fft", x, [n], [a], norm, True)


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    a, n = _one_axis("ifft", x, n, axis)
    return _c2c("ifft", x, [n], [a], norm, False)


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, sizes = _axes_and_sizes("fftn", x, s, axes)
    return _c2c("fftn", x, sizes, axes, norm, True)


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, sizes = _axes_and_sizes("ifftn", x, s, axes)
    return _c2c("ifftn", x, sizes, axes, norm, False)


def _r2c(fn, x, sizes, axes, scale):
    x = _as_real(fn, x)
    if len(set(axes)) != len(axes):
        raise ValueError(f"fft.{fn}: the axes {axes} repeat one; name each axis once")
    for n, a in zip(sizes, axes):
        x = _resized(x, a, n)
    return _ops.fft_r2c(x, axes, scale)


def _c2r(fn, x, sizes, axes, scale):
    x = _as_complex(x)
    if len(set(axes)) != len(axes):
        raise ValueError(f"fft.{fn}: the axes {axes} repeat one; name each axis once")
    for n, a in zip(sizes[:-1], axes[:-1]):
        x = _resized(x, a, n)
    x = _resized(x, axes[-1], sizes[-1] // 2 + 1)
    return _ops.fft_c2r(x, axes, sizes[-1], scale)


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    a, n = _one_axis("rfft", x, n, axis)
    return _r2c("rfft", x, [n], [a], _scale("rfft", norm, n, False))


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    a, n = _one_axis("irfft", x, n, axis, lambda m: 2 * (m - 1))
    return _c2r("irfft", x, [n], [a], _scale("irfft", norm, n, True))


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, sizes = _axes_and_sizes("rfftn", x, s, axes)
    if not axes:
        raise ValueError("fft.rfftn: axes names no axis; give at least one")
    return _r2c("rfftn", x, sizes, axes, _scale("rfftn", norm, math.prod(sizes), False))


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    if s is None:
        axes, sizes = _axes_and_sizes("irfftn", x, None, axes)
        if axes:
            sizes[-1] = _points("irfftn", 2 * (sizes[-1] - 1))
    else:
        axes, sizes = _axes_and_sizes("irfftn", x, s, axes)
    if not axes:
        raise ValueError("fft.irfftn: axes names no axis; give at least one")
    return _c2r("irfftn", x, sizes, axes, _scale("irfftn", norm, math.prod(sizes), True))


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The real spectrum of a signal with Hermitian symmetry, given its first half (numpy's
    hfft: irfft of the conjugate, scaled as a forward transform)."""
    a, n = _one_axis("hfft", x, n, axis, lambda m: 2 * (m - 1))
    return _c2r("hfft", _ops.conj(_as_complex(x)), [n], [a], _scale("hfft", norm, n, False))


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    """hfft's inverse: the first half of the Hermitian spectrum of real x (the conjugate of
    rfft, scaled as an inverse transform)."""
    a, n = _one_axis("ihfft", x, n, axis)
    return _ops.conj(_r2c("ihfft", x, [n], [a], _scale("ihfft", norm, n, True)))


def _frequencies(fn, indices, n, d, dtype):
    """indices / (d n) (computed in float64, as numpy) in dtype: a real floating dtype, the
    default (float32) when None."""
    if dtype is None:
        dtype = _dtype("float32")
    elif dtype.name not in ("float32", "float64"):
        raise TypeError(f"fft.{fn}: dtype must be a real floating dtype (float32 or float64), "
                        f"got {dtype}")
    k = _ops.to_dtype(indices, _dtype("float64"))
    return _ops.to_dtype(k * (1.0 / (n * d)), dtype)


def fftfreq(n, /, *, d=1.0, device=None, dtype=None):
    """The frequencies of an n-point transform's bins, [0, 1, ..., -(n // 2), ..., -1] / (d n),
    in the default real floating dtype (or dtype, as the standard's 2024.12 revision adds)."""
    n = _points("fftfreq", n)
    int64 = _dtype("int64")
    positive = _ops.arange(0, (n - 1) // 2 + 1, dtype=int64, device=device)
    negative = _ops.arange(-(n // 2), 0, dtype=int64, device=device)
    return _frequencies("fftfreq", _ops.cat([positive, negative], 0), n, d, dtype)


def rfftfreq(n, /, *, d=1.0, device=None, dtype=None):
    """The frequencies of an n-point real transform's n // 2 + 1 bins, [0, ..., n // 2] / (d n),
    in the default real floating dtype (or dtype, as fftfreq)."""
    n = _points("rfftfreq", n)
    indices = _ops.arange(0, n // 2 + 1, dtype=_dtype("int64"), device=device)
    return _frequencies("rfftfreq", indices, n, d, dtype)


def _shifted(fn, x, axes, sign):
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, int):
        axes = (axes,)
    axes = tuple(_axis(fn, a, x.ndim) for a in axes)
    if not axes:
        return _ops.clone(x)
    shifts = tuple(sign * (x.shape[a] // 2) for a in axes)
    return _manipulation.roll(x, shifts, axis=axes)


def fftshift(x, /, *, axes=None):
    """x rolled so that the zero frequency is in the middle of each axis in axes (all axes
    when None)."""
    return _shifted("fftshift", x, axes, 1)


def ifftshift(x, /, *, axes=None):
    """fftshift's inverse (they differ for odd lengths)."""
    return _shifted("ifftshift", x, axes, -1)
