"""The array API's manipulation functions (and tril/triu, meshgrid) composed from ops.

Each is one op (flip) or a short composition of ops that every backend has (index_select, cat,
slice, expand, reshape, permute, where), so it runs on every device, natively where those ops
do. The axis
rules are the standard's: an axis on [-N, N), tuples of distinct axes, and an exception naming
the function otherwise. Results are new arrays except where the standard allows views
(broadcast_arrays, unstack).
"""

import builtins
import operator

_ops = None  # kernforge.ops, set by bind()
FUNCTIONS = {}  # name -> function, for the kernforge namespace


def bind(ops):
    global _ops
    _ops = ops


def _api(f):
    FUNCTIONS[f.__name__] = f
    return f


def _axis(name, axis, ndim):
    """axis on [-ndim, ndim), as a non-negative int; IndexError naming `name` otherwise."""
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise IndexError(f"{name}: axis {axis} is out of range for an array of {ndim} "
                         f"dimension(s); give one on [{-ndim}, {ndim})")
    return axis % ndim


def _axes(name, axes, ndim):
    """A tuple of distinct non-negative axes from an int or a sequence of them."""
    if isinstance(axes, (tuple, list)):
        out = tuple(_axis(name, a, ndim) for a in axes)
    else:
        out = (_axis(name, axes, ndim),)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: the axes {tuple(axes)} repeat an axis; give each once")
    return out


def _indices(start, stop, step, device):
    import kernforge  # the dtype objects; the package is loaded by the time this runs
    return _ops.arange(start, stop, step, dtype=kernforge.int64, device=device)


@_api
def flip(x, /, *, axis=None):
    axes = range(x.ndim) if axis is None else _axes("flip", axis, x.ndim)
    return _ops.flip(x, list(axes))


def _rolled(x, axis, shift):
    n = x.shape[axis]
    shift = shift % n if n else 0
    if shift == 0:
        return x
    head = _ops.slice(x, axis, n - shift, n)
    return _ops.cat([head, _ops.slice(x, axis, 0, n - shift)], axis)


@_api
def roll(x, /, shift, *, axis=None):
    shifts = tuple(shift) if isinstance(shift, (tuple, list)) else (shift,)
    shifts = tuple(operator.index(s) for s in shifts)
    if axis is None:
        return _rolled(x.reshape(-1), 0, builtins.sum(shifts)).reshape(x.shape)
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: {len(shifts)} shifts for {len(axes)} axes; give one shift "
                         "per axis, or a single int for all")
    out = x
    for s, a in zip(shifts, axes):
        out = _rolled(out, _axis("roll", a, x.ndim), s)
    return out.clone() if out is x else out


@_api
def moveaxis(x, source, destination, /):
    src = _axes("moveaxis", source, x.ndim)
    dst = _axes("moveaxis", destination, x.ndim)
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: {len(src)} source axes but {len(dst)} destinations; "
                         "give as many of each")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _ops.permute(x, order)


def _broadcast_shape(shapes):
    ndim = builtins.max((len(s) for s in shapes), default=0)
    out = []
    for i in range(-ndim, 0):
        sizes = {s[i] for s in shapes if len(s) >= -i} - {1}
        if len(sizes) > 1:
            raise ValueError(f"broadcast_arrays: the shapes {[tuple(s) for s in shapes]} do "
                             f"not broadcast (sizes {sorted(sizes)} at axis {i})")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


@_api
def broadcast_arrays(*arrays):
    shape = _broadcast_shape([a.shape for a in arrays])
    return [_ops.expand(a, list(shape)) for a in arrays]


@_api
def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', not {indexing!r}")
    for i, a in enumerate(arrays):
        if a.ndim != 1:
            raise ValueError(f"meshgrid: array {i} has {a.ndim} dimensions; each must have 1")
    sizes = [a.shape[0] for a in arrays]
    dims = list(range(len(arrays)))
    if indexing == "xy" and len(arrays) > 1:
        dims[0], dims[1] = 1, 0
    shape = [0] * len(arrays)
    for a, d in zip(sizes, dims):
        shape[d] = a
    out = []
    for a, d in zip(arrays, dims):
        view = [1] * len(arrays)
        view[d] = a.shape[0]
        out.append(_ops.expand(a.reshape(view), shape).clone())
    return out


@_api
def unstack(x, /, *, axis=0):
    if x.ndim == 0:
        raise ValueError("unstack: a 0-d array has no axis to split; give one of 1 or more dims")
    a = _axis("unstack", axis, x.ndim)
    return tuple(_ops.select(x, a, i) for i in range(x.shape[a]))


@_api
def tile(x, repetitions, /):
    reps = tuple(operator.index(r) for r in repetitions)
    if builtins.any(r < 0 for r in reps):
        raise ValueError(f"tile: repetitions {reps} must not be negative")
    ndim = builtins.max(x.ndim, len(reps))
    shape = (1,) * (ndim - x.ndim) + tuple(x.shape)
    reps = (1,) * (ndim - len(reps)) + reps
    interleaved = [v for s in shape for v in (1, s)]
    expanded = [v for r, s in zip(reps, shape) for v in (r, s)]
    tiled = _ops.expand(x.reshape(interleaved), expanded).contiguous()
    return tiled.reshape([r * s for r, s in zip(reps, shape)])


def _repeat_counts(repeats, n):
    if isinstance(repeats, int):
        counts = [repeats] * n
    else:
        if repeats.ndim != 1 or repeats.dtype.kind not in ("i", "u"):
            raise ValueError("repeat: repeats must be an int or a 1-D array of integers, not "
                             f"a {repeats.ndim}-D array of {repeats.dtype}")
        counts = repeats.tolist()
        if len(counts) == 1:
            counts = counts * n
    if len(counts) != n:
        raise ValueError(f"repeat: {len(counts)} repeats for an axis of {n} elements; give "
                         "one per element, or one for all")
    if builtins.any(c < 0 for c in counts):
        raise ValueError("repeat: repeats must not be negative")
    return counts


@_api
def repeat(x, repeats, /, *, axis=None):
    if axis is None:
        x, axis = x.reshape(-1), 0
    a = _axis("repeat", axis, x.ndim)
    n = x.shape[a]
    if isinstance(repeats, int) and repeats >= 0:
        shape = list(x.shape)
        grown = shape[:a + 1] + [repeats] + shape[a + 1:]
        out = _ops.expand(_ops.unsqueeze(x, a + 1), grown).contiguous()
        return out.reshape(shape[:a] + [n * repeats] + shape[a + 1:])
    counts = _repeat_counts(repeats, n)
    index = [i for i, c in enumerate(counts) for _ in range(c)]
    import kernforge
    where = kernforge.asarray(index, dtype=kernforge.int64, device=x.device)
    return _ops.index_select(x, a, where)


def _triangle(name, x, k, keep):
    if x.ndim < 2:
        raise ValueError(f"{name}: x has {x.ndim} dimension(s); it needs at least 2 (a matrix "
                         "or a stack of matrices)")
    rows, cols = x.shape[-2], x.shape[-1]
    row = _indices(0, rows, 1, x.device).reshape([rows, 1])
    col = _indices(0, cols, 1, x.device).reshape([1, cols])
    mask = keep(col - row, operator.index(k))
    return _ops.where(mask, x, _ops.zeros_like(x))


@_api
def tril(x, /, *, k=0):
    return _triangle("tril", x, k, operator.le)


@_api
def triu(x, /, *, k=0):
    return _triangle("triu", x, k, operator.ge)
