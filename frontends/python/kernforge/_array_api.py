"""The array API (2023.12) functions that are more than one op respelled.

The ``kernforge`` namespace follows the array API where the array API and PyTorch disagree
(``axis``/``keepdims``, ``concat``, ``permute_dims``, ``astype``, ``var``'s correction 0), and
Tensor methods keep PyTorch's names (``dim``/``keepdim``). An op whose standard spelling only
renames it or its arguments has it in ops.yaml (its ``array_api:`` field), generated into
``_array_api_ops.py``; what is here composes ops or fills in what the schema cannot say. Every
op of the registry is also in the namespace under its own name unless one of these takes that
name, and always in ``kernforge.ops``.
"""

import builtins
import math
import operator

from . import _array_api_ops, _creation, _dtype_functions, _indexing, _manipulation
from . import _searching, _sets

e, pi, inf, nan, newaxis = math.e, math.pi, math.inf, math.nan, None

_ops = None  # kernforge.ops, set by bind()
_API = {}  # name -> function, for the kernforge namespace


def api(f):
    _API[f.__name__] = f
    return f


def bind(ops):
    global _ops
    _ops = ops
    _array_api_ops.bind(ops, _creation.Tensor)
    _manipulation.bind(ops)
    _indexing.bind(ops)
    _searching.bind(ops)
    _sets.bind(ops)


# ------------------------------------------------------------------------ creation

def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


@api
def arange(start, /, stop=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """The array API's arange; requires_grad (kernforge's) marks the result as a leaf that
    requires grad."""
    return _creation._grad(_arange(start, stop, step, dtype, device), requires_grad)


def _arange(start, stop, step, dtype, device):
    """The op over int64 or float arithmetic, but an empty range (stop on the far side of start)
    is an empty tensor, and integer ranges come from Python's exact range(): its length, and
    for uint64 values beyond int64 the values as start + i * step in uint64."""
    if stop is None:
        start, stop = 0, start
    if builtins.all(_is_int(v) for v in (start, stop, step)):
        n = len(range(start, stop, step))
        if n == 0 or (dtype is not None and dtype.name == "uint64" and
                      builtins.max(start, stop, builtins.abs(step)) >= 2 ** 63):
            from . import int64
            i = _ops.arange(0, n, 1, dtype=dtype or int64, device=device)
            if n == 0:
                return i
            return start + i * step if step > 0 else start - i * -step  # no negative uint64
    elif step != 0 and (stop - start) * step <= 0:
        return _ops.empty([0], dtype=dtype or _default_float(), device=device)
    return _ops.arange(start, stop, step, dtype=dtype, device=device)


def _complex_linspace(start, stop, num, dtype, device):
    """linspace of complex bounds: the real and the imaginary parts each, as floats of the
    parts' width, made into the complex dtype."""
    from . import complex64, float32, float64
    dtype = dtype or complex64
    part = float64 if dtype.itemsize == 16 else float32
    start, stop = complex(start), complex(stop)
    re = _ops.linspace(start.real, stop.real, num, dtype=part, device=device)
    im = _ops.linspace(start.imag, stop.imag, num, dtype=part, device=device)
    return _ops.add(re.to(dtype=dtype), _ops.mul(im.to(dtype=dtype), 1j))


@api
def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True,
             requires_grad=False):
    """The array API's linspace; requires_grad (kernforge's) marks the result as a leaf that
    requires grad."""
    return _creation._grad(_linspace(start, stop, num, dtype, device, endpoint), requires_grad)


def _linspace(start, stop, num, dtype, device, endpoint):
    """The op for endpoint=True; without the endpoint, the first num of num + 1 values (the
    standard's definition, exactly); complex bounds or dtypes by parts."""
    count = num if endpoint else num + 1
    if isinstance(start, complex) or isinstance(stop, complex) or \
            (dtype is not None and dtype.kind == "c"):
        out = _complex_linspace(start, stop, count, dtype, device)
    else:
        out = _ops.linspace(start, stop, count, dtype=dtype, device=device)
    return out if endpoint else out[:num]


@api
def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, requires_grad=False):
    """The array API's eye; requires_grad (kernforge's) marks the result as a leaf that
    requires grad."""
    return _creation._grad(_eye(n_rows, n_cols, k, dtype, device), requires_grad)


