"""Safetensors files: ``save_file`` and ``load_file`` with the names and arguments of the
``safetensors`` package's numpy and torch modules, over the C ABI's kf_safetensors_* functions.

A file is 8 bytes of header length, a JSON header naming each tensor's dtype, shape and byte
range, then the bytes (docs/serialization.md); files written here load with
``safetensors.numpy.load_file`` and the other way round. A malformed file raises ValueError
saying what is wrong, with the tensor's name and the numbers."""

import os

from . import _C


def save_file(tensors, filename, metadata=None):
    """Writes ``tensors`` (a dict of name to Tensor, any layout and device) to ``filename``,
    with ``metadata`` (a dict of str to str) in the header; the header lists the tensors in the
    dict's order."""
    if not isinstance(tensors, dict):
        raise TypeError(f"save_file: tensors must be a dict of name to Tensor, not "
                        f"{type(tensors).__name__}")
    for name in tensors:
        if not isinstance(name, str):
            raise TypeError(f"save_file: tensor names must be str, got {name!r}")
    metadata = {} if metadata is None else metadata
    for k, v in metadata.items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise TypeError(f"save_file: metadata must map str to str, got {k!r}: {v!r}; "
                            f"turn other values into text (json.dumps) first")
    _C.safetensors_save(os.fspath(filename), list(tensors), list(tensors.values()),
                        list(metadata), list(metadata.values()))


def load_file(filename, device="cpu"):
    """The tensors of a safetensors file as a dict of name to Tensor on ``device``, in the
    header's order."""
    return dict(_C.safetensors_load(os.fspath(filename), device)[0])


def load_file_with_metadata(filename, device="cpu"):
    """``(tensors, metadata)``: load_file's dict and the header's metadata (a dict of str)."""
    tensors, metadata = _C.safetensors_load(os.fspath(filename), device)
    return dict(tensors), dict(metadata)
