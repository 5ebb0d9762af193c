"""The op surface, assembled from the registry at import.

Every op the registry holds (``kf_op_count``/``kf_op_at``: ``dispatcher/ops.yaml``'s and the
ones plugins define) becomes a Python function: its schema is parsed once here, a function with
the schema's parameters (names, defaults, keyword-only marks) is generated, and it hands the
arguments in schema order to the op's ``_C.Op``, which converts them by kind and calls
``kf_op_call``. All functions are compiled in one ``exec``, so import stays fast. The docstring
is the schema and the op's one-line doc (``kf_op_doc``).
"""

import ast
import keyword
import types

# Argument kind codes of _C.Op (frontends/python/src/op_call.cpp): (required, optional).
_KINDS = {
    "Tensor": "Tt", "Tensor[]": "Ll", "int": "Nn", "int[]": "Ii", "float": "Ff",
    "bool": "Bb", "Scalar": "Ss", "ScalarType": "Dd", "Device": "Vv",
}


class Arg:
    __slots__ = ("name", "type", "kind", "default", "has_default", "kwonly")

    def __init__(self, name, type_, kind, default, has_default, kwonly):
        self.name, self.type, self.kind = name, type_, kind
        self.default, self.has_default, self.kwonly = default, has_default, kwonly


def _split_top(text):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def _default(text):
    value = ast.literal_eval(text)
    return tuple(value) if isinstance(value, list) else value


def parse(schema):
    """(name, [Arg], number of returns, in place) of a schema string."""
    head, returns = schema.rsplit("->", 1)
    name, args_text = head.split("(", 1)
    args_text = args_text.strip().removesuffix(")")
    returns = returns.strip()
    if returns.startswith("("):
        nret = len(_split_top(returns[1:-1]))
    else:
        nret = 0 if returns in ("", "()") else 1
    args, kwonly = [], False
    for part in _split_top(args_text):
        if part == "*":
            kwonly = True
            continue
        decl, _, default = part.partition("=")
        type_, arg_name = decl.rsplit(None, 1)
        optional = type_.endswith("?")
        base = type_.rstrip("?")
        if "(" in base:  # Tensor(a!) / Tensor(a)
            base = base[:base.index("(")] + base[base.index(")") + 1:]
        kind = _KINDS[base][1 if optional else 0]
        has_default = bool(default.strip())
        args.append(Arg(arg_name, type_, kind, _default(default.strip()) if has_default else None,
                        has_default, kwonly))
    inplace = "!" in (args[0].type if args else "") and name.split("::")[-1].endswith("_")
    return name.strip(), args, nret, inplace


def _param(a):
    name = a.name + "_" if keyword.iskeyword(a.name) else a.name
    return name


def _source(i, fname, args, varargs):
    """The text of one generated function; `_op{i}` and `_d{i}` are its globals."""
    params, call = [], []
    if varargs is not None:  # f(self, *shape): PyTorch's t.reshape(2, 3) beside t.reshape((2, 3))
        for j, a in enumerate(args):
            p = _param(a)
            if j == varargs:
                params.append("*" + p)
            elif a.kwonly:
                params.append(f"{p}=_d{i}[{j}]" if a.has_default else p)
            else:
                params.append(p)
            call.append(p)
        v = _param(args[varargs])
        body = (f"    if len({v}) == 1 and not isinstance({v}[0], int): {v} = {v}[0]\n")
        return (f"def {fname}({', '.join(params)}):\n{body}"
                f"    return _op{i}({', '.join(call)})\n")
    star = False
    for j, a in enumerate(args):
        p = _param(a)
        if a.kwonly and not star:
            params.append("*")
            star = True
        params.append(f"{p}=_d{i}[{j}]" if a.has_default else p)
        call.append(p)
    return f"def {fname}({', '.join(params)}):\n    return _op{i}({', '.join(call)})\n"


def _varargs_index(args):
    """The int[] that takes PyTorch's varargs: the one positional after an optional self."""
    positional = [j for j, a in enumerate(args) if not a.kwonly]
    rest = positional[1:] if positional and args[0].kind == "T" and args[0].name == "self" \
        else positional
    if len(rest) == 1 and args[rest[0]].kind == "I" and not args[rest[0]].has_default \
            and rest[0] == positional[-1]:
        return rest[0]
    return None


class OpInfo:
    __slots__ = ("name", "schema", "doc", "args", "function", "is_method")


skipped = []  # (op name, why) of ops whose schema this frontend cannot read (kernforge.doctor)


def build(C):
    """{full op name: OpInfo} for every op of the registry, with its generated function."""
    infos, sources, env = {}, [], {}
    skipped.clear()
    for i, (name, schema, doc) in enumerate(C.op_list()):
        try:
            _, args, nret, inplace = parse(schema)
        except (KeyError, ValueError, SyntaxError) as e:
            skipped.append((name, f"{type(e).__name__}: {e}"))  # reachable through C only
            continue
        op = C.Op(name)
        op._set_signature("".join(a.kind for a in args), [a.name for a in args], inplace)
        fname = name.replace("::", "__")
        env[f"_op{i}"] = op
        env[f"_d{i}"] = [a.default for a in args]
        sources.append(_source(i, fname, args, _varargs_index(args)))
        info = OpInfo()
        info.name, info.schema, info.doc, info.args = name, schema, doc, args
        info.is_method = bool(args) and args[0].name == "self" and args[0].kind == "T"
        info.function = fname
        infos[name] = info
    exec(compile("".join(sources), "<kernforge ops>", "exec"), env)
    for info in infos.values():
        f = env[info.function]
        short = info.name.split("::")[-1]
        f.__name__ = f.__qualname__ = short
        f.__module__ = "kernforge.ops"
        f.__doc__ = f"{info.schema}\n\n{info.doc}" if info.doc else info.schema
        info.function = f
    return infos


def namespace(infos):
    """kf.ops: every op by name, and plugin ops as kf.ops.<namespace>.<name>."""
    ops = types.SimpleNamespace()
    for name, info in infos.items():
        if "::" in name:
            ns, short = name.split("::", 1)
            sub = getattr(ops, ns, None)
            if sub is None:
                sub = types.SimpleNamespace()
                setattr(ops, ns, sub)
            setattr(sub, short, info.function)
        else:
            setattr(ops, name, info.function)
    return ops
