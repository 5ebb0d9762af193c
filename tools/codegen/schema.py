"""Parses and validates dispatcher/ops.yaml.

Every problem is reported as `file:line: reason` and makes the build fail.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

import array_api


@dataclass(frozen=True)
class ArgKind:
    """One kind of argument: the one list every part of kernforge derives its own from (the
    generator's mappings; through the generated arg_kinds.inc, the core's ArgType, its boxing
    checks and its run-time schema parser; through kernforge_arg_kinds.h, the C ABI's
    kf_arg_kind_t, numbered by value_tag, and so every frontend: gen_kinds.py)."""
    schema: str      # as written in a signature: "int[]"
    name: str        # the core's ArgType enumerator: "IntList"
    value_tag: str   # the C ABI's kf_value_t tag
    arg_tag: str     # the plugin ABI's kf_arg_t tag (KF_ARG_NONE: tensors are not kf_arg_t)


ARG_KINDS = (
    ArgKind("Tensor", "Tensor", "KF_VALUE_TENSOR", "KF_ARG_NONE"),
    ArgKind("Tensor[]", "TensorList", "KF_VALUE_TENSOR_LIST", "KF_ARG_NONE"),
    ArgKind("int", "Int", "KF_VALUE_INT", "KF_ARG_INT"),
    ArgKind("int[]", "IntList", "KF_VALUE_INT_LIST", "KF_ARG_INT_LIST"),
    ArgKind("float", "Float", "KF_VALUE_FLOAT", "KF_ARG_FLOAT"),
    ArgKind("bool", "Bool", "KF_VALUE_BOOL", "KF_ARG_BOOL"),
    ArgKind("Scalar", "Scalar", "KF_VALUE_SCALAR", "KF_ARG_SCALAR"),
    ArgKind("ScalarType", "Dtype", "KF_VALUE_DTYPE", "KF_ARG_DTYPE"),
    ArgKind("Device", "Device", "KF_VALUE_DEVICE", "KF_ARG_DEVICE"),
)
BASE_TYPES = tuple(dict.fromkeys(k.schema.removesuffix("[]") for k in ARG_KINDS))
KINDS = ("kernel", "view", "composite")
VARIANTS = ("function", "method", "inplace", "out")
TAGS = ("pointwise", "reduction", "factory", "linalg")
KEYS = ("op", "kind", "meta", "variants", "tags", "doc", "array_api")
IDENT = re.compile(r"^[a-z][a-z0-9_]*$")
# The name rule of op and argument names (the run-time parser, schema_parser.cpp, has the same):
# no '__' anywhere, and an argument name does not end with '_' (docs/plugins.md, "Names").
OP_NAME = re.compile(r"^[a-z](?:[a-z0-9]|_(?!_))*$")
ARG_NAME = re.compile(r"^[a-z](?:[a-z0-9]|_(?=[a-z0-9]))*$")


class SchemaError(Exception):
    pass


@dataclass
class Arg:
    name: str
    base: str            # one of BASE_TYPES
    is_list: bool        # int[] / Tensor[]
    optional: bool       # trailing '?'
    alias: str | None    # 'a' / 'a!' annotation of Tensor(a) / Tensor(a!)
    kwarg_only: bool
    default: str | None  # the default's text, as written

    @property
    def is_tensor(self) -> bool:
        return self.base == "Tensor" and not self.is_list

    @property
    def written(self) -> bool:
        """Tensor(a!): the op writes it (self and further written tensors of an in-place op)."""
        return self.alias is not None and self.alias.endswith("!")

    @property
    def kind(self) -> ArgKind:
        text = self.base + ("[]" if self.is_list else "")
        return next(k for k in ARG_KINDS if k.schema == text)

    @property
    def type_text(self) -> str:
        t = self.base + (f"({self.alias})" if self.alias else "") + ("[]" if self.is_list else "")
        return t + ("?" if self.optional else "")


@dataclass
class Op:
    name: str
    schema: str
    args: list[Arg]
    returns: list[str]
    kind: str
    meta: str | None
    variants: list[str]
    tags: list[str]
    doc: str
    line: int
    index: int = 0
    hash: int = 0
    tensor_args: list[Arg] = field(default_factory=list)
    other_args: list[Arg] = field(default_factory=list)
    array_api: array_api.Spelling | None = None  # the standard's spelling (array_api.py)

    @property
    def inplace_only(self) -> bool:
        """An op whose name ends with '_' mutates its first argument and returns it."""
        return self.name.endswith("_")


def fnv1a64(text: str) -> int:
    h = 0xCBF29CE484222325
    for b in text.encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


_ARG = re.compile(r"^(?P<base>[A-Za-z]+)(?:\((?P<alias>[a-z]!?)\))?(?P<list>\[\])?(?P<opt>\?)?"
                  r"\s+(?P<name>[a-z_][a-z0-9_]*)(?:=(?P<default>.+))?$")


def _split_args(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


# The defaults a signature may give, as the run-time parser reads them too
# (dispatcher/registry/schema_parser.cpp; tests/codegen/schema_cases.txt holds both to it):
# None for any optional argument; int: at most 18 digits (every one fits int64); float: at most
# 32 characters and a two-digit exponent (every one is a finite, normal double or zero); Scalar:
# an int (int64) or else a float (double), or a bool; int[]: [] only.
INT_DEFAULT = re.compile(r"-?\d{1,18}")
FLOAT_DEFAULT = re.compile(r"-?\d+(\.\d*)?(e-?\d{1,2})?")


def _float_text(d: str) -> bool:
    return len(d) <= 32 and FLOAT_DEFAULT.fullmatch(d) is not None


def _check_default(arg: Arg, where: str) -> None:
    d = arg.default
    if d is None:
        return
    if d == "None":
        ok = arg.optional
    elif arg.is_list:
        ok = arg.base == "int" and d == "[]"
    else:
        ok = {
            "int": INT_DEFAULT.fullmatch(d) is not None,
            "float": _float_text(d),
            "bool": d in ("True", "False"),
            "Scalar": INT_DEFAULT.fullmatch(d) is not None or _float_text(d)
            or d in ("True", "False"),
        }.get(arg.base, False)
    if not ok:
        extra = " (int[] defaults other than [] are not supported)" if arg.is_list else ""
        raise SchemaError(f"{where}: default '{d}' is not valid for argument "
                          f"'{arg.name}' of type {arg.type_text}{extra}")


def parse_signature(sig: str, where: str) -> tuple[str, list[Arg], list[str]]:
    m = re.fullmatch(r"\s*([a-z][a-z0-9_]*)\((.*)\)\s*->\s*(.+?)\s*", sig)
    if not m:
        raise SchemaError(f"{where}: cannot parse signature '{sig}': expected "
                          "'name(Type arg, ...) -> Return'")
    name, argtext, rettext = m.groups()
    if not OP_NAME.match(name):
        raise SchemaError(f"{where}: '{name}' is not a valid op name (no '__')")
    args: list[Arg] = []
    kwarg_only = False
    seen_default = False
    for part in _split_args(argtext):
        if part == "*":
            if kwarg_only:
                raise SchemaError(f"{where}: '*' appears twice in '{name}'")
            kwarg_only = True
            continue
        am = _ARG.match(part)
        if not am:
            raise SchemaError(f"{where}: cannot parse argument '{part}' of '{name}'")
        base = am["base"]
        if base not in BASE_TYPES:
            raise SchemaError(f"{where}: unknown type '{base}' of argument '{am['name']}' "
                              f"(known: {', '.join(BASE_TYPES)})")
        if am["list"] and not any(k.schema == base + "[]" for k in ARG_KINDS):
            raise SchemaError(f"{where}: lists of {base} are not supported (argument "
                              f"'{am['name']}')")
        if am["alias"] and base != "Tensor":
            raise SchemaError(f"{where}: alias annotation on non-Tensor argument '{am['name']}'")
        arg = Arg(am["name"], base, bool(am["list"]), bool(am["opt"]), am["alias"], kwarg_only,
                  am["default"])
        if not ARG_NAME.match(arg.name):
            raise SchemaError(f"{where}: '{arg.name}' is not a valid argument name of '{name}' "
                              "(starting with a letter, no '__', not ending with '_')")
        if any(a.name == arg.name for a in args):
            raise SchemaError(f"{where}: argument '{arg.name}' appears twice in '{name}'")
        if arg.name in ("out", "op", "args", "call") or arg.name.startswith("out"):
            raise SchemaError(f"{where}: argument name '{arg.name}' is reserved")
        _check_default(arg, where)
        if arg.default is None and seen_default and not kwarg_only:
            raise SchemaError(f"{where}: argument '{arg.name}' without a default follows one "
                              "with a default")
        seen_default = seen_default or arg.default is not None
        args.append(arg)
    rettext = rettext.strip()
    if rettext == "()":  # an op that writes its Tensor(a!)[] lists and returns nothing
        rets = []
    elif rettext.startswith("("):
        rets = [r.strip() for r in rettext[1:-1].split(",")]
    else:
        rets = [rettext]
    for r in rets:
        if not re.fullmatch(r"Tensor(\([a-z]!?\))?", r):
            raise SchemaError(f"{where}: unsupported return type '{r}' of '{name}' (only Tensor)")
    _check_written(name, args, rets, where)
    return name, args, rets


def _field(entry: dict, key: str, where: str, kind: type, default=None):
    value = entry.get(key, default)
    if value is not None and not isinstance(value, kind):
        raise SchemaError(f"{where}: field '{key}' must be a {kind.__name__}, "
                          f"got {type(value).__name__}")
    return value


class _LineLoader(yaml.SafeLoader):
    pass


def _construct_mapping(loader, node, deep=False):
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=deep)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _parse_entry(entry, path: str, index: int, line: int) -> Op:
    if not isinstance(entry, dict):
        raise SchemaError(f"{path}:{line}: entry {index + 1} is not a mapping of fields "
                          "(op, kind, meta, variants, tags, doc)")
    where = f"{path}:{entry['__line__']}"
    unknown = [k for k in entry if k not in KEYS and k != "__line__"]
    if unknown:
        raise SchemaError(f"{where}: unknown field '{unknown[0]}' (known: {', '.join(KEYS)})")
    sig = _field(entry, "op", where, str)
    if not sig:
        raise SchemaError(f"{where}: missing field 'op' (the signature)")
    name, args, rets = parse_signature(sig, where)
    kind = _field(entry, "kind", where, str, "kernel")
    if kind not in KINDS:
        raise SchemaError(f"{where}: kind '{kind}' of '{name}' is not one of {', '.join(KINDS)}")
    meta = _field(entry, "meta", where, str)
    if kind == "kernel" and not meta:
        raise SchemaError(f"{where}: kernel op '{name}' needs a 'meta' (its shape/dtype rule)")
    if kind == "view" and meta:
        raise SchemaError(f"{where}: view op '{name}' must not have a 'meta'")
    if meta and not IDENT.match(meta):
        raise SchemaError(f"{where}: meta '{meta}' is not a valid function name")
    variants = _field(entry, "variants", where, list, ["function"])
    for v in variants:
        if v not in VARIANTS:
            raise SchemaError(f"{where}: variant '{v}' of '{name}' is not one of "
                              f"{', '.join(VARIANTS)}")
    if ("inplace" in variants or "out" in variants) and kind == "view":
        raise SchemaError(f"{where}: view op '{name}' cannot have inplace or out variants")
    tags = _field(entry, "tags", where, list, [])
    for t in tags:
        if t not in TAGS:
            raise SchemaError(f"{where}: tag '{t}' of '{name}' is not one of {', '.join(TAGS)}")
    doc = _field(entry, "doc", where, str)
    if not doc:
        raise SchemaError(f"{where}: op '{name}' needs a 'doc' line")
    op = Op(name, sig.strip(), args, rets, kind, meta, variants, tags, doc.strip(),
            entry["__line__"])
    if op.inplace_only and (not args or not args[0].is_tensor or args[0].alias != "a!"
                            or args[0].optional):
        raise SchemaError(f"{where}: in-place op '{name}' must take 'Tensor(a!) self' first")
    if op.inplace_only and rets != written_returns(args):
        raise SchemaError(f"{where}: in-place op '{name}' must return what it writes: "
                          "'-> Tensor(a!)'")
    op.tensor_args = [a for a in args if a.is_tensor]
    op.other_args = [a for a in args if not a.is_tensor]
    if not rets and (kind != "composite" or variants != ["function"]):
        raise SchemaError(f"{where}: '{name}' returns nothing: it must be a composite with "
                          "variants [function]")
    if any(a.base == "Tensor" and a.is_list for a in args) and kind == "kernel":
        raise SchemaError(f"{where}: kernel op '{name}' takes Tensor[]; make it composite")
    op.hash = fnv1a64(canonical_signature(op.name, args, rets))
    op.array_api = _array_api_of(entry, where, op)
    return op


def written_returns(args: list[Arg]) -> list[str]:
    """The returns an in-place op must declare: its written arguments' annotations, in order."""
    return [f"Tensor({a.alias})" for a in args if a.written]


