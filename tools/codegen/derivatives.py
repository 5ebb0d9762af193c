"""Parses dispatcher/derivatives.yaml (the backward formulas) against the op schema.

Every op of ops.yaml is classified, or the build fails naming it:
- a formula per differentiable tensor argument (`self: mul(grad, other)`), written in the ops
  of the schema and the helpers the file declares;
- `non_differentiable: true` (comparisons, integer ops, factories, indices);
- a composite differentiates through its decomposition (under autograd it runs as written,
  even where a backend brings a kernel for it) and needs no entry unless a formula overrides;
- `not_yet: <reason>`, an op whose formula is still to be written: recording it is an error
  that gives the reason.

The formula grammar: expr := NUMBER | True | False | NAME | NAME '.' ('shape' | 'dtype')
                             | NAME '(' [arg (',' arg)*] ')' | '[' [expr (',' expr)*] ']'
                      arg  := expr | NAME '=' expr
Names are `grad` (the gradient of the output), `result` (the output) and the op's arguments;
an op with several outputs names them `grad0`, `grad1`, ... and `result0`, `result1`, ...
(`grad<k>` is zeros where output k got no gradient, or None passed to a helper's `Tensor?`),
and may list `non_differentiable_outputs: [k, ...]` (outputs that never require grad) and
`real_only: <reason>` (formulas that hold for real dtypes only: recording the op with a complex
input that requires grad, or a complex output, is an error that gives the reason).
The core reads plugins' formulas in the same grammar at run time
(dispatcher/autograd/formula_parser.cpp): a change of the grammar is made in both readers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

import schema
from schema import Arg, Op, SchemaError

TOKEN = re.compile(r"\s*(?:(-?\d+\.\d*(?:e-?\d+)?|-?\d+(?:e-?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(.))")


@dataclass
class Expr:
    kind: str                     # num, name, attr, call, list
    text: str = ""                # the number, the name or the callee
    attr: str = ""                # shape / dtype
    args: list["Expr"] = field(default_factory=list)
    keywords: dict[str, "Expr"] = field(default_factory=dict)


def _tokens(text: str, where: str) -> list[str]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise SchemaError(f"{where}: cannot read the formula at '{text[pos:]}'")
        tok = next(g for g in m.groups() if g is not None)
        if tok.strip():
            out.append(tok)
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str, where: str):
        self.toks = _tokens(text, where)
        self.i = 0
        self.where = where
        self.text = text

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise SchemaError(f"{self.where}: expected '{want or 'more'}' in formula "
                              f"'{self.text}', found '{tok or 'the end'}'")
        self.i += 1
        return tok

    def expr(self) -> Expr:
        tok = self.take()
        if tok == "[":
            items = []
            while self.peek() != "]":
                items.append(self.expr())
                if self.peek() == ",":
                    self.take(",")
            self.take("]")
            return Expr("list", args=items)
        if re.fullmatch(r"-?\d.*", tok):
            return Expr("num", tok)
        if not re.fullmatch(r"[A-Za-z_]\w*", tok):
            raise SchemaError(f"{self.where}: unexpected '{tok}' in formula '{self.text}'")
        if self.peek() == ".":
            self.take(".")
            attr = self.take()
            if attr not in ("shape", "dtype"):
                raise SchemaError(f"{self.where}: '{tok}.{attr}': only .shape and .dtype exist")
            return Expr("attr", tok, attr)
        if self.peek() != "(":
            return Expr("name", tok)
        self.take("(")
        call = Expr("call", tok)
        while self.peek() != ")":
            if self.i + 1 < len(self.toks) and self.toks[self.i + 1] == "=":
                key = self.take()
                self.take("=")
                call.keywords[key] = self.expr()
            else:
                if call.keywords:
                    raise SchemaError(f"{self.where}: a positional argument after a keyword "
                                      f"in '{self.text}'")
                call.args.append(self.expr())
            if self.peek() == ",":
                self.take(",")
        self.take(")")
        return call


def parse_formula(text: str, where: str) -> Expr:
    p = _Parser(str(text), where)
    e = p.expr()
    if p.peek() is not None:
        raise SchemaError(f"{where}: unexpected '{p.peek()}' after the formula '{text}'")
    return e


@dataclass
class Callee:
    name: str
    args: list[Arg]
    cpp: str        # the C++ function: kf::ops::mul, helpers::scale


@dataclass
class Derivative:
    op: Op
    formulas: dict[str, Expr]     # tensor argument name -> formula
    line: int
    saves: list[str] = field(default_factory=list)   # tensor arguments saved by value
    saves_results: list[int] = field(default_factory=list)  # outputs saved (by number)
    nondiff_outputs: list[int] = field(default_factory=list)
    real_only: str | None = None  # why the formulas are not written for complex dtypes


def output_names(op: Op) -> dict[str, tuple[str, int]]:
    """The names a formula of op may use for its outputs: name -> (grad/result, output)."""
    if len(op.returns) == 1:
        return {"grad": ("grad", 0), "result": ("result", 0)}
    return {f"{kind}{k}": (kind, k) for kind in ("grad", "result")
            for k in range(len(op.returns))}


@dataclass
class Table:
    derivatives: list[Derivative]
    non_differentiable: list[Op]
    not_yet: dict[str, str]       # op name -> reason
    helpers: list[Callee]
    callees: dict[str, Callee]


def _helpers(entries, path: str) -> list[Callee]:
    out = []
    for i, sig in enumerate(entries or []):
        name, args, rets = schema.parse_signature(sig, f"{path}: helpers[{i}]")
        if rets != ["Tensor"]:
            raise SchemaError(f"{path}: helper '{name}' must return one Tensor")
        out.append(Callee(name, args, f"helpers::{name}"))
    return out


def _names_used(e: Expr, out: set[str], values: set[str]) -> None:
    if e.kind == "name" and e.text not in ("True", "False"):
        out.add(e.text)
        values.add(e.text)
    elif e.kind == "attr":
        out.add(e.text)
    for a in e.args:
        _names_used(a, out, values)
    for a in e.keywords.values():
        _names_used(a, out, values)


def load(path: str, ops: list[Op]) -> Table:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or "derivatives" not in data:
        raise SchemaError(f"{path}:1: expected a mapping with 'helpers' and 'derivatives'")
    lines = {}
    for k, v in root.value:
        if k.value == "derivatives":
            lines = {i: item.start_mark.line + 1 for i, item in enumerate(v.value)}
    helpers = _helpers(data.get("helpers"), path)
    by_name = {op.name: op for op in ops}
    callees = {op.name: Callee(op.name, op.args, f"ops::{op.name}") for op in ops
               if len(op.returns) == 1}
    for h in helpers:
        if h.name in callees:
            raise SchemaError(f"{path}: helper '{h.name}' has the name of an op")
        callees[h.name] = h
    derivs, nondiff, not_yet, seen = [], [], {}, {}
    for i, entry in enumerate(data["derivatives"] or []):
        where = f"{path}:{lines.get(i, 1)}"
        if not isinstance(entry, dict) or "op" not in entry:
            raise SchemaError(f"{where}: each entry needs 'op'")
        name = entry["op"]
        if name not in by_name:
            raise SchemaError(f"{where}: '{name}' is not an op of ops.yaml")
        if name in seen:
            raise SchemaError(f"{where}: '{name}' already has an entry at line {seen[name]}")
        seen[name] = lines.get(i, 1)
        op = by_name[name]
        rest = {k: v for k, v in entry.items() if k != "op"}
        if rest.get("non_differentiable") is True and len(rest) == 1:
            nondiff.append(op)
            continue
        if "not_yet" in rest:
            if len(rest) != 1 or not str(rest["not_yet"]).strip():
                raise SchemaError(f"{where}: 'not_yet' takes a reason and stands alone")
            not_yet[name] = str(rest["not_yet"])
            continue
        derivs.append(_derivative(op, rest, where, callees))
    for op in ops:
        decomposed = op.kind == "composite"
        if op.name not in seen and not decomposed:
            raise SchemaError(f"{path}: op '{op.name}' ({op.kind}, ops.yaml:{op.line}) has no "
                              f"entry: give a formula per differentiable tensor argument, "
                              f"non_differentiable: true, or not_yet: <reason>")
    return Table(derivs, nondiff, not_yet, helpers, callees)


def _nondiff_outputs(op: Op, rest: dict, where: str) -> list[int]:
    ks = rest.pop("non_differentiable_outputs", [])
    n = len(op.returns)
    if not isinstance(ks, list) or any(not isinstance(k, int) or not 0 <= k < n for k in ks):
        raise SchemaError(f"{where}: non_differentiable_outputs of {op.name} must be a list of "
                          f"output numbers below {n}")
    if len(ks) >= n:
        raise SchemaError(f"{where}: every output of {op.name} is non-differentiable: write "
                          f"non_differentiable: true instead")
    return sorted(set(ks))


def _derivative(op: Op, rest: dict, where: str, callees: dict[str, Callee]) -> Derivative:
    rest = dict(rest)
    nondiff_outputs = _nondiff_outputs(op, rest, where)
    real_only = rest.pop("real_only", None)
    if real_only is not None and not str(real_only).strip():
        raise SchemaError(f"{where}: 'real_only' of {op.name} takes a reason")
    tensors = {a.name for a in op.args if a.base == "Tensor"}
    formulas = {}
    for arg, text in rest.items():
        if arg not in tensors:
            raise SchemaError(f"{where}: '{arg}' is not a tensor argument of {op.schema}")
        if text == "non_differentiable":
            continue
        formulas[arg] = parse_formula(text, where)
    d = Derivative(op, formulas, int(where.rsplit(":", 1)[1]),
                   nondiff_outputs=nondiff_outputs,
                   real_only=None if real_only is None else str(real_only))
    used, values = set(), set()
    for e in formulas.values():
        _names_used(e, used, values)
        _check(e, op, callees, where)
    args = {a.name: a for a in op.args}
    outs = output_names(op)
    for n in sorted(used):
        if n not in args and n not in outs:
            raise SchemaError(f"{where}: '{n}' is neither an argument of {op.name} nor one of "
                              f"{', '.join(outs)}")
    d.saves = [a.name for a in op.args if a.base == "Tensor" and a.name in values]
    d.saves_results = sorted(k for name, (kind, k) in outs.items()
                             if kind == "result" and name in values)
    return d


def _type_of(e: Expr, op: Op, callees: dict[str, Callee], where: str) -> str:
    """The formula's type: Tensor, int[], int, float, bool, Scalar, ScalarType or number."""
    args = {a.name: a for a in op.args}
    if e.kind == "num":
        return "number"
    if e.kind == "name":
        if e.text in output_names(op):
            return "Tensor"
        if e.text in ("True", "False"):
            return "bool"
        a = args.get(e.text)
        if a is None:
            raise SchemaError(f"{where}: unknown name '{e.text}' in a formula of {op.name}: "
                              f"use its arguments or {', '.join(output_names(op))}")
        return a.base + ("[]" if a.is_list else "") + ("?" if a.optional else "")
    if e.kind == "attr":
        is_result = output_names(op).get(e.text, ("", 0))[0] == "result"
        if not is_result and (e.text not in args or args[e.text].base != "Tensor"):
            raise SchemaError(f"{where}: '{e.text}.{e.attr}': not a tensor of {op.name}")
        return "int[]" if e.attr == "shape" else "ScalarType"
    if e.kind == "list":
        return "int[]"
    return "Tensor"


