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
    """The Python name of an argument: the schema's, with '_' appended to a Python keyword
    ("lambda" -> "lambda_"). The core's name rule keeps '_' off the end of argument names, so the
    renamed one never meets another argument (docs/plugins.md, "Names")."""
    return a.name + "_" if keyword.iskeyword(a.name) else a.name


class Unbindable(Exception):
    """An op this frontend cannot turn into a Python function (the reason is the message)."""


def _check_params(args):
    """Raises Unbindable unless every argument's Python name is a distinct, plain identifier
    that no generated function's globals (``_op{i}``, ``_d{i}``) can shadow."""
    seen = set()
    for a in args:
        p = _param(a)
        if not p.isidentifier() or not p.isascii() or p.startswith("_") or p == "__debug__":
            raise Unbindable(f"argument name {a.name!r} is not a Python identifier")
        if p in seen:
            raise Unbindable(f"two arguments are named {p!r} in Python")
        seen.add(p)


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


def _entry(i, name, schema, doc, op, table):
    """(OpInfo, its function's source) of one op of the registry; raises Unbindable."""
    args = [Arg(entry) for entry in table]
    _check_params(args)
    source = _source(i, f"_f{i}", args, _varargs_index(args))
    info = OpInfo()
    info.name, info.schema, info.doc, info.args, info.op = name, schema, doc, args, op
    info.is_method = bool(args) and _is_self(args[0])
    info.function = f"_f{i}"  # a private name: the op's own never becomes Python syntax
    return info, source


def _compile(infos, sources, env):
    """Compiles every function in one ``exec`` (import stays fast). Should that fail, each op
    is compiled on its own and the ones that fail are skipped, so that one op never breaks
    ``import kernforge``."""
    try:
        exec(compile("".join(sources.values()), "<kernforge ops>", "exec"), env)
        return
    except Exception:  # noqa: BLE001 -- found again, op by op, below
        pass
    for name, source in sources.items():
        try:
            exec(compile(source, f"<kernforge op {name}>", "exec"), env)
        except Exception as e:  # noqa: BLE001
            skipped.append((name, f"its Python function does not compile: {e}"))
            del infos[name]


def _own_globals(f, i, op):
    """``f`` again with globals of its own: its op and the builtins, nothing else. A function the
    program keeps (in a daemon thread's frame at exit, say) then keeps one op alive, not every
    op of the registry through one shared dict."""
    g = {f"_op{i}": op, "__builtins__": __builtins__}
    own = types.FunctionType(f.__code__, g, f.__name__, f.__defaults__, f.__closure__)
    own.__kwdefaults__ = f.__kwdefaults__
    return own


def build(C):
    """{full op name: OpInfo} for every op of the registry, with its generated function."""
    infos, sources, env, index = {}, {}, {}, {}
    skipped.clear()
    for i, (name, schema, doc, op, table) in enumerate(C.op_table()):
        if isinstance(op, str):
            skipped.append((name, op))  # reachable through C only
            continue
        try:
            infos[name], sources[name] = _entry(i, name, schema, doc, op, table)
        except Unbindable as e:
            skipped.append((name, str(e)))
            continue
        index[name] = i
        env[f"_op{i}"] = op
        env[f"_d{i}"] = [a.default for a in infos[name].args]
    _compile(infos, sources, env)
    for name, info in infos.items():
        f = _own_globals(env[info.function], index[name], info.op)
        short = info.name.split("::")[-1]
        f.__name__ = f.__qualname__ = short
        f.__module__ = "kernforge.ops"
        f.__doc__ = f"{info.schema}\n\n{info.doc}" if info.doc else info.schema
        info.function = f
    env.clear()  # the compiled functions and every op: nothing refers to them from here on
    return infos


def namespace(infos):
    """kf.ops: every op by name, and plugin ops as kf.ops.<namespace>.<name>. A plugin namespace
    spelled like a core op cannot be an attribute beside it: its ops are skipped (doctor)."""
    ops = types.SimpleNamespace()
    for name, info in infos.items():
        if "::" not in name:
            setattr(ops, name, info.function)
    for name, info in infos.items():
        if "::" in name:
            ns, short = name.split("::", 1)
            sub = getattr(ops, ns, None)
            if sub is None:
                sub = types.SimpleNamespace()
                setattr(ops, ns, sub)
            elif not isinstance(sub, types.SimpleNamespace):
                skipped.append((name, f"its namespace {ns!r} is the name of the op kf.ops.{ns}"))
                continue
            setattr(sub, short, info.function)
    return ops
