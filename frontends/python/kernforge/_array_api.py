"""The array API (2023.12) functions where its spelling differs from the registry's.

The ``kernforge`` namespace follows the array API where the array API and PyTorch disagree
(``axis``/``keepdims``, ``concat``, ``permute_dims``, ``astype``, ``var``'s correction 0), and
Tensor methods keep PyTorch's names (``dim``/``keepdim``). Every op of the registry is also in
the namespace under its own name unless a function here takes that name, and always in
``kernforge.ops``.
"""

import math

from . import _dtype_functions

e, pi, inf, nan, newaxis = math.e, math.pi, math.inf, math.nan, None

_ops = None  # kernforge.ops, set by bind()
_API = {}  # name -> function, for the kernforge namespace


def api(f):
    _API[f.__name__] = f
    return f


def bind(ops):
    global _ops
    _ops = ops


def _dims(axis):
    return None if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))


# ------------------------------------------------------------------------ creation

@api
def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    if stop is None:
        start, stop = 0, start
    return _ops.arange(start, stop, step, dtype=dtype, device=device)


@api
def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    if not endpoint:
        step = (stop - start) / num
        return _ops.linspace(start, stop - step, num, dtype=dtype, device=device)
    return _ops.linspace(start, stop, num, dtype=dtype, device=device)


@api
def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    if k != 0:
        raise NotImplementedError("eye(k != 0) is not supported yet")
    return _ops.eye(n_rows, n_cols, dtype=dtype, device=device)


# ---------------------------------------------------------------- elementwise names

def _alias(name, target):
    def f(*args, **kwargs):
        return getattr(_ops, target)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"The array API's {name}: kernforge.ops.{target}."
    return f


_ALIASES = {  # array API name -> registry name
    "subtract": "sub", "multiply": "mul", "divide": "div", "negative": "neg",
    "equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le",
    "greater": "gt", "greater_equal": "ge", "expand_dims": "unsqueeze",
    "broadcast_to": "expand", "permute_dims": "permute",
}


@api
def positive(x, /):
    return x.clone()


@api
def clip(x, /, min=None, max=None):
    return _ops.clamp(x, min, max)


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
def stack(arrays, /, *, axis=0):
    return _ops.stack(list(arrays), axis)


@api
def reshape(x, /, shape, *, copy=None):
    t = _ops.reshape(x, shape)
    return t.clone() if copy else t


@api
def squeeze(x, /, axis):
    return _ops.squeeze(x, _dims(axis))


@api
def take(x, indices, /, *, axis=None):
    if axis is None:
        return _ops.index_select(x.reshape(-1), 0, indices)
    return _ops.index_select(x, axis, indices)


# -------------------------------------------------------------------- reductions

def _reduction(name, target):
    def f(x, /, *, axis=None, dtype=None, keepdims=False):
        return getattr(_ops, target)(x, _dims(axis), keepdims, dtype=dtype)
    f.__name__ = f.__qualname__ = name
    return f


sum = api(_reduction("sum", "sum"))
prod = api(_reduction("prod", "prod"))
mean = api(_reduction("mean", "mean"))


@api
def max(x, /, *, axis=None, keepdims=False):
    return _ops.amax(x, _dims(axis) or (), keepdims)


@api
def min(x, /, *, axis=None, keepdims=False):
    return _ops.amin(x, _dims(axis) or (), keepdims)


@api
def argmax(x, /, *, axis=None, keepdims=False):
    return _ops.argmax(x, axis, keepdims)


@api
def argmin(x, /, *, axis=None, keepdims=False):
    return _ops.argmin(x, axis, keepdims)


@api
def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _ops.var(x, _dims(axis), correction=correction, keepdim=keepdims)


@api
def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _ops.std(x, _dims(axis), correction=correction, keepdim=keepdims)


@api
def all(x, /, *, axis=None, keepdims=False):
    return _ops.all(x, _dims(axis), keepdims)


@api
def any(x, /, *, axis=None, keepdims=False):
    return _ops.any(x, _dims(axis), keepdims)


@api
def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    if include_initial:
        raise NotImplementedError("cumulative_sum(include_initial=True) is not supported yet")
    if axis is None:
        if x.ndim != 1:
            raise ValueError("cumulative_sum needs axis= for a tensor of more than one dim")
        axis = 0
    return _ops.cumsum(x, axis, dtype=dtype)


def namespace_functions():
    """{name: function} for the kernforge namespace."""
    out = {name: _alias(name, target) for name, target in _ALIASES.items()}
    out.update(_API)
    out.update(_dtype_functions.FUNCTIONS)
    return out
