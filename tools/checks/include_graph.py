#!/usr/bin/env python3
"""Draws the repository's include graph as floors and fails on any arrow that climbs back up.

Every `#include` of the C, C++, CUDA and OpenCL sources, and every module-level import inside a
Python package, is an arrow from the file that writes it to the file it names. An include is
looked up the way the build looks it up: next to the including file, then in every folder named
`include` in the tree (each floor's own, the public headers', the SDK's). What resolves to no
file of the tree (the system's headers, generated ones) is no arrow.

At every folder, the arrows between its children (its subfolders and its files) must point one
way: the children then stand on floors, each one above everything it includes. An arrow inside a
circle of children climbs back up, at that level, and fails the check with the files and lines
that make the circle. The top level is drawn, floor by floor, whether the check passes or not;
`--all` draws every folder.

    python3 tools/checks/include_graph.py [--root DIR] [--all]

Exits 0 when no arrow climbs back, 1 when one does, 2 on a usage error.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from collections import defaultdict

C_SUFFIXES = (".c", ".h", ".cc", ".cpp", ".hpp", ".cu", ".cuh", ".inc", ".cl")
SKIPPED_DIRS = {".git", "build", "__pycache__", "node_modules"}
C_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
PY_FROM = re.compile(r"^from\s+(\.*)([\w.]*)\s+import\s+(.+)")
PY_IMPORT = re.compile(r"^import\s+([\w.]+)")


def source_files(root: str) -> list[str]:
    """Every C-family and Python file under root, as paths relative to it, sorted."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in files:
            if name.endswith(C_SUFFIXES) or name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(found)


def include_roots(files: list[str]) -> list[str]:
    """The folders named `include` that hold some source file, outermost first."""
    roots = set()
    for path in files:
        parts = path.split(os.sep)
        for i, part in enumerate(parts[:-1]):
            if part == "include":
                roots.add(os.sep.join(parts[: i + 1]))
    return sorted(roots, key=lambda r: (r.count(os.sep), r))


class Resolver:
    """Turns what an include or import names into a file of the tree, or None."""

    def __init__(self, files: list[str]):
        self.files = set(files)
        self.roots = include_roots(files)

    def include(self, src: str, name: str) -> str | None:
        here = os.path.normpath(os.path.join(os.path.dirname(src), name))
        if here in self.files:
            return here
        for root in self.roots:
            candidate = os.path.normpath(os.path.join(root, name))
            if candidate in self.files:
                return candidate
        return None

    def module(self, src: str, dots: str, name: str) -> str | None:
        """A Python module named relatively (`from .x import`) or through its package."""
        if dots:
            base = os.path.dirname(src)
            for _ in range(len(dots) - 1):
                base = os.path.dirname(base)
        else:
            base = self.package_parent(src)
            if base is None:
                return None
        path = os.path.join(base, *name.split(".")) if name else base
        for candidate in (path + ".py", os.path.join(path, "__init__.py")):
            candidate = os.path.normpath(candidate)
            if candidate in self.files:
                return candidate
        return None

    def package_parent(self, src: str) -> str | None:
        """The folder above the outermost package holding src (absolute imports start there)."""
        folder = os.path.dirname(src)
        parent = None
        while folder and os.path.join(folder, "__init__.py") in self.files:
            parent = os.path.dirname(folder)
            folder = parent
        return parent


def python_targets(resolver: Resolver, src: str, line: str) -> list[str]:
    """The modules a module-level import line names (indented imports run late: no arrow)."""
    m = PY_FROM.match(line)
    if m:
        dots, name, names = m.groups()
        target = resolver.module(src, dots, name)
        if target is not None and not target.endswith("__init__.py"):
            return [target]
        # `from . import a, b`: each name that is a module of the package is an arrow to it; a
        # name that is none (an extension module such as _C, or a name the package defines)
        # names no source file.
        found = []
        for item in names.strip("()").split(","):
            item = item.split(" as ")[0].strip()
            found.append(resolver.module(src, dots, f"{name}.{item}" if name else item))
        return [t for t in found if t is not None]
    m = PY_IMPORT.match(line)
    if m:
        target = resolver.module(src, "", m.group(1))
        return [target] if target is not None else []
    return []


