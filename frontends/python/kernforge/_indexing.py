"""``Tensor.__getitem__`` and ``__setitem__`` with numpy's rules, composed from ops.

Basic indices (ints, slices, ``None``, ``...``) make views: ``select``, ``slice``,
``unsqueeze``; a slice with a negative step is a view of negative stride, as numpy's. Advanced indices (integer tensors, sequences or arrays, bool masks, and
ints or bools next to them) follow numpy: a bool mask of k dims is its ``nonzero`` coordinates,
the integer indices broadcast together, their dims replace the indexed ones where those are
adjacent and come first otherwise, negative indices count from the end, and an index out of
range is an IndexError. Reads linearise the indexed dims and gather with ``index_select``;
writes compute the new values of the indexed view with ``searchsorted`` and ``where`` (the last
write wins where an index repeats) and copy them back.
"""

import builtins
import math
import operator

from . import _C
from ._creation import asarray

Tensor = _C.Tensor
_ops = None  # kernforge.ops, set by bind()


def bind(ops):
    global _ops
    _ops = ops


def _int64():
    from . import int64
    return int64


def _as_index(k, device):
    """An advanced index as a tensor (bool or integer), or None for a basic index."""
    if k is None or k is Ellipsis or isinstance(k, slice):
        return None
    if isinstance(k, bool):
        return asarray(k, device=device)
    if isinstance(k, Tensor):  # a 0-d integer tensor is an int
        return None if k.ndim == 0 and k.dtype.kind in "iu" else k
    if hasattr(k, "__index__") and getattr(k, "ndim", 0) == 0 and \
            not isinstance(k, (list, tuple)):
        return None
    if isinstance(k, (list, tuple)) or hasattr(k, "__array__") or _is_buffer(k):
        t = asarray(k, device=device)
        if t.numel() == 0 and t.dtype.kind not in "biu":
            t = t.to(dtype=_int64())  # an empty list is an empty integer index
        return t
    raise IndexError("only integers, slices (':'), ellipsis ('...'), None, bool and integer "
                     f"tensors or sequences are valid indices, not {type(k).__name__}")


def _is_buffer(obj):
    if isinstance(obj, (str, bytes, bytearray)):
        return False
    try:
        memoryview(obj).release()
    except TypeError:
        return False
    return True