def _eye(n_rows, n_cols, k, dtype, device):
    n_cols = n_rows if n_cols is None else n_cols
    k = operator.index(k)
    if k >= n_cols or -k >= n_rows:  # no diagonal inside (k may be any Python int)
        return _ops.zeros([n_rows, n_cols], dtype=dtype or _default_float(), device=device)
    if k == 0:
        return _ops.eye(n_rows, n_cols, dtype=dtype, device=device)
    from . import int64
    row = _ops.arange(0, n_rows, 1, dtype=int64, device=device).reshape([n_rows, 1])
    col = _ops.arange(0, n_cols, 1, dtype=int64, device=device).reshape([1, n_cols])
    return _ops.to_dtype(col - row == k, dtype or _default_float())


def _default_float():
    from . import float32
    return float32


# ---------------------------------------------------------------- elementwise names

@api
def positive(x, /):
    return x.clone()


def _clip_bound(bound, x):
    if isinstance(bound, _creation.Tensor):
        return bound if bound.dtype == x.dtype else bound.to(dtype=x.dtype)
    return _creation.asarray(bound, dtype=x.dtype, device=x.device)


@api
def clip(x, /, min=None, max=None):
    """The array API's clip: x's elements bounded below by min and above by max, numbers or
    arrays that broadcast with x, in x's dtype (the clamp op for number bounds, maximum and
    minimum for arrays); no bound is a copy of x; a NaN element or bound gives NaN."""
    if min is None and max is None:
        return x.clone()
    if not isinstance(min, _creation.Tensor) and not isinstance(max, _creation.Tensor):
        return _array_api_ops.clip(x, min, max)
    r = x
    if min is not None:
        r = _ops.maximum(r, _clip_bound(min, x))
    if max is not None:
        r = _ops.minimum(r, _clip_bound(max, x))
    return r


@api
def astype(x, dtype, /, *, copy=True, device=None):
    return x.to(device=device, dtype=dtype, copy=copy)


@api
def matrix_transpose(x, /):
    return x.transpose(-2, -1)


@api
def concat(arrays, /, *, axis=0):
    if axis is None:
        return _ops.cat([a.reshape(-1) for a in arrays], 0)
    return _ops.cat(list(arrays), axis)


@api
def reshape(x, /, shape, *, copy=None):
    """A view when the strides allow it, else a copy; copy=True always copies, and copy=False
    is a ValueError where only a copy could give the shape."""
    if copy is False:
        try:
            return x.view([shape] if isinstance(shape, int) else list(shape))
        except ValueError as e:
            raise ValueError(f"reshape(copy=False) needs a copy here: {e}") from None
    t = _ops.reshape(x, shape)
    return t.clone() if copy else t


@api
def squeeze(x, /, axis):
    """The op, after checking that every axis named has size 1 (the op would keep it)."""
    for a in ((axis,) if isinstance(axis, int) else tuple(axis)):
        d = _manipulation._axis("squeeze", a, x.ndim)
        if x.shape[d] != 1:
            raise ValueError(f"squeeze: axis {a} has size {x.shape[d]}; only axes of size 1 "
                             "can be removed")
    return _array_api_ops.squeeze(x, axis)


@api
def expand_dims(x, /, axis):
    """A new axis of size 1 at axis, in [-x.ndim - 1, x.ndim]; an IndexError otherwise."""
    return _array_api_ops.expand_dims(x, _manipulation._axis("expand_dims", axis, x.ndim + 1))


def _logical_reduction(name):
    """all/any: the op, whose result is bool but uint8 for uint8 (PyTorch's), as bool."""
    op = getattr(_array_api_ops, name)

    def reduce(x, /, *, axis=None, keepdims=False):
        r = op(x, axis=axis, keepdims=keepdims)
        return r if r.dtype.kind == "b" else r.to(dtype=_bool())
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = f"The array API's {name}: kernforge.ops.{name}, with a bool result."
    _API[name] = reduce


def _bool():
    from . import bool as bool_
    return bool_


_logical_reduction("all")
_logical_reduction("any")


@api
def take(x, indices, /, *, axis=None):
    if axis is None:
        return _ops.index_select(x.reshape(-1), 0, indices)
    return _ops.index_select(x, axis, indices)


@api
def take_along_axis(x, indices, /, *, axis=-1):
    if x.ndim != indices.ndim:
        raise ValueError(f"take_along_axis: x has {x.ndim} dimension(s) and indices "
                         f"{indices.ndim}; give both the same number")
    a = _manipulation._axis("take_along_axis", axis, x.ndim)
    rest = _manipulation._broadcast_shape(
        [x.shape[:a] + x.shape[a + 1:], indices.shape[:a] + indices.shape[a + 1:]])
    x = _ops.expand(x, list(rest[:a] + (x.shape[a],) + rest[a:]))
    indices = _ops.expand(indices, list(rest[:a] + (indices.shape[a],) + rest[a:]))
    indices = _ops.where(indices < 0, indices + x.shape[a], indices)
    return _ops.gather(x, a, indices)


