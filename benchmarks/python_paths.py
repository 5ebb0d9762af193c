"""Python's everyday paths: views, basic indexing, scalar reads, item assignment, iteration,
small factories and lists, on a 4x4 float32 array, the same statement in kernforge, numpy and
torch. bench_python.py times them (`time_paths`), python_budgets.py holds each against its
budget over numpy and against torch.
"""
from __future__ import annotations

import collections

# (row, budget over numpy): the statement is the row's name, run on `a`, a 4x4 float32 array
# (`lst`: a list of 1M floats).
PATHS = [
    ("a.T", 2.5), ("a[1]", 2.5), ("a[1:3, ::2]", 2.5), ("a[..., 0]", 2.5), ("a[None]", 2.5),
    ("a[::-1]", 2.5), ("a.reshape(16)", 2.5), ("float(a[0, 0])", 2.5), ("bool(a[0, 0])", 2.5),
    ("a[0, 0].item()", 2.5), ("a[1] = 0", 3.0), ("a[0, 0] = 1.5", 4.0),
    ("for r in a: pass", 2.0), ("zeros((4, 4))", 2.0), ("asarray([1.0, 2.0, 3.0])", 2.0),
    ("asarray(lst)", 1.0),
]


def _set(a, key, value):
    a[key] = value


def statements(lib: str, a, lst, module) -> dict:
    """Each row of PATHS as a callable of library `lib` ('kernforge', 'numpy' or 'torch') on its
    4x4 float32 array `a`; `module` is the library's namespace."""
    asarray = module.as_tensor if lib == "torch" else module.asarray
    return {
        "a.T": lambda: a.T, "a[1]": lambda: a[1], "a[1:3, ::2]": lambda: a[1:3, ::2],
        "a[..., 0]": lambda: a[..., 0], "a[None]": lambda: a[None],
        # torch has no negative steps: its reversed view is flip, a copy
        "a[::-1]": (lambda: a.flip(0)) if lib == "torch" else (lambda: a[::-1]),
        "a.reshape(16)": lambda: a.reshape(16), "float(a[0, 0])": lambda: float(a[0, 0]),
        "bool(a[0, 0])": lambda: bool(a[0, 0]), "a[0, 0].item()": lambda: a[0, 0].item(),
        "a[1] = 0": lambda: _set(a, 1, 0), "a[0, 0] = 1.5": lambda: _set(a, (0, 0), 1.5),
        "for r in a: pass": lambda: collections.deque(a, maxlen=0),
        "zeros((4, 4))": lambda: module.zeros((4, 4)), "asarray([1.0, 2.0, 3.0])": lambda: asarray([1.0, 2.0, 3.0]),
        "asarray(lst)": lambda: asarray(lst),
    }
