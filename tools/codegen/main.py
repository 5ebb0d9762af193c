"""kernforge code generator: dispatcher/ops.yaml (and derivatives.yaml beside it) -> op tables, the core's C++ op functions, C
entry points, plugin helpers, C++ frontend, docs, the Python package's array API spellings. Run by CMake at build time:

    python3 main.py --schema dispatcher/ops.yaml --out <build>/generated

Exits 1 with `file:line: reason` on a bad schema. Files whose content is unchanged are not
rewritten, so a schema edit rebuilds only what depends on what changed.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import derivatives  # noqa: E402
import gen_autograd  # noqa: E402
import gen_c  # noqa: E402
import gen_core  # noqa: E402
import gen_cpp  # noqa: E402
import gen_docs  # noqa: E402
import gen_kinds  # noqa: E402
import gen_plugin  # noqa: E402
import gen_python  # noqa: E402
import gen_runtime_helpers  # noqa: E402
import gen_table  # noqa: E402
import schema  # noqa: E402


def write_if_changed(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def outputs(ops: list[schema.Op], grads: derivatives.Table | None = None) -> dict[str, str]:
    """Every generated file by its path under --out (grads: the backward formulas, none for a
    schema checked alone)."""
    grads = grads or derivatives.Table([], [], {}, [], {})
    return {
        "floors/autograd/formula_helpers.hpp": gen_autograd.helpers_hpp(grads),
        "floors/autograd/derivatives.cpp": gen_autograd.source(grads),
        "floors/autograd/runtime_helpers.cpp": gen_runtime_helpers.source(grads),
        "floors/autograd/core_formulas.inc": gen_runtime_helpers.core_formulas(grads),
        "include/kernforge/kernforge_ops.h": gen_c.header(ops),
        "include/kernforge/kernforge_arg_kinds.h": gen_kinds.c_header(),
        "floors/capi/c_entry_points.cpp": gen_c.source(ops),
        "floors/registry/op_ids.hpp": gen_table.op_ids(ops),
        "floors/registry/arg_kinds.inc": gen_kinds.core_inc(),
        "floors/op_table/op_table.cpp": gen_table.table(ops),
        "floors/dispatch/core_ops.hpp": gen_core.header(ops),
        "floors/dispatch/core_ops.cpp": gen_core.source(ops),
        "include/kernforge/plugin_ops.hpp": gen_plugin.header(ops),
        "include/kernforge/tensor_methods.inc": gen_cpp.methods_inc(ops),
        "include/kernforge/kernforge_ops.hpp": gen_cpp.ops_hpp(ops),
        "docs/ops.md": gen_docs.ops_md(ops),
        "python/_array_api_ops.py": gen_python.module(ops),
    }


def derivatives_path(schema_path: str) -> str:
    """The backward formulas live beside the schema."""
    return os.path.join(os.path.dirname(os.path.abspath(schema_path)), "derivatives.yaml")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--schema", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--list", action="store_true", help="print the files it writes and exit")
    a = p.parse_args()
    try:
        ops = schema.load(a.schema)
        grads = derivatives.load(derivatives_path(a.schema), ops)
    except schema.SchemaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for rel, text in outputs(ops, grads).items():
        if a.list:
            print(rel)
        else:
            write_if_changed(os.path.join(a.out, rel), text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
