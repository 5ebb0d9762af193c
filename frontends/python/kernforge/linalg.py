"""kernforge.linalg: the array API's linear algebra extension (2023.12), plus numpy's ``eig``,
``eigvals`` and ``lstsq``.

The decompositions and solvers are ops of the schema (``linalg_*``; on the cpu backend,
LAPACK), spelled for this namespace by their ``array_api:`` fields (generated into
_array_api_ops.py). What is here composes ops: the norms, ``matrix_power``, ``matrix_rank``,
``pinv``, ``trace``, ``cross``, ``outer``, ``diagonal`` (a view), ``qr``'s ``mode`` string, and
the functions the main namespace shares (``matmul``, ``matrix_transpose``, ``tensordot``,
``vecdot``). Every function is batched over leading dims.
"""

import builtins
import math
import operator
from collections import namedtuple

from . import _C, _array_api, _array_api_ops as _api, _dtypes

_ops = None  # kernforge.ops, set by _bind()
_EPS32, _EPS64 = 2.0 ** -23, 2.0 ** -52  # the machine epsilons of float32 and float64

QRResult = namedtuple("QRResult", ["Q", "R"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
LstsqResult = namedtuple("LstsqResult", ["solution", "residuals", "rank", "singular_values"])
EighResult, SlogdetResult, SVDResult = _api.EighResult, _api.SlogdetResult, _api.SVDResult

matmul = _array_api.matmul
matrix_transpose = _array_api.matrix_transpose
tensordot = _array_api.tensordot
vecdot = _array_api.vecdot


def _bind(ops):
    """Called by kernforge's assembly: the ops, and the generated spellings as functions here."""
    global _ops
    _ops = ops
    globals().update(_api.EXTENSIONS.get("linalg", {}))


def _matrices(name, x, square=False):
    if x.ndim < 2:
        raise ValueError(f"linalg.{name}: the input must be a matrix or a stack of matrices "
                         f"(..., M, N), got shape {tuple(x.shape)}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"linalg.{name}: the matrices must be square (..., M, M), got shape "
                         f"{tuple(x.shape)}")


def qr(x, /, *, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"linalg.qr: mode must be 'reduced' or 'complete', got {mode!r}")
    return QRResult(*_ops.linalg_qr(x, mode == "complete"))


def eig(x, /):
    """numpy's eig: complex eigenvalues and unit right eigenvectors (columns), LAPACK's order."""
    return EigResult(*_ops.linalg_eig(x))


def eigvals(x, /):
    return _ops.linalg_eigvals(x)


def lstsq(x1, x2, /, *, rcond=None):
    """The least-squares solution of x1 @ X ~ x2 (numpy's lstsq, batched; residuals are given
    whenever M > N)."""
    return LstsqResult(*_ops.linalg_lstsq(x1, x2, rcond))


def diagonal(x, /, *, offset=0):
    return _ops.diagonal(x, operator.index(offset), -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    return _api.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def outer(x1, x2, /):
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"linalg.outer: both arguments must be 1-D, got shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}")
    return _api.multiply(x1.reshape([-1, 1]), x2.reshape([1, -1]))


def cross(x1, x2, /, *, axis=-1):
    axis = operator.index(axis)
    if axis >= 0:
        raise ValueError(f"linalg.cross: axis must be negative (counted from the last "
                         f"dimension, as the standard asks), got {axis}")
    for x in (x1, x2):
        if x.ndim < -axis or x.shape[axis] != 3:
            raise ValueError(f"linalg.cross: both arguments need size 3 along axis {axis}, got "
                             f"shapes {tuple(x1.shape)} and {tuple(x2.shape)}")
    a = [_ops.select(x1, axis, i) for i in range(3)]
    b = [_ops.select(x2, axis, i) for i in range(3)]
    parts = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return _api.stack(parts, axis=axis)


def _real_float(x, name):
    if x.dtype.kind not in "fc":
        raise TypeError(f"linalg.{name}: the input must have a floating-point dtype, got "
                        f"{x.dtype}; convert it first (astype)")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    _real_float(x, "vector_norm")
    a = _api.abs(x)
    if ord == math.inf:
        return _api.max(a, axis=axis, keepdims=keepdims)
    if ord == -math.inf:
        return _api.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _api.sum(_ops.to_dtype(a != 0, a.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return _api.sum(a, axis=axis, keepdims=keepdims)
    if ord == 2:
        return _api.sqrt(_api.sum(a * a, axis=axis, keepdims=keepdims))
    return _p_norm(a, float(ord), axis, keepdims)


def _p_norm(a, p, axis, keepdims):
    """(sum a^p)^(1/p) of a >= 0, scaled by m, the largest a for p > 0 (the smallest for
    p < 0), so that neither a^p nor the sum overflows: m (sum (a/m)^p)^(1/p). m = 0 or inf is
    the norm itself (p > 0: all zero, or an inf; p < 0: a zero, or all inf)."""
    if _real_scalar(p, a).item() == 0:  # a p too small for a's dtype (float32): in float64
        wide = _p_norm(_ops.to_dtype(a, _dtypes._dtype_named("float64")), p, axis, keepdims)
        return _ops.to_dtype(wide, a.dtype)
    pick = _api.max if p > 0 else _api.min
    m = pick(a, axis=axis, keepdims=True)
    total = _api.sum(_api.pow(a / m, _real_scalar(p, a)), axis=axis, keepdims=keepdims)
    m = m if keepdims else pick(a, axis=axis, keepdims=False)
    norm = m * _api.pow(total, _real_scalar(1.0 / p, a))
    return _api.where((m == 0) | _api.isinf(m), m, norm)


def _real_scalar(value, like):
    """A Python float as a 0-dim array of like's (real) dtype, rounded as a float64 array
    converts: a value beyond the dtype's range is inf, not an error (a tiny ord's 1 / ord, an
    rtol beyond float32's range)."""
    t = _ops.full([], float(value), dtype=_dtypes._dtype_named("float64"), device=like.device)
    return _ops.to_dtype(t, like.dtype)


def _keep_matrix_dims(r, keepdims):
    return r.reshape(list(r.shape) + [1, 1]) if keepdims else r


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    _matrices("matrix_norm", x)
    _real_float(x, "matrix_norm")
    if ord == "fro":
        a = _api.abs(x)
        return _api.sqrt(_api.sum(a * a, axis=(-2, -1), keepdims=keepdims))
    if ord == "nuc":
        return _keep_matrix_dims(_api.sum(svdvals(x), axis=-1), keepdims)  # noqa: F821
    if ord in (1, -1, 2, -2, math.inf, -math.inf):
        none = _extremum_of_none(x, ord, keepdims)
        if none is not None:
            return none
    if ord in (2, -2):
        s = svdvals(x)  # noqa: F821
        pick = _api.max if ord == 2 else _api.min
        return _keep_matrix_dims(pick(s, axis=-1), keepdims)
    if ord in (1, -1, math.inf, -math.inf):
        over = -2 if ord in (1, -1) else -1  # column sums for 1, row sums for inf
        sums = _api.sum(_api.abs(x), axis=over, keepdims=True)
        pick = _api.max if ord > 0 else _api.min
        return pick(sums, axis=(-2, -1), keepdims=keepdims)
    raise ValueError(f"linalg.matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, "
                     f"got {ord!r}")


def _extremum_of_none(x, ord, keepdims):
    """ord 2, 1 and inf (and their negatives) are the largest (smallest) of the singular values,
    the column sums or the row sums. A matrix may have none of them: then the largest is 0, the
    norm of a map from or to a space of no dimension (numpy 2 says so too), and the smallest
    has no value. Returns None where the matrices have some."""
    rows, cols = x.shape[-2], x.shape[-1]
    count, what = {2: (builtins.min(rows, cols), "singular values"), 1: (cols, "column sums"),
                   math.inf: (rows, "row sums")}[abs(ord)]
    if count:
        return None
    if ord < 0:
        raise ValueError(f"linalg.matrix_norm: ord={ord!r} of matrices of shape ({rows}, {cols}) "
                         f"is the smallest of their {what}, and they have none; ord={-ord!r}, "
                         f"'fro' or 'nuc' (all 0 here) has a value")
    shape = list(x.shape[:-2]) + ([1, 1] if keepdims else [])
    return _ops.zeros(shape, dtype=_api.abs(x).dtype, device=x.device)  # x is empty: no work


def _identity_like(x):
    n = x.shape[-1]
    eye = _ops.eye(n, n, dtype=x.dtype, device=x.device)
    return _api.broadcast_to(eye, tuple(x.shape))


def matrix_power(x, n, /):
    _matrices("matrix_power", x, square=True)
    n = operator.index(n)
    if n == 0:
        return _ops.clone(_identity_like(x))
    if n < 0:
        x, n = inv(x), -n  # noqa: F821
    result, base = None, x
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return _ops.clone(result) if result is x else result


def _tolerance(s, x, rtol):
    """The cutoff of singular values s (descending, last axis): rtol times the largest, rtol
    max(M, N) * eps of the real dtype by default."""
    if rtol is None:
        eps = _EPS32 if s.dtype.itemsize == 4 else _EPS64
        rtol = builtins.max(x.shape[-2], x.shape[-1]) * eps
    largest = _api.max(s, axis=-1, keepdims=True) if s.shape[-1] else s
    if hasattr(rtol, "ndim"):
        rtol = rtol.reshape(list(rtol.shape) + [1])
    else:
        rtol = _real_scalar(rtol, s)
    return largest * rtol


def matrix_rank(x, /, *, rtol=None):
    _matrices("matrix_rank", x)
    s = svdvals(x)  # noqa: F821
    if s.shape[-1] == 0:
        return _ops.zeros(list(s.shape[:-1]), dtype=_int64(), device=x.device)
    return _api.sum(_ops.to_dtype(s > _tolerance(s, x, rtol), _int64()), axis=-1)


def _int64():
    return _C.promote_types("int64", "int64")


def pinv(x, /, *, rtol=None):
    _matrices("pinv", x)
    u, s, vh = svd(x, full_matrices=False)  # noqa: F821
    if s.shape[-1] == 0:
        return _ops.zeros(list(x.shape[:-2]) + [x.shape[-1], x.shape[-2]], dtype=x.dtype,
                          device=x.device)
    keep = s > _tolerance(s, x, rtol)
    ones, zeros = _ops.ones_like(s), _ops.zeros_like(s)
    s_inv = _api.where(keep, ones / _api.where(keep, s, ones), zeros)
    v = matrix_transpose(_api.conj(vh))
    uh = matrix_transpose(_api.conj(u))
    return matmul(v * s_inv.reshape(list(s_inv.shape[:-1]) + [1, s_inv.shape[-1]]), uh)
