"""The Tensor's Python side: indexing (``_indexing``), conversions to Python and numpy, repr, ``to``.

The type itself, its accessors and its operators live in ``_C`` (the fast path); this module adds
what is easier said in Python, and ``install_ops`` adds one method per op of the registry whose
first argument is ``Tensor self``.
"""

import sys

from . import _C, _dlpack, _indexing
from ._creation import asarray
from ._dtypes import _dtype_named, _struct_format

Tensor = _C.Tensor
# ------------------------------------------------------------------ indexing
# __getitem__, __setitem__ and reshape are _C's: basic keys (ints, slices, None, ...) and
# shapes of ints in C++, everything else through _indexing and the op's generic method, which
# install() sets as Tensor._python_getitem, _python_setitem and _python_reshape.

def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-dim tensor")
    return map(self.__getitem__, range(self.shape[0]))  # each row a view, made in C++


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


# ------------------------------------------------------------------ autograd
def _requires_grad_(self, requires_grad=True):
    """Marks this leaf as requiring grad (or not); returns it."""
    self.requires_grad = requires_grad
    return self


def _backward(self, gradient=None, retain_graph=None, create_graph=False):
    """Adds the gradients of this tensor into the .grad of the leaves it was computed from
    (kernforge.autograd.backward); gradient may be None for a one-element tensor."""
    from . import autograd
    autograd.backward(self, None if gradient is None else [gradient], retain_graph,
                      create_graph)


_PYTHON_METHODS = {
    "__iter__": _iter,
    "__repr__": _repr, "__str__": _repr, "__array__": _array,
    "__array_namespace__": _array_namespace,
    "__dlpack__": _dlpack.__dlpack__, "__dlpack_device__": _dlpack.__dlpack_device__,
    "tolist": tolist, "numpy": numpy, "to": to, "size": property(_size),
    "dim": lambda self: self.ndim,
    "cpu": lambda self: self.to("cpu"),
    "to_device": lambda self, device, /, *, stream=None: self.to(device),
    "astype": lambda self, dtype, copy=True: self.to(dtype=dtype, copy=copy),
    "requires_grad_": _requires_grad_, "backward": _backward,
}


def install(infos):
    """Adds the Python methods, then one method per op whose first argument is Tensor self (not
    over a method _C or this module defines)."""
    Tensor._python_getitem = staticmethod(_indexing.getitem)  # what _C's paths decline
    Tensor._python_setitem = staticmethod(_indexing.setitem)
    Tensor._python_reshape = staticmethod(infos["reshape"].function)
    for name, f in _PYTHON_METHODS.items():
        setattr(Tensor, name, f)
    for name, info in infos.items():
        if info.is_method and "::" not in name and not hasattr(Tensor, name):
            setattr(Tensor, name, info.function)
