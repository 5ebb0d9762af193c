"""Tensors from Python data: ``asarray`` (the array API's) and ``tensor`` (PyTorch's).

Accepted: a Tensor, anything with the buffer protocol (numpy arrays and scalars, array.array,
memoryview), a Python bool/int/float, and nested sequences of those. Python data takes
PyTorch's default dtypes: bool, int64, and float32 for floats.
"""

import struct
import sys

from . import _C, _array_api_ops
from ._dtypes import _dtype_named, _struct_format

Tensor = _C.Tensor


def _shape_and_values(data):
    """The shape of nested sequences and their values, flattened; ValueError when ragged or
    deeper than a tensor's dims may be (a list that holds itself is endlessly deep)."""
    shape, level = [], data
    while isinstance(level, (list, tuple)):
        if len(shape) == _C.MAX_NDIM:
            raise ValueError(f"the nested sequences are more than {_C.MAX_NDIM} deep (a tensor's "
                             "most dims), or a sequence holds itself")
        shape.append(len(level))
        if not level:
            break
        level = level[0]
    flat = []

    def walk(x, depth):
        if depth == len(shape):
            if isinstance(x, (list, tuple)):
                raise ValueError("the nested sequences are ragged (every row of a dim must have "
                                 "the same length)")
            flat.append(x.item() if isinstance(x, Tensor) else x)
            return
        if not isinstance(x, (list, tuple)) or len(x) != shape[depth]:
            raise ValueError(f"the nested sequences are ragged: expected {shape[depth]} "
                             f"entries at depth {depth}")
        for e in x:
            walk(e, depth + 1)

    walk(data, 0)
    return tuple(shape), flat


def _unsupported(obj):
    return TypeError(f"cannot make a tensor of {type(obj).__name__}: expected a Tensor, an array "
                     "with the buffer protocol (numpy), a bool, int, float or complex, or nested "
                     "sequences of them")


def _python_dtype(values):
    """The default dtype of Python data: bool, int64 (uint64 when an int is beyond int64 and
    none is negative, as numpy), float32, or complex64 when a value is complex."""
    kind = "bool"
    for v in values:
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            kind = "int64" if kind == "bool" else kind
        elif isinstance(v, complex):
            return "complex64"
        elif isinstance(v, float) or hasattr(v, "__float__"):  # numpy scalars and the like
            kind = "float32"
        else:
            raise _unsupported(v)
    if kind == "int64" and any(type(v) is int and v > _INT64_MAX for v in values) and \
            all(v >= 0 for v in values):
        return "uint64"
    return kind if values else "float32"


_INT64_MAX = 2**63 - 1


def _from_complex(shape, values, dtype, device):
    """Complex data: packed as complex128 (two float64s each), then converted to dtype
    (complex64 when None)."""
    parts = []
    for v in values:
        z = complex(v)
        parts += (z.real, z.imag)
    raw = struct.pack(f"{len(parts)}d", *parts)
    t = _C.from_bytes(raw, tuple(shape), _dtype_named("complex128"), device)
    want = dtype if dtype is not None else _dtype_named("complex64")
    return t if _C.promote_types(want, want).name == "complex128" else t.to(dtype=want)


def _packing(values, dtype):
    """The dtype the values are packed in, the values to pack and the dtype to convert to
    afterwards (None: none). A requested integer or bool dtype, or float64, is packed in
    directly: no value goes through a narrower dtype first (a float64 request of 0.1 is the
    float64 0.1, not float32's), and struct's range check refuses an int the dtype cannot hold
    (OverflowError), as the core's scalar rule does; a float for an integer dtype truncates
    toward zero (int(): NaN and infinities raise). float32 and the 16-bit floats are packed as
    float32 (struct refuses what float32 cannot hold) and converted."""
    have = _dtype_named(_python_dtype(values))
    # Objects with __float__ (numpy scalars, user classes) are converted here, so that what their
    # own __float__ raises reaches the caller as it is, not as struct's error.
    values = [v if isinstance(v, (bool, int, float)) else float(v) for v in values]
    if dtype is None:
        return have, values, None
    want = _C.promote_types(dtype, dtype)
    if want.kind in "iub" or want.name == "float64":
        if want.kind in "iu":
            values = [v if isinstance(v, int) else int(v) for v in values]
        return want, values, None
    return _dtype_named("float32") if have.kind == "f" else have, values, dtype


def _from_python(data, dtype, device):
    shape, values = _shape_and_values(data)
    wanted = _C.promote_types(dtype, dtype) if dtype is not None else None
    if (wanted is not None and wanted.kind == "c") or \
            (wanted is None and _python_dtype(values) == "complex64"):
        return _from_complex(shape, values, dtype, device)
    have, values, dtype = _packing(values, dtype)
    fmt = _struct_format(have)
    try:
        raw = struct.pack(f"{len(values)}{fmt}", *values)
    except struct.error as e:
        raise OverflowError(f"a value does not fit in {have.name}: {e}") from None
    flat = memoryview(raw).cast("B")
    if 0 in shape:  # memoryview cannot take a shape with zeros: 1-D, then the shape
        return _C.from_buffer(flat.cast(fmt), dtype, device).reshape(shape)
    if not shape:  # a number: one element, then 0 dims
        return _C.from_buffer(flat.cast(fmt), dtype, device).reshape(())
    return _C.from_buffer(flat.cast(fmt, shape), dtype, device)


def _holds_arrays(seq):
    """Whether a sequence holds tensors with dims, which numpy stacks (the element path reads
    numbers and 0-dim tensors only)."""
    return isinstance(seq, (list, tuple)) and \
        any(isinstance(e, Tensor) and e.ndim > 0 for e in seq)