def _check(e: Expr, op: Op, callees: dict[str, Callee], where: str) -> None:
    if e.kind == "list":
        for a in e.args:
            if _type_of(a, op, callees, where) not in ("int", "number"):
                raise SchemaError(f"{where}: a list in a formula holds ints only")
        return
    if e.kind != "call":
        _type_of(e, op, callees, where)
        return
    c = callees.get(e.text)
    if c is None:
        raise SchemaError(f"{where}: '{e.text}' is neither an op with one output nor a helper")
    bind_call(e, c, where)
    for a in list(e.args) + list(e.keywords.values()):
        _check(a, op, callees, where)


def bind_call(e: Expr, c: Callee, where: str) -> list[Expr | None]:
    """The call's arguments in the callee's parameter order (None: the default)."""
    if len(e.args) > len(c.args):
        raise SchemaError(f"{where}: {c.name} takes {len(c.args)} arguments, "
                          f"{len(e.args)} given")
    bound: list[Expr | None] = list(e.args) + [None] * (len(c.args) - len(e.args))
    names = [a.name for a in c.args]
    for k, v in e.keywords.items():
        if k not in names:
            raise SchemaError(f"{where}: {c.name} has no argument '{k}'")
        if bound[names.index(k)] is not None:
            raise SchemaError(f"{where}: {c.name}: '{k}' given twice")
        bound[names.index(k)] = v
    for a, b in zip(c.args, bound):
        if b is None and a.default is None:
            raise SchemaError(f"{where}: {c.name}: argument '{a.name}' is required")
    return bound
