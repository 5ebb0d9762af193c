"""The standard's searching functions that are more than one op: ``nonzero`` (a tuple of
index arrays, one per dim, from the ``nonzero`` op's [n, ndim] coordinates) and
``searchsorted`` (``side`` and ``sorter`` over the ``searchsorted`` op). ``sort`` and
``argsort`` are the ops themselves (ops.yaml spells them the standard's way)."""

_ops = None  # kernforge.ops, set by bind()
FUNCTIONS = {}  # name -> function, for the kernforge namespace


def bind(ops):
    global _ops
    _ops = ops


def _api(f):
    FUNCTIONS[f.__name__] = f
    return f


@_api
def nonzero(x, /):
    if x.ndim == 0:
        raise ValueError("nonzero: x is 0-dimensional; the standard needs an array of at least "
                         "one dimension (reshape it to (1,) first)")
    coords = _ops.nonzero(x)
    return tuple(coords[:, d].contiguous() for d in range(x.ndim))


@_api
def searchsorted(x1, x2, /, *, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', not {side!r}")
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be one-dimensional, not of shape "
                         f"{tuple(x1.shape)}")
    if sorter is not None:
        if sorter.dtype.kind not in "iu":
            raise TypeError(f"searchsorted: sorter must have an integer dtype, not "
                            f"{sorter.dtype.name}")
        x1 = _ops.index_select(x1, 0, sorter)
    return _ops.searchsorted(x1, x2, right=side == "right")
