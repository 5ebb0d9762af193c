"""The names in plugins' op schemas and the Python op surface built from them: the core's name
rule (no '__', argument and namespace names never ending with '_') and the frontend's one
renaming (a Python keyword gets '_' appended) agree, so that no schema the core accepts breaks
``import kernforge`` or binds one op's name to another's kernel. The ops come from the schemadev
test plugin (schema_plugin.cpp), which defines the schemas a case writes to a file; each case
runs in a fresh interpreter. A Hypothesis search draws schemas from the core's grammar."""

import json
import keyword
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@pytest.fixture(scope="module")
def schemadev_dir():
    d = os.environ.get("KF_SCHEMADEV_PLUGIN_DIR", "")
    if not d or not os.path.exists(os.path.join(d, "schemadev.json")):
        pytest.skip("KF_SCHEMADEV_PLUGIN_DIR does not name the schemadev test plugin's folder")
    return d


# Run in the child: binds the plugin's ops, calls each generated function with a recorder in
# place of its _C.Op (by position, and by keyword for every argument), and prints one JSON line.
_PROBE = """
    import inspect, json
    import kernforge as kf
    out = {"backend": [(b["state"], b["reason"]) for b in kf.backends() if b["name"] == "schemadev"],
           "skipped": [list(s) for s in kf._ops.skipped], "bound": {},
           "doctor": str(kf.doctor())}
    infos = kf._ops.build(kf._C)
    for name, info in infos.items():
        if "::" not in name or name.startswith("cdev::"):
            continue
        f = info.function
        for key in list(f.__globals__):
            if key.startswith("_op"):
                f.__globals__[key] = lambda *a: a
        params = list(inspect.signature(f).parameters.values())
        pos = [p for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
        kw = [p for p in params if p.kind == p.KEYWORD_ONLY]
        by_position = f(*[f"v{j}" for j in range(len(pos))], **{p.name: p.name for p in kw})
        varargs = any(p.kind == p.VAR_POSITIONAL for p in params)  # f(self, *shape)
        by_keyword = None if varargs else f(**{p.name: p.name for p in params})
        out["bound"][name] = {"params": [p.name for p in params],
                              "by_position": list(by_position),
                              "by_keyword": by_keyword and list(by_keyword)}
    out["kf.ops.add is the core op"] = kf.ops.add.__module__ == "kernforge.ops" and \\
        kf.ops.add.__name__ == "add"
    print(json.dumps(out))
"""


def probe(schemadev_dir, tmp_path, schemas):
    path = tmp_path / "schemas.txt"
    path.write_text("".join(s + "\n" for s in schemas))
    env = dict(os.environ, KERNFORGE_PLUGIN_PATH=schemadev_dir, KF_SCHEMADEV_SCHEMAS=str(path))
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(_PROBE)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


@pytest.mark.parametrize("schema, what", [
    ("kw::debug(Tensor self, int __debug__) -> Tensor", "'__debug__' is not a valid argument"),
    ("kw::under(Tensor self, int _x) -> Tensor", "'_x' is not a valid argument"),
    ("kw::tail(Tensor self, int x_) -> Tensor", "'x_' is not a valid argument"),
    ("kw::b__c(Tensor self) -> Tensor", "'kw::b__c' is not a valid op name"),
    ("kw__b::c(Tensor self) -> Tensor", "'kw__b::c' is not a valid op name"),
    ("kw_::c(Tensor self) -> Tensor", "'kw_::c' is not a valid op name"),
])
def test_names_no_frontend_can_bind_as_they_are_are_refused_by_the_core(
        schemadev_dir, tmp_path, schema, what):
    out = probe(schemadev_dir, tmp_path, [schema])
    (state, reason), = out["backend"]
    assert state == "rejected" and what in reason, out["backend"]
    assert out["bound"] == {}  # import went on without the plugin


