"""The standard's set functions: ``unique_all``, ``unique_counts``, ``unique_inverse`` and
``unique_values``, composed from a stable ``argsort``.

The flattened input is put in order (a complex input by its imaginary parts, then stably by
its real parts: lexicographic order), each element that differs from the one before starts a
group (``!=``, so every NaN is its own group and -0 joins +0), and the groups give the values,
the first index of each (the stable order keeps the smallest first), the counts (the distance
between group starts) and the inverse (each element's group, put back in input order by the
inverse permutation).
"""

from collections import namedtuple

_ops = None  # kernforge.ops, set by bind()
FUNCTIONS = {}  # name -> function, for the kernforge namespace

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def bind(ops):
    global _ops
    _ops = ops


def _api(f):
    FUNCTIONS[f.__name__] = f
    return f


def _int64():
    from . import int64
    return int64


def _order(flat):
    if flat.dtype.kind != "c":
        return _ops.argsort(flat)
    by_imag = _ops.argsort(_ops.imag(flat))
    by_real = _ops.argsort(_ops.index_select(_ops.real(flat), 0, by_imag))
    return _ops.index_select(by_imag, 0, by_real)


def _groups(x):
    """(sorted flat values, the sorting permutation, the bool group starts, their positions)."""
    flat = x.reshape([-1])
    perm = _order(flat)
    s = _ops.index_select(flat, 0, perm)
    if flat.shape[0] == 0:
        new = _ops.zeros([0], dtype=_bool(), device=x.device)
    else:
        first = _ops.full([1], True, device=x.device)
        new = _ops.cat([first, s[1:] != s[:-1]], 0)
    starts = _ops.nonzero(new)[:, 0].contiguous()
    return s, perm, new, starts


def _bool():
    from . import bool as bool_dtype
    return bool_dtype


def _counts(starts, n, device):
    ends = _ops.cat([starts[1:], _ops.full([1], n, dtype=_int64(), device=device)], 0)
    return ends - starts


def _inverse(x, perm, new):
    group = _ops.cumsum(new, 0) - 1  # the group of each sorted position
    return _ops.index_select(group, 0, _ops.argsort(perm)).reshape(list(x.shape))


@_api
def unique_values(x, /):
    s, _, _, starts = _groups(x)
    return _ops.index_select(s, 0, starts)


@_api
def unique_counts(x, /):
    s, _, _, starts = _groups(x)
    return UniqueCountsResult(_ops.index_select(s, 0, starts),
                              _counts(starts, x.numel(), x.device))


@_api
def unique_inverse(x, /):
    s, perm, new, starts = _groups(x)
    return UniqueInverseResult(_ops.index_select(s, 0, starts), _inverse(x, perm, new))


@_api
def unique_all(x, /):
    s, perm, new, starts = _groups(x)
    return UniqueAllResult(_ops.index_select(s, 0, starts), _ops.index_select(perm, 0, starts),
                           _inverse(x, perm, new), _counts(starts, x.numel(), x.device))
