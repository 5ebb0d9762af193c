"""The type stub __init__.pyi that the build writes from the live package (_stubgen.py)."""

import ast
import os

import pytest

import kernforge as kf


@pytest.fixture(scope="module")
def stub():
    path = os.path.join(os.path.dirname(kf.__file__), "__init__.pyi")
    if not os.path.exists(path):
        pytest.skip(f"no stub at {path} (this kernforge was not built by CMake)")
    with open(path) as f:
        return ast.parse(f.read(), path)


def defs(body):
    return {n.name: n for n in body if isinstance(n, ast.FunctionDef)}


def test_every_op_and_public_name_is_declared(stub):
    top = defs(stub.body)
    names = top.keys() | {t.target.id for t in stub.body if isinstance(t, ast.AnnAssign)}
    for op in dir(kf.ops):
        if not op.startswith("_") and callable(getattr(kf.ops, op)):
            assert op in names, op
    for name in ("asarray", "tensor", "from_dlpack", "doctor", "float32", "int64"):
        assert name in names, name


def test_ops_are_typed_from_their_schemas(stub):
    add = defs(stub.body)["sub"]  # kf.sub is the op (kf.add is the standard's add(x1, x2, /))
    assert ast.unparse(add.returns) == "Tensor"
    params = {a.arg: ast.unparse(a.annotation) for a in add.args.args + add.args.kwonlyargs}
    assert params["self"] == "Tensor" and params["other"] == "Tensor"
    assert params["alpha"] == "_Number"


def test_every_argument_kind_has_an_annotation():
    """The stub types arguments by kind; the kinds are the C ABI's (KF_ARG_KIND_LIST)."""
    from kernforge import _C, _stubgen
    assert set(_C.arg_kinds) == set(_stubgen._BASE)


def test_tensor_methods_and_protocol(stub):
    cls = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    methods = defs(cls.body)
    for name in ("sum", "matmul", "reshape", "tolist", "numpy", "__add__", "__dlpack__",
                 "__dlpack_device__", "shape", "dtype"):
        assert name in methods, name
    assert ast.unparse(methods["sum"].returns) == "Tensor"