def _normalise(t, key):
    """The key as a list of items: ints, slices, None, and ('adv', tensor) for advanced
    indices, with the ellipsis expanded to full slices."""
    if not isinstance(key, tuple):
        key = (key,)
    items, advanced = [], False
    for k in key:
        idx = _as_index(k, t.device)
        if idx is not None:
            if idx.dtype.kind not in "biu":
                raise IndexError(f"an index tensor must have an integer or bool dtype, not "
                                 f"{idx.dtype.name}")
            items.append(("adv", idx))
            advanced = True
        else:
            items.append(k)
    if builtins.sum(1 for k in items if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = builtins.sum(_dims_used(k) for k in items)
    if used > t.ndim:
        raise IndexError(f"too many indices for a tensor of {t.ndim} dims: {used} given")
    out = []
    for k in items:
        if k is Ellipsis:
            out.extend([slice(None)] * (t.ndim - used))
        else:
            out.append(k)
    if advanced:  # ints beside advanced indices are advanced too (numpy's rule)
        out = [("adv", asarray(k, dtype=_int64(), device=t.device))
               if _is_int(k) else k for k in out]
    return out


def _is_int(k):
    return not isinstance(k, (tuple, slice)) and k is not None and k is not Ellipsis


def _dims_used(k):
    if k is None or k is Ellipsis:
        return 0
    if isinstance(k, tuple):
        return k[1].ndim if k[1].dtype.kind == "b" else 1
    return 1


_INT64 = (-2**63, 2**63 - 1)


def _slice_bound(v):
    """A slice bound or step as an int64: one beyond int64 is clamped (the op clamps bounds to
    the dim anyway, and a step that long takes one element either way)."""
    return None if v is None else builtins.min(builtins.max(_int_value(v), _INT64[0]), _INT64[1])


def _slice_args(s):
    """slice s as slice's start, end and step (Python's defaults and clamping are the op's)."""
    step = 1 if s.step is None else _slice_bound(s.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    return _slice_bound(s.start), _slice_bound(s.stop), step


def _basic(t, items):
    """Applies the basic items: the view and the dims of the advanced items in it (each with
    its tensor)."""
    d, advanced = 0, []
    for k in items:
        if k is None:
            t = t.unsqueeze(d)
            d += 1
        elif isinstance(k, tuple):
            idx = k[1]
            if idx.ndim == 0 and idx.dtype.kind == "b":  # True / False: a new dim of 1 / 0
                t = t.unsqueeze(d)
                advanced.append((d, _ops.nonzero(idx.reshape([1]))[:, 0]))
                d += 1
            else:
                advanced.append((d, idx))
                d += idx.ndim if idx.dtype.kind == "b" else 1
        elif isinstance(k, slice):
            start, stop, step = _slice_args(k)
            if (start, stop, step) != (None, None, 1):
                t = t.slice(d, start, stop, step)
            d += 1
        else:
            i, size = _int_value(k), t.shape[d]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of range for dim {d} of size {size}")
            t = t.select(d, i)
    return t, advanced


def _int_value(k):
    return int(k.item()) if isinstance(k, Tensor) else operator.index(k)


def _integer_indices(t, advanced):
    """[(dim, int64 index, whether it is in range already)], one per indexed dim: a bool mask of
    k dims gives k (its nonzero coordinates, in range by construction), after its shape is
    checked against the dims it covers."""
    out = []
    for d, idx in advanced:
        if idx.dtype.kind != "b":
            out.append((d, idx.to(dtype=_int64()), False))
            continue
        covered = t.shape[d:d + idx.ndim]
        if tuple(idx.shape) != tuple(covered):
            raise IndexError(f"a bool index of shape {tuple(idx.shape)} does not match the "
                             f"indexed dims of shape {tuple(covered)} (at dim {d})")
        coords = _ops.nonzero(idx) if idx.ndim > 0 else idx.reshape([1])
        for j in range(idx.ndim):
            out.append((d + j, coords[:, j], True))
    return out


def _checked(idx, size, dim):
    """idx with negative values wrapped; IndexError naming one bad value when any is out of
    range for a dim of `size`."""
    if idx.numel() == 0:
        return idx
    bad = (idx < -size) | (idx >= size)
    if bool(_ops.any(bad)):
        value = int(_ops.index_select(idx.reshape(-1), 0, _ops.nonzero(bad.reshape(-1))[0]).item())
        raise IndexError(f"index {value} is out of range for dim {dim} of size {size}")
    return _ops.where(idx < 0, idx + size, idx)


def _broadcast(shapes):
    from ._manipulation import _broadcast_shape
    try:
        return tuple(_broadcast_shape(shapes))
    except ValueError:
        raise IndexError("the index arrays cannot be broadcast together: shapes "
                         + ", ".join(str(tuple(s)) for s in shapes)) from None


def _linear(t, advanced):
    """(t with the indexed dims first when they are not adjacent, the dim where the gathered
    dims go, the number of indexed dims, the linear int64 index into them, its shape)."""
    ints = _integer_indices(t, advanced)
    dims = [d for d, _, _ in ints]
    if dims != list(range(dims[0], dims[0] + len(dims))):
        rest = [d for d in range(t.ndim) if d not in dims]
        t = t.permute(dims + rest)
        ints = [(k, idx, ok) for k, (_, idx, ok) in enumerate(ints)]
    d0, k = ints[0][0], len(ints)
    shape = _broadcast([idx.shape for _, idx, _ in ints])
    lin = None
    for d, idx, in_range in ints:
        if not in_range:
            idx = _checked(idx, t.shape[d], d)
        scale = math.prod(t.shape[d + 1:d0 + k])
        term = idx * scale if scale != 1 else idx
        lin = term if lin is None else lin + term
    lin = _ops.expand(lin, list(shape)) if tuple(lin.shape) != shape else lin
    return t, d0, k, lin, shape


def getitem(self, key):
    items = _normalise(self, key)
    t, advanced = _basic(self, items)
    if not advanced:
        return t
    t, d0, k, lin, shape = _linear(t, advanced)
    merged = t.reshape(list(t.shape[:d0]) + [math.prod(t.shape[d0:d0 + k])] +
                       list(t.shape[d0 + k:]))
    out = _ops.index_select(merged, d0, lin.reshape([-1]))
    return out.reshape(list(t.shape[:d0]) + list(shape) + list(t.shape[d0 + k:]))


def _value_tensor(value, like):
    if isinstance(value, Tensor):
        return value
    return asarray(value, dtype=like.dtype, device=like.device)


def setitem(self, key, value):
    items = _normalise(self, key)
    view, advanced = _basic(self, items)
    if not advanced:
        if isinstance(value, (bool, int, float, complex)) and not isinstance(value, Tensor):
            view.fill_(value)
            return
        view.copy_(_ops.expand(_value_tensor(value, view), list(view.shape)))
        return
    t, d0, k, lin, shape = _linear(view, advanced)
    target_shape = list(t.shape[:d0]) + list(shape) + list(t.shape[d0 + k:])
    v = _ops.expand(_value_tensor(value, t), target_shape)
    _scatter_into(t, d0, k, lin, v)


def _scatter_into(t, d0, k, lin, v):
    """t[..., lin, ...] = v over the merged indexed dims of t (a view of the destination):
    every position of the merged dim takes the value of the last index that names it."""
    outer, inner = list(t.shape[:d0]), list(t.shape[d0 + k:])
    n = math.prod(t.shape[d0:d0 + k])
    flat = lin.reshape([-1])
    m = flat.shape[0]
    merged = t.reshape(outer + [n] + inner)
    values = v.reshape(outer + [m] + inner)
    order = _ops.argsort(flat)
    keys = _ops.index_select(flat, 0, order)
    where = _ops.arange(0, n, 1, dtype=_int64(), device=t.device)
    last = _ops.searchsorted(keys, where, right=True) - 1
    hit = last >= 0
    pick = _ops.where(hit, last, _ops.zeros_like(last))
    hit = hit & (_ops.index_select(keys, 0, pick) == where) if m else hit
    src = _ops.index_select(order, 0, pick) if m else pick
    gathered = _ops.index_select(values, d0, src) if m else merged
    hit = hit.reshape([1] * len(outer) + [n] + [1] * len(inner))
    new = _ops.where(hit, gathered.to(dtype=t.dtype), merged)
    t.copy_(new.reshape(list(t.shape)))
