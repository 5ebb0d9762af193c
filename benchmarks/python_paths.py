"""Python's everyday paths: views, basic indexing, scalar reads, item assignment, iteration,
small factories and lists, on a 4x4 float32 array, the same statement in kernforge, numpy and
torch. bench_python.py times them (`time_paths`), python_budgets.py holds each against its
budget over numpy and against torch.
"""
from __future__ import annotations

import timeit

# (row, budget over numpy): the statement is the row itself, run on `a`, a 4x4 float32 array
# (`lst`: a list of 1M floats), with the library's factories and asarray.
PATHS = [
    ("a.T", 2.5), ("a[1]", 2.5), ("a[1:3, ::2]", 2.5), ("a[..., 0]", 2.5), ("a[None]", 2.5),
    ("a[::-1]", 2.5), ("a.reshape(16)", 2.5), ("float(a[0, 0])", 2.5), ("int(a[0, 0])", 2.5),
    ("bool(a[0, 0])", 2.5), ("a[0, 0].item()", 2.5), ("a[1] = 0", 3.0), ("a[0, 0] = 1.5", 4.0),
    ("for r in a: pass", 2.0), ("zeros((4, 4))", 2.0), ("ones((4, 4))", 2.0),
    ("empty((4, 4))", 2.0), ("full((4, 4), 1.5)", 2.0), ("asarray([1.0, 2.0, 3.0])", 2.0),
    ("asarray(lst)", 1.0), ("a + a", 0.8),
]


def timers(lib: str, a, lst, module) -> dict:
    """Each row of PATHS as a timeit.Timer of its statement (no wrapping call) in library `lib`
    ('kernforge', 'numpy' or 'torch') on its 4x4 float32 array `a`; `module` is the library."""
    names = {"a": a, "lst": lst, "zeros": module.zeros, "ones": module.ones,
             "empty": module.empty, "full": module.full,
             "asarray": module.as_tensor if lib == "torch" else module.asarray}
    # torch has no negative steps: its reversed view is flip, a copy
    stmt = {"a[::-1]": "a.flip(0)"} if lib == "torch" else {}
    return {row: timeit.Timer(stmt.get(row, row), globals=names) for row, _ in PATHS}
