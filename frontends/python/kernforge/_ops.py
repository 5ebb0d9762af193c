"""The op surface, assembled from the registry at import.

Every op the registry holds (``kf_op_count``/``kf_op_at``: ``dispatcher/ops.yaml``'s and the
ones plugins define) becomes a Python function built from its argument table, which the C ABI
gives (``kf_op_arg_info``, read by ``_C.op_table``): names, kinds, optional and keyword-only
marks, and defaults as values. No schema text is parsed here, and no kind is spelled here but
the two the signatures below depend on (a ``Tensor`` self, a lone ``int[]``), by the names
``kf_arg_kind_name`` gives. A function with the table's parameters is generated per op, and it
hands the arguments in schema order to the op's ``_C.Op``, which converts them by the same
table's kinds and calls ``kf_op_call``. All functions are compiled in one ``exec``, so import
stays fast. The docstring is the schema and the op's one-line doc (``kf_op_doc``).
"""

import keyword
import types


class Arg:
    """One argument of an op's table (kf_op_arg_info_t)."""
    __slots__ = ("name", "kind", "optional", "kwonly", "has_default", "default", "written")

    def __init__(self, entry):
        (self.name, self.kind, self.optional, self.kwonly, self.has_default, self.default,
         self.written) = entry


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
    rest = positional[1:] if positional and _is_self(args[0]) else positional
    if len(rest) == 1 and _is(args[rest[0]], "int[]") and not args[rest[0]].has_default \
            and rest[0] == positional[-1]:
        return rest[0]
    return None


def _is(a, kind):
    """A required (not optional) argument of `kind`, as kf_arg_kind_name spells it."""
    return a.kind == kind and not a.optional


def _is_self(a):
    return a.name == "self" and _is(a, "Tensor")


class OpInfo:
    __slots__ = ("name", "schema", "doc", "args", "function", "is_method", "op")


skipped = []  # (op name, why) of ops this frontend cannot call (kernforge.doctor)


def build(C):
    """{full op name: OpInfo} for every op of the registry, with its generated function."""
    infos, sources, env = {}, [], {}
    skipped.clear()
    for i, (name, schema, doc, op, table) in enumerate(C.op_table()):
        if isinstance(op, str):
            skipped.append((name, op))  # reachable through C only
            continue
        args = [Arg(entry) for entry in table]
        fname = name.replace("::", "__")
        env[f"_op{i}"] = op
        env[f"_d{i}"] = [a.default for a in args]
        sources.append(_source(i, fname, args, _varargs_index(args)))
        info = OpInfo()
        info.name, info.schema, info.doc, info.args, info.op = name, schema, doc, args, op
        info.is_method = bool(args) and _is_self(args[0])
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