# ----------------------------------------------------------------- linear algebra

@api
def matmul(x1, x2, /):
    """The array API's matmul: ops.matmul (numpy's shapes) after the standard's type
    promotion; the op itself, as PyTorch's, takes one dtype."""
    if x1.dtype != x2.dtype:
        dtype = _dtype_functions.result_type(x1, x2)
        x1, x2 = _ops.to_dtype(x1, dtype), _ops.to_dtype(x2, dtype)
    return _ops.matmul(x1, x2)


@api
def vecdot(x1, x2, /, *, axis=-1):
    ndim = builtins.min(x1.ndim, x2.ndim)
    if not -ndim <= axis < 0:
        raise ValueError(f"vecdot: axis {axis} must be on [{-ndim}, -1] for arrays of "
                         f"{x1.ndim} and {x2.ndim} dimensions")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: the contracted axis has {x1.shape[axis]} elements in x1 "
                         f"and {x2.shape[axis]} in x2; they must be equal (not broadcast)")
    if x1.dtype.kind == "c":
        x1 = _ops.conj(x1)
    product = x1 * x2
    return _array_api_ops.sum(product, axis=axis, dtype=product.dtype)


def _contracted_axes(x1, x2, axes):
    if isinstance(axes, int):
        if axes < 0 or axes > builtins.min(x1.ndim, x2.ndim):
            raise ValueError(f"tensordot: axes={axes} must be on [0, "
                             f"{builtins.min(x1.ndim, x2.ndim)}] for these arrays")
        return tuple(range(x1.ndim - axes, x1.ndim)), tuple(range(axes))
    a1, a2 = axes
    a1 = _manipulation._axes("tensordot", tuple(a1), x1.ndim) if len(a1) else ()
    a2 = _manipulation._axes("tensordot", tuple(a2), x2.ndim) if len(a2) else ()
    if len(a1) != len(a2):
        raise ValueError(f"tensordot: {len(a1)} axes of x1 but {len(a2)} of x2; give as "
                         "many of each")
    return a1, a2


@api
def tensordot(x1, x2, /, *, axes=2):
    a1, a2 = _contracted_axes(x1, x2, axes)
    for i, j in zip(a1, a2):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(f"tensordot: axis {i} of x1 has {x1.shape[i]} elements, axis {j} "
                             f"of x2 {x2.shape[j]}; contracted axes must be equal")
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [j for j in range(x2.ndim) if j not in a2]
    k = math.prod(x1.shape[i] for i in a1)
    m = math.prod(x1.shape[i] for i in free1)
    n = math.prod(x2.shape[j] for j in free2)
    dtype = _dtype_functions.result_type(x1, x2)
    left = _ops.permute(x1, free1 + list(a1)).contiguous().reshape([m, k])
    right = _ops.permute(x2, list(a2) + free2).contiguous().reshape([k, n])
    out = _ops.matmul(_ops.to_dtype(left, dtype), _ops.to_dtype(right, dtype))
    return out.reshape([x1.shape[i] for i in free1] + [x2.shape[j] for j in free2])


# -------------------------------------------------------------------- reductions

def _cumulative(name, op, identity, x, axis, dtype, include_initial):
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"{name} needs axis= for a tensor of more than one dim")
        axis = 0
    out = op(x, axis, dtype=dtype)
    if not include_initial:
        return out
    shape = list(out.shape)
    shape[axis] = 1
    first = _ops.full(shape, identity, dtype=out.dtype, device=out.device)
    return _ops.cat([first, out], axis)


@api
def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("cumulative_sum", _ops.cumsum, 0, x, axis, dtype, include_initial)


@api
def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("cumulative_prod", _ops.cumprod, 1, x, axis, dtype, include_initial)


def namespace_functions():
    """{name: function} for the kernforge namespace."""
    out = dict(_array_api_ops.FUNCTIONS)
    out.update(_API)
    out.update(_creation.FUNCTIONS)
    out.update(_manipulation.FUNCTIONS)
    out.update(_searching.FUNCTIONS)
    out.update(_sets.FUNCTIONS)
    out.update(_dtype_functions.FUNCTIONS)
    return out