def file_arrows(root: str, files: list[str]) -> list[tuple[str, str, int]]:
    """(from, to, line) for every include and import that names a file of the tree."""
    resolver = Resolver(files)
    arrows = []
    for src in files:
        with open(os.path.join(root, src), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            if src.endswith(".py"):
                targets = python_targets(resolver, src, line)
            else:
                m = C_INCLUDE.match(line)
                targets = [resolver.include(src, m.group(1))] if m else []
            arrows.extend((src, t, number) for t in targets if t is not None and t != src)
    return arrows


def level_arrows(arrows):
    """{folder: {(child, child): [(from, to, line), ...]}}: each arrow at the folder where its
    two ends part, between the two children of that folder that hold them."""
    levels = defaultdict(lambda: defaultdict(list))
    for src, dst, line in arrows:
        a, b = src.split(os.sep), dst.split(os.sep)
        i = 0
        while i < min(len(a), len(b)) - 1 and a[i] == b[i]:
            i += 1
        folder = os.sep.join(a[:i]) or "."
        levels[folder][(a[i], b[i])].append((src, dst, line))
    return levels


def circles(pairs) -> list[list[str]]:
    """The strongly connected groups of more than one child (Tarjan), each sorted."""
    graph = defaultdict(set)
    for a, b in pairs:
        graph[a].add(b)
        graph.setdefault(b, set())
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def floors(children, pairs) -> list[list[str]]:
    """Children by floor, the ground first: a child stands one floor above the highest child it
    includes. An arrow that closes a circle is left out of the drawing (it is an error)."""
    below = defaultdict(set)
    for a, b in pairs:
        below[a].add(b)
    height, visiting = {}, set()

    def floor_of(c):
        if c in visiting:
            return -1
        if c not in height:
            visiting.add(c)
            height[c] = 1 + max((floor_of(b) for b in sorted(below[c])), default=-1)
            visiting.discard(c)
        return height[c]

    by_floor = defaultdict(list)
    for c in sorted(children):
        by_floor[floor_of(c)].append(c)
    return [by_floor[f] for f in sorted(by_floor)]


def draw(folder, root, pairs) -> str:
    children = set(os.listdir(os.path.join(root, folder)))
    children = {c for c in children if c not in SKIPPED_DIRS and not c.startswith(".")}
    children |= {c for pair in pairs for c in pair}
    lines = [f"{folder}/ (the ground last):"]
    for number, group in reversed(list(enumerate(floors(children, pairs)))):
        lines.append(f"  floor {number}: {'  '.join(group)}")
    return "\n".join(lines)


def report_circle(folder, group, pairs) -> list[str]:
    out = [f"error: in {folder}/, {' <-> '.join(group)} include each other in a circle:"]
    for (a, b), examples in sorted(pairs.items()):
        if a in group and b in group:
            src, dst, line = examples[0]
            more = f" (and {len(examples) - 1} more)" if len(examples) > 1 else ""
            out.append(f"  {a} -> {b}: {src}:{line} includes {dst}{more}")
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    p.add_argument("--all", action="store_true", help="draw every folder, not only the top")
    a = p.parse_args()
    root = os.path.abspath(a.root)
    if not os.path.isdir(root):
        print(f"error: {root} is not a folder", file=sys.stderr)
        return 2
    files = source_files(root)
    levels = level_arrows(file_arrows(root, files))
    errors = []
    for folder in sorted(levels):
        pairs = levels[folder]
        for group in circles(pairs):
            errors.extend(report_circle(folder, group, pairs))
    print(draw(".", root, levels.get(".", {})))
    if a.all:
        for folder in sorted(f for f in levels if f != "."):
            print(draw(folder, root, {k: v for k, v in levels[folder].items()}))
    arrow_count = sum(len(v) for level in levels.values() for v in level.values())
    print(f"{len(files)} files, {arrow_count} arrows, {len(levels)} folders with arrows")
    for line in errors:
        print(line, file=sys.stderr)
    if errors:
        print("Each circle needs one of its arrows turned around: move what both sides need to "
              "the lower one, or reach the upper one through an interface the lower one owns.",
              file=sys.stderr)
        return 1
    print("no arrow climbs back up at any level")
    return 0


if __name__ == "__main__":
    sys.exit(main())