def _stacked(seq, dtype, device):
    parts = [asarray(e, dtype=dtype, device=device) for e in seq]
    return _array_api_ops.stack(parts, axis=0)


# Python's numbers and sequences (numpy scalars are not among them: they are buffers).
_NUMBERS_AND_SEQUENCES = frozenset({bool, int, float, complex, list, tuple})


def _from_numbers(obj, dtype, device):
    """asarray of a Python number or of nested lists and tuples: read in C++ where it can be
    (src/sequences.cpp), else in Python; a sequence of arrays is stacked."""
    try:
        t = _C.from_sequence(obj, dtype, device)  # None: the Python path decides
        return t if t is not None else _from_python(obj, dtype, device)
    except ValueError:
        if not _holds_arrays(obj):
            raise
        return _stacked(obj, dtype, device)


def _grad(t, requires_grad):
    """t marked requires_grad when asked (the creation functions' requires_grad=)."""
    if requires_grad:
        t.requires_grad = True
    return t


def asarray(obj, /, *, dtype=None, device=None, copy=None, requires_grad=False):
    """A tensor from obj (array API): a Tensor (returned as it is when dtype and device match
    and copy is not True), a buffer (numpy array), a number or nested sequences. requires_grad
    (kernforge's, beyond the standard) marks the result as a leaf that requires grad."""
    if requires_grad:
        return _grad(asarray(obj, dtype=dtype, device=device, copy=copy), True)
    if type(obj) in _NUMBERS_AND_SEQUENCES and copy is not False:  # the everyday case first
        return _from_numbers(obj, dtype, device)
    if isinstance(obj, Tensor):
        t = obj.to(device=device, dtype=dtype)
        if copy and t is obj:
            t = obj.clone()
        return t
    if copy is False:
        raise ValueError("asarray(copy=False): kernforge copies host data into its own memory")
    if obj is None or isinstance(obj, (str, dict, set, frozenset)):
        raise _unsupported(obj)
    try:
        return _C.from_buffer(obj, dtype, device)
    except (BufferError, ValueError):  # not C-contiguous (numpy says ValueError)
        np = sys.modules.get("numpy")
        if np is None:
            raise
        return _C.from_buffer(np.ascontiguousarray(obj), dtype, device)
    except TypeError:
        np = sys.modules.get("numpy")
        if np is not None and hasattr(obj, "__array__"):
            return _C.from_buffer(np.ascontiguousarray(np.asarray(obj)), dtype, device)
        try:
            memoryview(obj).release()
        except TypeError:
            raise _unsupported(obj) from None
        raise  # a buffer the extension refused: its own message


def tensor(data, *, dtype=None, device=None, requires_grad=False):
    """A new tensor with a copy of data (PyTorch's kf.tensor)."""
    return _grad(asarray(data, dtype=dtype, device=device, copy=True), requires_grad)


# The small factories are C++ functions (src/factories.cpp): one C ABI call for a shape of
# Python ints (and, for full, a Python number); any other call comes to _generic_<name>, the
# op's generic method, which reads every form the op accepts and words its errors.
empty, zeros, ones, full = _C.empty, _C.zeros, _C.ones, _C.full


def _generic_empty(shape, *, dtype=None, device=None, requires_grad=False):
    return _grad(_array_api_ops.empty(shape, dtype=dtype, device=device), requires_grad)


def _generic_zeros(shape, *, dtype=None, device=None, requires_grad=False):
    return _grad(_array_api_ops.zeros(shape, dtype=dtype, device=device), requires_grad)


def _generic_ones(shape, *, dtype=None, device=None, requires_grad=False):
    return _grad(_array_api_ops.ones(shape, dtype=dtype, device=device), requires_grad)


def _generic_full(shape, fill_value, *, dtype=None, device=None, requires_grad=False):
    return _grad(_array_api_ops.full(shape, fill_value, dtype=dtype, device=device),
                 requires_grad)


# The *_like factories: the op (x's device) unless another device is asked for, which the op
# cannot say; then the plain factory with x's shape and (unless dtype) x's dtype.
def _like_dtype(x, dtype):
    return x.dtype if dtype is None else dtype


def empty_like(x, /, *, dtype=None, device=None, requires_grad=False):
    """The array API's empty_like: an uninitialised tensor of x's shape, dtype and device."""
    if device is None:
        return _grad(x.empty_like(dtype=dtype), requires_grad)
    return _grad(empty(tuple(x.shape), dtype=_like_dtype(x, dtype), device=device),
                 requires_grad)


def zeros_like(x, /, *, dtype=None, device=None, requires_grad=False):
    """The array API's zeros_like: zeros of x's shape, dtype and device."""
    if device is None:
        return _grad(x.zeros_like(dtype=dtype), requires_grad)
    return _grad(zeros(tuple(x.shape), dtype=_like_dtype(x, dtype), device=device),
                 requires_grad)


def ones_like(x, /, *, dtype=None, device=None, requires_grad=False):
    """The array API's ones_like: ones of x's shape, dtype and device."""
    if device is None:
        return _grad(x.ones_like(dtype=dtype), requires_grad)
    return _grad(ones(tuple(x.shape), dtype=_like_dtype(x, dtype), device=device),
                 requires_grad)


def full_like(x, /, fill_value, *, dtype=None, device=None, requires_grad=False):
    """The array API's full_like: fill_value in x's shape, dtype and device."""
    if device is None:
        return _grad(x.full_like(fill_value, dtype=dtype), requires_grad)
    return _grad(full(tuple(x.shape), fill_value, dtype=_like_dtype(x, dtype), device=device),
                 requires_grad)


FUNCTIONS = {f.__name__: f for f in (empty, zeros, ones, full, empty_like, zeros_like, ones_like,
                                     full_like)}  # for the kernforge namespace
