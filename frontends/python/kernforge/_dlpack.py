"""DLPack, both ways and without a copy (the Python array API's protocol): Tensor.__dlpack__,
Tensor.__dlpack_device__ and kf.from_dlpack, over the C ABI's kf_tensor_to_dlpack* and
kf_tensor_from_dlpack* (the capsules are made in src/dlpack.cpp).

Export: a consumer that passes max_version >= (1, 0) gets a versioned capsule, one that passes
nothing (or an older version) the legacy one. dl_device asks for another device: the tensor is
copied there unless copy=False, which raises BufferError; copy=True always copies. stream is
accepted for the protocol's sake: kernforge synchronises the tensor's device before every
export, so the consumer's stream sees finished data.

Import: kf.from_dlpack(x) calls x.__dlpack__(max_version=(1, 1)) and falls back to the legacy
call for producers that do not know the keyword; a capsule is accepted as it is. The copies
are kernforge's: copy=True clones after a zero-copy import, and a read-only producer (numpy's
read-only arrays) is imported as a copy unless copy=False (BufferError).
"""

from . import _C

_MAX_VERSION = (1, 1)


def _copy_needed(t, device):
    return device is not None and _C.device(device) != t.device


def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule over this tensor's memory (a copy only when dl_device or copy asks)."""
    target = None if dl_device is None else _C.device_of_dlpack(int(dl_device[0]), int(dl_device[1]))
    copied = bool(copy) or _copy_needed(self, target)
    if copied and copy is False:
        raise BufferError(f"the tensor is on {self.device}; exporting it to {target} needs a "
                          "copy and copy=False forbids one")
    t = self
    if copied:
        t = self._to(target if target is not None else self.device, None)
    versioned = max_version is not None and int(max_version[0]) >= 1
    return _C.to_dlpack(t, versioned, copied)


def __dlpack_device__(self):
    """(DLPack device type, device index), e.g. (1, 0) for the CPU."""
    return _C.dlpack_device(self)


def _capsule_of(x):
    if type(x).__name__ == "PyCapsule":
        return x
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack needs an object with __dlpack__ (numpy arrays, torch "
                        f"tensors, ...) or a DLPack capsule, not {type(x).__name__}")
    try:
        return x.__dlpack__(max_version=_MAX_VERSION)
    except TypeError:  # a producer from before DLPack 1.0 and the max_version keyword
        return x.__dlpack__()


def from_dlpack(x, /, *, device=None, copy=None):
    """A kernforge tensor over the memory of `x` (numpy array, torch tensor, or anything with
    __dlpack__): no copy unless copy=True, a device= other than x's, or a read-only x asks for
    one; copy=False then raises BufferError instead."""
    t = _C.from_dlpack_capsule(_capsule_of(x), copy is not False)
    if _copy_needed(t, device):
        if copy is False:
            raise BufferError(f"x is on {t.device}; moving it to {device} needs a copy and "
                              "copy=False forbids one")
        return t._to(device, None)
    return t.clone() if copy else t
