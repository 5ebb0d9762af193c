"""``Tensor.__getitem__`` and ``__setitem__`` with numpy's rules, composed from ops.

Basic indices (ints, slices, ``None``, ``...``) make views: ``select``, ``slice``,
``unsqueeze``; a slice with a negative step is a view of negative stride, as numpy's. Advanced indices (integer tensors, sequences or arrays, bool masks, and
ints or bools next to them) follow numpy: a bool mask of k dims is its ``nonzero`` coordinates,
the integer indices broadcast together, their dims replace the indexed ones where those are
adjacent and come first otherwise, negative indices count from the end, and an index out of
range is an IndexError. A bool mask over the last dims reads with ``masked_select`` (one pass,
no coordinates) and writes a scalar with ``where``; other reads linearise the indexed dims and
gather with ``index_select``, and writes scatter with ``index_copy_`` into the view of the
linearised dims (the last write wins where an index repeats).
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
    d, source, advanced = 0, 0, []  # source: the dim of the tensor an item takes (messages)
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
                step = idx.ndim if idx.dtype.kind == "b" else 1
                d += step
                source += step
        elif isinstance(k, slice):
            start, stop, step = _slice_args(k)
            if (start, stop, step) != (None, None, 1):
                t = t.slice(d, start, stop, step)
            d += 1
            source += 1
        else:
            i, size = _int_value(k), t.shape[d]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of range for dim {source} of size {size}")
            t = t.select(d, i)
            source += 1
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
        if not _mask_fits(idx, covered):
            raise IndexError(f"a bool index of shape {tuple(idx.shape)} does not match the "
                             f"indexed dims of shape {tuple(covered)} (at dim {d})")
        coords = _ops.nonzero(idx) if idx.ndim > 0 else idx.reshape([1])
        for j in range(idx.ndim):
            out.append((d + j, coords[:, j], True))
    return out


def _mask_fits(mask, covered):
    """Whether a bool mask fits the dims it covers: each of its sizes is theirs, or 0 (an empty
    mask selects nothing from any size, as numpy takes it)."""
    return len(mask.shape) == len(covered) and \
        builtins.all(m in (c, 0) for m, c in zip(mask.shape, covered))


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


def _trailing_mask(t, advanced):
    """The bool mask when the only advanced index is one covering t's last dims, else None."""
    if len(advanced) != 1:
        return None
    d, idx = advanced[0]
    if idx.dtype.kind != "b" or idx.ndim == 0 or d + idx.ndim != t.ndim:
        return None
    if tuple(idx.shape) != tuple(t.shape[d:]):
        if _mask_fits(idx, t.shape[d:]):
            return None  # an empty mask of other sizes: the general path selects nothing
        raise IndexError(f"a bool index of shape {tuple(idx.shape)} does not match the "
                         f"indexed dims of shape {tuple(t.shape[d:])} (at dim {d})")
    return idx


def getitem(self, key):
    items = _normalise(self, key)
    t, advanced = _basic(self, items)
    if not advanced:
        return t
    mask = _trailing_mask(t, advanced)
    if mask is not None:
        outer = list(t.shape[:advanced[0][0]])
        r, rows = _ops.masked_select(t, mask), math.prod(outer)
        n = r.shape[0] // rows if rows else int(_ops.sum(mask).item())
        return r.reshape(outer + [n])
    t, d0, k, lin, shape = _linear(t, advanced)
    merged = t.reshape(list(t.shape[:d0]) + [math.prod(t.shape[d0:d0 + k])] +
                       list(t.shape[d0 + k:]))
    out = _ops.index_select(merged, d0, lin.reshape([-1]))
    return out.reshape(list(t.shape[:d0]) + list(shape) + list(t.shape[d0 + k:]))


def _value_tensor(value, like):
    if isinstance(value, Tensor):
        return value
    return asarray(value, dtype=like.dtype, device=like.device)


def _is_scalar(value):
    return isinstance(value, (bool, int, float, complex)) and not isinstance(value, Tensor)


def setitem(self, key, value):
    items = _normalise(self, key)
    view, advanced = _basic(self, items)
    if not advanced:
        if _is_scalar(value):
            view.fill_(value)
            return
        view.copy_(_ops.expand(_value_tensor(value, view), list(view.shape)))
        return
    mask = _trailing_mask(view, advanced)
    if mask is not None and _is_scalar(value):
        view.copy_(_ops.where(mask, _value_tensor(value, view), view))
        return
    t, d0, k, lin, shape = _linear(view, advanced)
    target_shape = list(t.shape[:d0]) + list(shape) + list(t.shape[d0 + k:])
    v = _ops.expand(_value_tensor(value, t), target_shape)
    _scatter_into(t, d0, k, lin, v)


def _scatter_into(t, d0, k, lin, v):
    """t[..., lin, ...] = v over the merged indexed dims of t (a view of the destination), with
    index_copy_ into a view of t with those dims merged (or into a copy, copied back, when t's
    strides cannot merge them)."""
    outer, inner = list(t.shape[:d0]), list(t.shape[d0 + k:])
    merged_shape = outer + [math.prod(t.shape[d0:d0 + k])] + inner
    flat = lin.reshape([-1])
    values = v.to(dtype=t.dtype).reshape(outer + [flat.shape[0]] + inner).contiguous()
    try:
        merged = t.view(merged_shape)
    except ValueError:
        merged = None
    if merged is not None:
        merged.index_copy_(d0, flat, values)
        return
    merged = t.reshape(merged_shape).clone()
    merged.index_copy_(d0, flat, values)
    t.copy_(merged.reshape(list(t.shape)))
