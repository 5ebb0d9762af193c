"""The array API spelling of an op: the `array_api:` field of an ops.yaml entry.

The field is the standard's own signature of the function, defaults included, written as Python:

    - op: sum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
      array_api: sum(x, /, *, axis=None, dtype=None, keepdims=False)

Its parameters are matched with the op's arguments by the standard's names for the schema's
(RENAMES: `x` is `self`, `axis` is `dim`, ...; any other name is the argument's own), so one
rule covers every op and no entry lists a mapping. Arguments the spelling leaves out keep the
op's defaults (add's `alpha`): the namespace follows the standard, `kf.ops` keeps them all. The generator (gen_python.py) writes
`kf.<name>` from it: the standard's signature, calling the op with the values converted by the
argument's kind (an int or a tuple of ints for `int[]`, a list for `Tensor[]`).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

# The standard's parameter names and the schema's (PyTorch's) for the same thing. `x2` is the
# op's `other`, or its second argument when it has none (pow's `exponent`).
RENAMES = {"x": "self", "x1": "self", "x2": "other", "axis": "dim", "axes": "dims",
           "keepdims": "keepdim", "arrays": "tensors", "shape": "size"}


def _target(param: str, arg_names: list[str]) -> str:
    target = RENAMES.get(param, param)
    if param == "x2" and target not in arg_names and len(arg_names) > 1:
        return arg_names[1]
    return target


class ArrayApiError(ValueError):
    """A bad `array_api:` field; the text says why."""


# The standard's extensions: a spelling `linalg.solve(x1, x2, /)` is kf.linalg.solve.
EXTENSIONS = ("linalg", "fft")


@dataclass
class Spelling:
    name: str
    text: str  # the signature without extension and result, "sum(x, /, *, axis=None, ...)"
    params: dict[str, str]  # the standard's parameter name -> the op's argument name
    extension: str | None = None  # "linalg" for kf.linalg.<name>; None for kf.<name>
    result: tuple[str, list[str]] | None = None  # a namedtuple's name and fields, for tuples
    spelled: str = ""  # the field as written, for the docs

    @property
    def qualified(self) -> str:
        return f"{self.extension}.{self.name}" if self.extension else self.name


def _split_extension(text: str, op_name: str) -> tuple[str | None, str]:
    head = text.split("(", 1)[0]
    if "." not in head:
        return None, text
    ext = head.split(".", 1)[0]
    if ext not in EXTENSIONS:
        raise ArrayApiError(f"array_api of '{op_name}': '{ext}' is not an extension of the "
                            f"standard (known: {', '.join(EXTENSIONS)})")
    return ext, text[len(ext) + 1:]


def _result(fn: ast.FunctionDef, op_name: str, nreturns: int) -> tuple[str, list[str]] | None:
    """The namedtuple `-> Name(field, ...)` of an op with several returns (None for one)."""
    r = fn.returns
    if r is None:
        if nreturns > 1:
            raise ArrayApiError(f"array_api of '{op_name}': the op returns {nreturns} tensors; "
                                "name them as the standard does: '-> Name(field, ...)'")
        return None
    ok = isinstance(r, ast.Call) and isinstance(r.func, ast.Name) and not r.keywords and \
        all(isinstance(a, ast.Name) for a in r.args)
    if not ok or len(r.args) != nreturns:
        raise ArrayApiError(f"array_api of '{op_name}': the result must be '-> Name(field, ...)' "
                            f"with one field per return ({nreturns})")
    return r.func.id, [a.id for a in r.args]


def parse(text: str, op_name: str, arg_names: list[str], required: list[str],
          nreturns: int = 1) -> Spelling:
    """The spelling of `text` for an op with these arguments (`required`: those without a
    default) and `nreturns` returns; ArrayApiError when it is not a Python signature, names an
    argument the op does not have, leaves a required one out, or names no result fields for an
    op with several returns."""
    extension, body = _split_extension(text.strip(), op_name)
    try:
        tree = ast.parse(f"def {body}:\n    pass\n")
    except SyntaxError as e:
        raise ArrayApiError(f"array_api of '{op_name}' is not a Python signature "
                            f"'name(params)': {e.msg}") from None
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    if fn.args.vararg or fn.args.kwarg or fn.decorator_list:
        raise ArrayApiError(f"array_api of '{op_name}': only plain parameters, '/' and '*'")
    result = _result(fn, op_name, nreturns)
    params: dict[str, str] = {}
    for p in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs:
        target = _target(p.arg, arg_names)
        if target not in arg_names:
            raise ArrayApiError(f"array_api of '{op_name}': parameter '{p.arg}' is the "
                                f"op's '{target}', which it does not have (arguments: "
                                f"{', '.join(arg_names)})")
        if target in params.values():
            raise ArrayApiError(f"array_api of '{op_name}': two parameters are '{target}'")
        params[p.arg] = target
    missing = [a for a in required if a not in params.values()]
    if missing:
        raise ArrayApiError(f"array_api of '{op_name}' leaves out '{missing[0]}', which the op "
                            "needs")
    signature = body.split("->", 1)[0].strip() if result else body
    return Spelling(fn.name, signature, params, extension, result, text.strip())