def _check_written_lists(name: str, args: list[Arg], written: list[Arg], where: str) -> None:
    """An op that returns nothing (`-> ()`) writes tensor lists, Tensor(a!)[], Tensor(b!)[], ...
    in order, through the ops its decomposition calls (each of which checks what it writes)."""
    if name.endswith("_") or not written:
        raise SchemaError(f"{where}: '{name}' returns nothing: it must write tensor lists "
                          "(Tensor(a!)[] ...) and its name must not end in '_'")
    for i, a in enumerate(written):
        letter = chr(ord("a") + i)
        if a.alias != f"{letter}!" or not a.is_list or a.optional:
            raise SchemaError(f"{where}: '{name}' returns nothing: written argument '{a.name}' "
                              f"must be 'Tensor({letter}!)[] {a.name}' (written lists are "
                              "lettered a!, b!, ... in order, and are not optional)")


def _check_written(name: str, args: list[Arg], rets: list[str], where: str) -> None:
    """The core writes out= tensors and the written arguments of an in-place op only, after
    checking what they share memory with; a kernel writes nothing else. An in-place op writes
    self (a!) and may write further tensors (b!, c!, ... in order, none optional, no list), and
    returns exactly what it writes."""
    inplace = name.endswith("_")
    written = [a for a in args if a.written]
    if not rets:
        _check_written_lists(name, args, written, where)
        return
    if written and not inplace:
        raise SchemaError(f"{where}: argument '{written[0].name}' of '{name}' is marked "
                          f"written ({written[0].alias}); only an in-place op (a name ending "
                          "in '_') writes its arguments")
    for i, a in enumerate(written):
        letter = chr(ord("a") + i)
        if a.alias != f"{letter}!" or not a.is_tensor or a.optional:
            raise SchemaError(f"{where}: in-place op '{name}': written argument '{a.name}' must "
                              f"be 'Tensor({letter}!) {a.name}' (written tensors are lettered a!, "
                              "b!, ... in order, and are neither lists nor optional)")
    if inplace and written and rets != written_returns(args):
        want = written_returns(args)
        text = want[0] if len(want) == 1 else "(" + ", ".join(want) + ")"
        raise SchemaError(f"{where}: in-place op '{name}' must return what it writes: "
                          f"'-> {text}'")


