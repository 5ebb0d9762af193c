"""The array API's data type functions: ``isdtype``, ``result_type``, ``can_cast``, ``finfo``,
``iinfo``, and the standard's dtype kinds, which ``__array_namespace_info__().dtypes`` shares.

Everything is read from the dtype objects (kind, item size, name: the core's dtype list) and the
core's one promotion rule (``_C.promote_types``); the float formats are IEEE 754's.
"""

from . import _C

# The standard's dtype kinds, as the one-letter kinds of the core's dtype list.
KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}

# (exponent bits, mantissa bits) of the IEEE 754 formats by item size, and bfloat16's.
_FLOAT_FORMATS = {2: (5, 10), 4: (8, 23), 8: (11, 52)}
_BFLOAT16_FORMAT = (8, 7)


def kind_letters(kind):
    """The one-letter kinds of a standard kind, or of a tuple of them; ValueError otherwise."""
    kinds = (kind,) if isinstance(kind, str) else tuple(kind)
    letters = ""
    for k in kinds:
        if not isinstance(k, str) or k not in KINDS:
            raise ValueError(f"unknown dtype kind {k!r}; the kinds are {', '.join(KINDS)}")
        letters += KINDS[k]
    return letters


def _dtype(x):
    if isinstance(x, _C.Tensor):
        return x.dtype
    if isinstance(x, _C.dtype):
        return x
    return _C.promote_types(x, x)  # a name or a Python type; TypeError for anything else


def isdtype(dtype, kind):
    if isinstance(kind, _C.dtype):
        return dtype is kind
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    return dtype.kind in kind_letters(kind)


def result_type(*arrays_and_dtypes):
    out = None
    for a in arrays_and_dtypes:
        d = _dtype(a)
        out = d if out is None else _C.promote_types(out, d)
    if out is None:
        raise ValueError("result_type() needs at least one array or dtype")
    return out


def can_cast(from_, to, /):
    """Whether the promotion rules turn ``from_`` (a dtype or an array) into ``to``."""
    a, b = _dtype(from_), _dtype(to)
    try:
        return _C.promote_types(a, b) == b
    except (TypeError, ValueError):  # no dtype holds both
        return False


class finfo_object:
    """Machine limits of a floating-point dtype (of its parts, for a complex one)."""

    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "dtype")

    def __init__(self, dtype):
        part = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
        exponent, mantissa = (_BFLOAT16_FORMAT if dtype.name == "bfloat16"
                              else _FLOAT_FORMATS[part])
        bias = 2 ** (exponent - 1) - 1
        self.bits = part * 8
        self.eps = 2.0 ** -mantissa
        self.max = (2.0 - 2.0 ** -mantissa) * 2.0 ** bias
        self.min = -self.max
        self.smallest_normal = 2.0 ** (1 - bias)
        self.dtype = _dtype(f"float{part * 8}") if dtype.kind == "c" else dtype  # the part's

    def __repr__(self):
        return (f"finfo(bits={self.bits}, eps={self.eps}, max={self.max}, min={self.min}, "
                f"smallest_normal={self.smallest_normal}, dtype={self.dtype})")


class iinfo_object:
    """The range of an integer dtype."""

    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, dtype):
        self.bits = dtype.itemsize * 8
        self.min = -(2 ** (self.bits - 1)) if dtype.kind == "i" else 0
        self.max = 2 ** (self.bits - 1) - 1 if dtype.kind == "i" else 2 ** self.bits - 1
        self.dtype = dtype

    def __repr__(self):
        return f"iinfo(bits={self.bits}, max={self.max}, min={self.min}, dtype={self.dtype})"


def finfo(type, /):
    d = _dtype(type)
    if d.kind not in "fc":
        raise TypeError(f"finfo() needs a floating-point dtype, not {d.name} (iinfo() is for "
                        "integers)")
    return finfo_object(d)


def iinfo(type, /):
    d = _dtype(type)
    if d.kind not in "iu":
        raise TypeError(f"iinfo() needs an integer dtype, not {d.name} (finfo() is for floats)")
    return iinfo_object(d)


FUNCTIONS = {f.__name__: f for f in (isdtype, result_type, can_cast, finfo, iinfo)}
