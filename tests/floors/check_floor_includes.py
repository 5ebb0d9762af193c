#!/usr/bin/env python3
"""For every pair of the core's floors, checks that a header of one compiles with the other's
include folders exactly when the first stands below the second.

The build writes one line a floor (tests/floors/CMakeLists.txt):
    name|the floors it names BELOW|its own include folder|every include folder it compiles with
A floor stands below another when that one names it BELOW, directly or through floors between.
Each probe is one `#include` of a header of floor G, preprocessed with floor F's include folders
(`-E`: the include lookup is the compiler's, nothing is compiled). It must succeed when G is F or
below F, and fail when G stands above F or beside it.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys


def read_floors(path: str) -> dict[str, dict]:
    floors = {}
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if not line.strip():
                continue
            name, below, own, dirs = line.split("|")
            floors[name] = {"below": [b for b in below.split(";") if b], "own": own,
                            "dirs": [d for d in dirs.split(";") if d]}
    return floors


def below_closure(floors: dict[str, dict], name: str) -> set[str]:
    seen, todo = set(), list(floors[name]["below"])
    while todo:
        lower = todo.pop()
        if lower not in seen:
            seen.add(lower)
            todo.extend(floors[lower]["below"])
    return seen


def a_header(floor: dict, name: str) -> str | None:
    """The first header of the floor's own include/<name>/ folder, as an include names it."""
    folder = os.path.join(floor["own"], name)
    if not os.path.isdir(folder):
        return None  # a floor of generated code only (the op table): nothing to include
    headers = sorted(h for h in os.listdir(folder) if h.endswith((".hpp", ".h")))
    return f"{name}/{headers[0]}" if headers else None


def preprocesses(compiler: str, dirs: list[str], header: str, work: str) -> tuple[bool, str]:
    probe = os.path.join(work, "probe.cpp")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(f'#include "{header}"\n')
    cmd = [compiler, "-std=c++17", "-E", "-o", os.devnull, probe] + [f"-I{d}" for d in dirs]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return done.returncode == 0, done.stderr.strip().splitlines()[0] if done.stderr else ""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--floors", required=True)
    p.add_argument("--compiler", required=True)
    p.add_argument("--work", required=True)
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    floors = read_floors(a.floors)
    unknown = {b for f in floors.values() for b in f["below"]} - set(floors)
    if unknown:
        print(f"error: BELOW names floors that do not exist: {sorted(unknown)}", file=sys.stderr)
        return 1
    errors, probes = [], 0
    for name, floor in sorted(floors.items()):
        visible = below_closure(floors, name) | {name}
        for other in sorted(floors):
            header = a_header(floors[other], other)
            if header is None:
                continue
            ok, message = preprocesses(a.compiler, floor["dirs"], header, a.work)
            probes += 1
            if other in visible and not ok:
                errors.append(f"floor {name} stands above {other} but cannot include {header}: "
                              f"{message}")
            elif other not in visible and ok:
                errors.append(f"floor {name} can include {header}, but {other} is not below it")
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    print(f"{len(floors)} floors, {probes} probes, {len(errors)} wrong")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