def _array_api_of(entry, where: str, op: Op) -> array_api.Spelling | None:
    """The op's `array_api:` field, checked against its arguments (array_api.py)."""
    text = _field(entry, "array_api", where, str)
    if not text:
        return None
    try:
        return array_api.parse(text, op.name, [a.name for a in op.args],
                               [a.name for a in op.args if a.default is None],
                               len(op.returns))
    except array_api.ArrayApiError as e:
        raise SchemaError(f"{where}: {e}") from None


def rule_signature(op: Op) -> str:
    """The argument kinds and return count a meta rule serves for `op`: "Tensor, Scalar? -> 1".
    An op a plugin defines may name the rule when its own signature gives the same text."""
    kinds = (re.sub(r"\([a-z]!?\)", "", a.type_text) for a in op.args)
    return ", ".join(kinds) + f" -> {len(op.returns)}"


def canonical_signature(name: str, args: list[Arg], rets: list[str]) -> str:
    """The signature rebuilt from its parts, so spacing and layout never change the hash."""
    parts: list[str] = []
    star = False
    for a in args:
        if a.kwarg_only and not star:
            parts.append("*")
            star = True
        default = f"={a.default}" if a.default is not None else ""
        parts.append(f"{a.type_text} {a.name}{default}")
    ret = rets[0] if len(rets) == 1 else "(" + ", ".join(rets) + ")"
    return f"{name}({', '.join(parts)}) -> {ret}"


def load(path: str) -> list[Op]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        data = yaml.load(text, Loader=_LineLoader)  # noqa: S506 - SafeLoader subclass
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise SchemaError(f"{path}:{line}: not valid YAML: "
                          f"{getattr(e, 'problem', None) or e}") from e
    if not isinstance(data, list):
        raise SchemaError(f"{path}:1: the schema must be a list of op entries")
    lines = [item.start_mark.line + 1 for item in root.value]
    ops: list[Op] = []
    names: dict[str, int] = {}
    for i, entry in enumerate(data):
        op = _parse_entry(entry, path, i, lines[i])
        if op.name in names:
            raise SchemaError(f"{path}:{op.line}: op '{op.name}' is already defined at line "
                              f"{names[op.name]}")
        names[op.name] = op.line
        op.index = len(ops)
        ops.append(op)
    for op in ops:
        if "inplace" in op.variants and f"{op.name}_" in names:
            raise SchemaError(f"{path}:{op.line}: inplace variant of '{op.name}' clashes with "
                              f"op '{op.name}_'")
    return ops
