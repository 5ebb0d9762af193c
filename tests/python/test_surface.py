"""The op surface assembled from the registry: every op is a function with its schema as
docstring, a Tensor method when its first argument is Tensor self, and in kf.ops; the array API
spellings sit beside PyTorch's."""

import inspect
import keyword
import os
import subprocess
import sys
import textwrap

import pytest

import kernforge as kf
from kernforge import _C


def registry():
    return _C.op_list()


def test_every_op_of_the_registry_is_in_kf_ops_with_its_schema_and_doc():
    ops = registry()
    assert len(ops) > 50
    for name, schema, doc in ops:
        f = getattr(kf.ops, name)
        assert f.__doc__.startswith(schema) and doc in f.__doc__, name
        if not name.endswith("_"):
            assert callable(getattr(kf, name)), name


def test_methods_for_ops_whose_first_argument_is_tensor_self():
    for name, schema, _ in registry():
        if "(Tensor self" in schema or "(Tensor(a) self" in schema or "(Tensor(a!) self" in schema:
            assert hasattr(kf.Tensor, name), name
    t = kf.ones((2, 3))
    assert t.transpose(0, 1).shape == (3, 2) and t.reshape(3, 2).shape == (3, 2)
    assert t.reshape((6,)).shape == (6,) and t.permute(1, 0).shape == (3, 2)
    assert t.sum(dim=1, keepdim=True).shape == (2, 1)  # methods keep PyTorch's names


def test_signatures_follow_the_schema():
    sig = inspect.signature(kf.ops.add)
    assert list(sig.parameters) == ["self", "other", "alpha"]
    assert sig.parameters["alpha"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["alpha"].default == 1
    assert kf.ops.add(kf.ones(2), kf.ones(2), alpha=3).tolist() == [4.0, 4.0]
    with pytest.raises(TypeError):
        kf.ops.add(kf.ones(2))


def test_functions_are_built_from_the_c_abis_argument_tables():
    """_C.op_table gives each op's table (kf_op_arg_info); the functions follow it exactly."""
    table = {name: (op, args) for name, _, _, op, args in _C.op_table()}
    assert set(table) == {name for name, _, _ in registry()}
    for name, (op, args) in table.items():
        assert not isinstance(op, str), (name, op)
        params = inspect.signature(getattr(kf.ops, name)).parameters
        for pname, kind, optional, kwonly, has_default, default, written in args:
            p = params[pname + "_" if keyword.iskeyword(pname) else pname]
            assert kind in _C.arg_kinds, (name, pname)
            if p.kind is inspect.Parameter.VAR_POSITIONAL:  # t.reshape(2, 3): a lone int[]
                assert kind == "int[]" and not has_default, name
                continue
            assert (p.kind is inspect.Parameter.KEYWORD_ONLY) == kwonly, (name, pname)
            assert (p.default is not inspect.Parameter.empty) == has_default, (name, pname)
            if has_default:
                assert p.default == default and type(p.default) is type(default), (name, pname)
            # an in-place op writes self and maybe further tensors; an op returning nothing
            # writes tensor lists; nothing else is written
            if name.endswith("_") and pname == "self":
                assert written, name
            if written:
                assert kind == ("Tensor" if name.endswith("_") else "Tensor[]"), (name, pname)
    add = dict((a[0], a) for a in table["add"][1])
    assert add["alpha"] == ("alpha", "Scalar", False, True, True, 1, False)
    assert table["layer_norm"][1][4][5] == 1e-05 and table["amax"][1][1][5] == ()
    assert table["fill_"][0].inplace and not table["add"][0].inplace


def test_array_api_spellings_in_the_namespace():
    x = kf.arange(6).reshape(2, 3)
    assert kf.sum(x, axis=1, keepdims=True).tolist() == [[3], [12]]
    assert kf.concat([x, x], axis=0).shape == (4, 3)
    assert kf.permute_dims(x, (1, 0)).shape == (3, 2)
    assert kf.max(x, axis=0).tolist() == [3, 4, 5]
    assert kf.expand_dims(x, 0).shape == (1, 2, 3)
    assert kf.equal(x, x).all().item() is True
    assert kf.cat([x, x], 1).shape == (2, 6)  # PyTorch's names stay too
    assert kf.var(kf.tensor([1.0, 3.0])).item() == 1.0  # correction 0 (array API)
    assert kf.tensor([1.0, 3.0]).var().item() == 2.0  # the method: PyTorch's correction 1


def _run(code, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=e,
                          capture_output=True, text=True, timeout=120)


def test_ops_a_plugin_defines_appear_under_their_namespace(cdev_dir):
    r = _run("""
        import kernforge as kf
        print(kf.ops.cdev.scale.__doc__.splitlines()[0])
        print(hasattr(kf, "scale"), hasattr(kf.ops.cdev, "axpy"))
        t = kf.ones(3).to("cdev")
        print(kf.ops.cdev.scale(t, 2.0).to("cpu").tolist())
        import inspect
        print(inspect.signature(kf.ops.cdev.axpy), hasattr(kf.Tensor, "axpy"))
        print([a for n, _, _, _, a in kf._C.op_table() if n == "cdev::axpy"])
    """, {"KERNFORGE_PLUGIN_PATH": cdev_dir})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "cdev::scale(Tensor self, float factor) -> Tensor"
    assert lines[1] == "False True" and lines[2] == "[2.0, 2.0, 2.0]"
    assert lines[3] == "(self, other, *, alpha=1) False"  # plugin ops are no Tensor methods
    assert lines[4] == ("[(('self', 'Tensor', False, False, False, None, False), "
                        "('other', 'Tensor', False, False, False, None, False), "
                        "('alpha', 'Scalar', False, True, True, 1, False))]")


def test_load_plugin_adds_its_ops(cdev_dir):
    r = _run(f"""
        import kernforge as kf
        assert not hasattr(kf.ops, "cdev")
        kf.load_plugin({os.path.join(cdev_dir, "cdev.json")!r})
        print(kf.ops.cdev.axpy(kf.ones(2).to("cdev"), kf.ones(2).to("cdev"), alpha=3).to("cpu").tolist())
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[4.0, 4.0]"
