"""The Tensor's Python side: indexing, conversions to Python and numpy, repr, ``to``.

The type itself, its accessors and its operators live in ``_C`` (the fast path); this module adds
what is easier said in Python, and ``install_ops`` adds one method per op of the registry whose
first argument is ``Tensor self``.
"""

import sys

from . import _C, _dlpack
from ._creation import asarray
from ._dtypes import _dtype_named, _struct_format

Tensor = _C.Tensor
# ------------------------------------------------------------------ indexing

def _index_tensor(idx):
    """An index that is not basic (int, slice, None, ...) as a tensor: a Tensor, a list or
    tuple of ints, or an array with the buffer protocol. Anything else (a str, a dict, a float)
    is not an index at all: IndexError, as numpy says it."""
    if isinstance(idx, Tensor):
        return idx
    if isinstance(idx, (list, tuple)) or hasattr(idx, "__array__") or \
            (not isinstance(idx, (str, bytes, bytearray)) and _is_buffer(idx)):
        return asarray(idx)
    raise IndexError("only integers, slices (':'), ellipsis ('...'), None and integer "
                     f"tensors or sequences are valid indices, not {type(idx).__name__}")


def _is_buffer(obj):
    try:
        memoryview(obj).release()
    except TypeError:
        return False
    return True


def _getitem(self, key):
    if not isinstance(key, tuple):
        key = (key,)
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_real > self.ndim:
        raise IndexError(f"too many indices for a tensor of {self.ndim} dims: {n_real} given")
    t, d = self, 0
    for k in key:
        if k is Ellipsis:
            d += self.ndim - n_real
        elif k is None:
            t = t.unsqueeze(d)
            d += 1
        elif isinstance(k, bool):
            raise IndexError("a bool index is not supported; use a bool tensor with kf.where")
        elif isinstance(k, int) or (hasattr(k, "__index__") and not isinstance(k, Tensor)):
            size = t.shape[d]
            i = k.__index__()
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of range for dim {d} of size {size}")
            t = t.select(d, i)
        elif isinstance(k, slice):
            if k.step is not None and k.step <= 0:
                raise ValueError("slices of a tensor need a positive step (PyTorch's rule); "
                                 "use kf.flip-free indexing or index_select")
            if not (k.start is None and k.stop is None and k.step is None):
                t = t.slice(d, k.start, k.stop, 1 if k.step is None else k.step)
            d += 1
        else:
            idx = _index_tensor(k)
            if idx.dtype.kind == "b":
                raise IndexError("indexing with a bool mask is not supported yet; use kf.where")
            t = t.index_select(d, idx.reshape(-1) if idx.ndim != 1 else idx)
            if idx.ndim != 1:
                t = t.reshape(t.shape[:d] + idx.shape + t.shape[d + 1:])
            d += idx.ndim
    return t


def _setitem(self, key, value):
    view = _getitem(self, key)
    if not isinstance(key, tuple):
        key = (key,)
    if any(not (k is None or k is Ellipsis or isinstance(k, (int, slice))) for k in key):
        raise IndexError("assigning through an index tensor is not supported; only basic "
                         "indexing (ints, slices, None, ...) gives a view to write into")
    if isinstance(value, (bool, int, float)):
        view.fill_(value)
    else:
        if not isinstance(value, Tensor):
                    value = asarray(value, device=self.device)
        view.copy_(value)


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-dim tensor")
    for i in range(self.shape[0]):
        yield self.select(0, i)


# ------------------------------------------------------------ conversions

def tolist(self):
    """The elements as (nested) Python lists of bool, int, float or complex; a 0-dim tensor's
    value."""
    if self.ndim == 0:
        return self.item()
    t = self
    shape = t.shape
    if 0 in shape:
        def empty(dims):
            return [] if dims[0] == 0 or len(dims) == 1 else [empty(dims[1:]) for _ in range(dims[0])]
        return empty(shape)
    if t.dtype.kind == "c":  # pairs of floats: memoryview has no complex format
        parts = memoryview(_C.to_bytes(t)).cast({8: "f", 16: "d"}[t.dtype.itemsize], shape + (2,))

        def join(x, depth):
            return complex(*x) if depth == len(shape) else [join(y, depth + 1) for y in x]
        return join(parts.tolist(), 0)
    fmt = _struct_format(t.dtype)
    if fmt in ("", "e"):  # bfloat16, float16: read through float32
        t = t._to(None, _dtype_named("float32"))
        fmt = "f"
    return memoryview(_C.to_bytes(t)).cast(fmt, shape).tolist()