def test_a_python_keyword_argument_is_renamed_with_one_trailing_underscore(
        schemadev_dir, tmp_path):
    out = probe(schemadev_dir, tmp_path,
                ["kw::pick(Tensor self, int lambda, *, bool class=False, float match=1.0) -> "
                 "Tensor", "kw::pick2(Tensor self, int lambda_x) -> Tensor"])
    assert out["backend"] == [["loaded", ""]], out
    pick = out["bound"]["kw::pick"]
    assert pick["params"] == ["self", "lambda_", "class_", "match"]
    assert pick["by_keyword"] == ["self", "lambda_", "class_", "match"]
    assert pick["by_position"] == ["v0", "v1", "class_", "match"]
    assert out["bound"]["kw::pick2"]["params"] == ["self", "lambda_x"]


def test_a_plugin_namespace_named_like_a_core_op_is_skipped_and_reported(
        schemadev_dir, tmp_path):
    out = probe(schemadev_dir, tmp_path, ["add::x(Tensor self) -> Tensor",
                                          "kw::fine(Tensor self) -> Tensor"])
    assert out["kf.ops.add is the core op"]
    assert [s for s in out["skipped"] if s[0] == "add::x"], out["skipped"]
    assert "op add::x: not in the Python namespace" in out["doctor"]
    assert "kw::fine" in out["bound"]


# ------------------------------------------------------------------ Hypothesis

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_KEYWORDS = [k for k in keyword.kwlist if k.islower()] + ["match", "case", "type", "self",
                                                         "print", "kf", "op", "ops"]
_word = st.text(_LETTERS + "0123456789", min_size=1, max_size=4).filter(lambda w: w[0].isalpha())
# Names of the core's rule: words joined by single '_'; an op name may end with '_' (in-place).
_name = st.one_of(st.sampled_from(_KEYWORDS),
                  st.lists(_word, min_size=1, max_size=3).map("_".join))
_types = ["Tensor", "Tensor?", "int", "int?", "int[]", "float", "float?", "bool", "Scalar",
          "ScalarType?", "Device?"]
_defaults = {"int": "3", "int?": "None", "int[]": "[]", "float": "1.5", "float?": "None",
             "bool": "True", "Scalar": "2", "ScalarType?": "None", "Device?": "None",
             "Tensor?": "None"}


@st.composite
def _schema(draw, ns):
    names = draw(st.lists(_name.filter(lambda n: n not in ("op", "ops", "self", "args", "call")
                                       and not n.startswith("out")),
                          min_size=0, max_size=6, unique=True))
    parts, defaulted = ["Tensor self"], False
    star_at = draw(st.integers(0, len(names)))
    for j, n in enumerate(names):
        t = draw(st.sampled_from(_types))
        kwonly = j >= star_at
        if kwonly and "*" not in parts:
            parts.append("*")
        give = t in _defaults and (defaulted and not kwonly or draw(st.booleans()))
        defaulted = defaulted or (give and not kwonly)
        parts.append(f"{t} {n}" + (f"={_defaults[t]}" if give else ""))
    op = draw(_name)
    return f"{ns}::{op}({', '.join(parts)}) -> Tensor"


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_schema("fz"), min_size=1, max_size=8,
                unique_by=lambda s: s.split("(")[0]))
def test_every_schema_the_core_accepts_binds_in_schema_order(schemadev_dir, tmp_path_factory,
                                                             schemas):
    out = probe(schemadev_dir, tmp_path_factory.mktemp("fz"), schemas)
    (state, reason), = out["backend"]
    if state != "loaded":  # the grammar drew something the core refuses: a reason, no crash
        assert state == "rejected" and reason, out
        return
    for schema in schemas:
        name = schema.split("(")[0]
        bound = out["bound"].get(name)
        assert bound is not None, (name, out["skipped"])
        expected = ["self"] + [p.split()[1].split("=")[0]
                               for p in schema[schema.index("(") + 1:schema.index(")")]
                               .split(", ")[1:] if p != "*"]
        renamed = [n + "_" if keyword.iskeyword(n) else n for n in expected]
        assert bound["params"] == renamed
        if bound["by_keyword"] is not None:  # each keyword reaches its own schema slot
            assert bound["by_keyword"] == renamed
