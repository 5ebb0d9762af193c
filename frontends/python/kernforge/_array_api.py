"""The array API (2023.12) functions that are more than one op respelled.

The ``kernforge`` namespace follows the array API where the array API and PyTorch disagree
(``axis``/``keepdims``, ``concat``, ``permute_dims``, ``astype``, ``var``'s correction 0), and
Tensor methods keep PyTorch's names (``dim``/``keepdim``). An op whose standard spelling only
renames it or its arguments has it in ops.yaml (its ``array_api:`` field), generated into
``_array_api_ops.py``; what is here composes ops or fills in what the schema cannot say. Every
op of the registry is also in the namespace under its own name unless one of these takes that
name, and always in ``kernforge.ops``.
"""

import math

from . import _array_api_ops, _dtype_functions

e, pi, inf, nan, newaxis = math.e, math.pi, math.inf, math.nan, None

_ops = None  # kernforge.ops, set by bind()
_API = {}  # name -> function, for the kernforge namespace


def api(f):
    _API[f.__name__] = f
    return f


def bind(ops):
    global _ops
    _ops = ops
    _array_api_ops.bind(ops)


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

@api
def positive(x, /):
    return x.clone()


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
    t = _ops.reshape(x, shape)
    return t.clone() if copy else t


@api
def take(x, indices, /, *, axis=None):
    if axis is None:
        return _ops.index_select(x.reshape(-1), 0, indices)
    return _ops.index_select(x, axis, indices)


# -------------------------------------------------------------------- reductions

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
    out = dict(_array_api_ops.FUNCTIONS)
    out.update(_API)
    out.update(_dtype_functions.FUNCTIONS)
    return out
