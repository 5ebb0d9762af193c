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


@dataclass
class Spelling:
    name: str
    text: str  # the signature as written, "sum(x, /, *, axis=None, ...)"
    params: dict[str, str]  # the standard's parameter name -> the op's argument name


def parse(text: str, op_name: str, arg_names: list[str], required: list[str]) -> Spelling:
    """The spelling of `text` for an op with these arguments (`required`: those without a
    default); ArrayApiError when it is not a Python signature, names an argument the op does
    not have, or leaves a required one out."""
    try:
        tree = ast.parse(f"def {text.strip()}:\n    pass\n")
    except SyntaxError as e:
        raise ArrayApiError(f"array_api of '{op_name}' is not a Python signature "
                            f"'name(params)': {e.msg}") from None
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    if fn.args.vararg or fn.args.kwarg or fn.decorator_list or fn.returns:
        raise ArrayApiError(f"array_api of '{op_name}': only plain parameters, '/' and '*'")
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
    return Spelling(fn.name, text.strip(), params)