def numpy(self):
    """A numpy array with a copy of the elements (on the host)."""
    import numpy as np
    if self.dtype.name == "bfloat16":
        raise TypeError(f"numpy has no {self.dtype.name}; convert first, e.g. "
                        "t.to(dtype=kf.float32).numpy()")
    out = np.empty(self.shape, dtype=np.dtype(self.dtype.name))
    _C.copy_into(self, out)
    return out


def _array(self, dtype=None, copy=None):
    a = numpy(self)
    return a if dtype is None else a.astype(dtype, copy=False)


def to(self, *args, device=None, dtype=None, copy=False):
    """A copy on another device and/or with another dtype: t.to('cpu'), t.to(kf.float64),
    t.to('cuda', kf.float16), t.to(device=..., dtype=...). Returns self when nothing changes
    (unless copy=True)."""
    for a in args:
        if isinstance(a, _C.dtype) or (isinstance(a, type) and a in (bool, int, float)):
            dtype = a
        elif isinstance(a, Tensor):
            device, dtype = a.device, a.dtype
        elif isinstance(a, str):
            try:
                _C.device(a)
                device = a
            except Exception:
                dtype = a
        else:
            device = a
    if not copy and (device is None or _C.device(device) == self.device) and \
            (dtype is None or _C.promote_types(dtype, dtype) is self.dtype):
        return self
    return self._to(device, dtype)


# ---------------------------------------------------------------- repr

def _fmt(v):
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return str(v)
        text = f"{v:.4f}".rstrip("0")
        return text if len(text) <= 12 else f"{v:.4e}"
    return str(v)


def _summary(t, edge=3):
    """Nested lists of the elements, with '...' where a dim longer than 2 * edge is cut."""
    if t.ndim == 0:
        return _fmt(t.item())
    n = t.shape[0]
    if t.numel() <= 1000:
        return _nested(t.tolist())
    rows = list(range(n)) if n <= 2 * edge else list(range(edge)) + [None] + \
        list(range(n - edge, n))
    return [("..." if i is None else _summary(t.select(0, i), edge)) for i in rows]


def _nested(v):
    return [_nested(x) for x in v] if isinstance(v, list) else _fmt(v)


def _render(v, indent):
    if not isinstance(v, list):
        return v
    if v and isinstance(v[0], list):
        sep = ",\n" + " " * (indent + 1)
        return "[" + sep.join(_render(x, indent + 1) for x in v) + "]"
    return "[" + ", ".join(v) + "]"


def _repr(self):
    body = _render(_summary(self), 7)
    extra = [f"dtype={self.dtype.name}"]
    if self.device != "cpu":
        extra.append(f"device='{self.device}'")
    if self.numel() == 0:
        extra.insert(0, f"shape={self.shape}")
    return f"tensor({body}, {', '.join(extra)})"


# ----------------------------------------------------------------- the rest

def _size(self):
    """The number of elements (the array API's ``size``; PyTorch's ``size(dim)`` is
    ``shape[dim]`` here)."""
    return self.numel()


def _array_namespace(self, api_version=None):
    if api_version not in (None, "2023.12", "2022.12", "2021.12"):
        raise ValueError(f"kernforge implements the array API 2023.12, not {api_version}")
    return sys.modules["kernforge"]


_PYTHON_METHODS = {
    "__getitem__": _getitem, "__setitem__": _setitem, "__iter__": _iter,
    "__repr__": _repr, "__str__": _repr, "__array__": _array,
    "__array_namespace__": _array_namespace,
    "__dlpack__": _dlpack.__dlpack__, "__dlpack_device__": _dlpack.__dlpack_device__,
    "tolist": tolist, "numpy": numpy, "to": to, "size": property(_size),
    "dim": lambda self: self.ndim,
    "cpu": lambda self: self.to("cpu"),
    "to_device": lambda self, device, /, *, stream=None: self.to(device),
    "T": property(lambda self: self.permute(tuple(range(self.ndim - 1, -1, -1)))),
    "mT": property(lambda self: self.transpose(-2, -1)),
    "astype": lambda self, dtype, copy=True: self.to(dtype=dtype, copy=copy),
}


def install(infos):
    """Adds the Python methods, then one method per op whose first argument is Tensor self (not
    over a method _C or this module defines)."""
    for name, f in _PYTHON_METHODS.items():
        setattr(Tensor, name, f)
    for name, info in infos.items():
        if info.is_method and "::" not in name and not hasattr(Tensor, name):
            setattr(Tensor, name, info.function)
