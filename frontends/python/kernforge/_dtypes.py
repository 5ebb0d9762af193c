"""Dtype helpers shared by the Tensor's Python side (_tensor.py) and tensor creation
(_creation.py): a dtype object by name, and the buffer-protocol format of a dtype."""

from . import _C

_dtypes = _C._dtypes


def _dtype_named(name):
    for d in _dtypes:
        if d.name == name:
            return d
    raise TypeError(f"unknown dtype {name!r}")


def _struct_format(dtype):
    """The buffer format of a dtype, from its kind and size ('' when Python has none)."""
    kind, size = dtype.kind, dtype.itemsize
    if kind == "f":
        return {2: "e", 4: "f", 8: "d"}.get(size, "") if dtype.name != "bfloat16" else ""
    if kind == "i":
        return {1: "b", 2: "h", 4: "i", 8: "q"}.get(size, "")
    if kind == "u":
        return {1: "B", 2: "H", 4: "I", 8: "Q"}.get(size, "")
    return "?" if kind == "b" else ""
