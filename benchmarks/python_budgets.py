"""The Python frontend's budget rows and section of docs/benchmarks.md (write_report.py renders
them), from the JSON of bench_python.py:

- tiny `a + b` (1-element float32, new result): within 1.25x numpy's `np.add` in the same run,
  and at most 350 ns;
- `import kernforge` with every plugin probed: at most 60 ms over a bare interpreter.
"""
from __future__ import annotations

TINY_OVER_NUMPY = 1.25
TINY_NS = 350.0
IMPORT_MS = 60.0


def _row(what: str, measured: str, target: str, ratio: str, ok: bool, fail: str) -> str:
    return f"| {what} | {measured} | {target} | {ratio} | {'within budget' if ok else fail} |"


def python_budget_rows(py: dict | None) -> list[str]:
    if not py:
        return []
    rows = []
    tiny = py.get("tiny_add", {})
    ours, numpy = tiny.get("kernforge a + b"), tiny.get("numpy np.add(x, y)")
    if ours and numpy:
        ns, ref = ours["median_ns"], numpy["median_ns"]
        ratio = ns / ref
        rows.append(_row("Python `a + b` (1 element, new result) vs numpy's `np.add`, same run",
                         f"{ns:.0f} ns vs {ref:.0f} ns",
                         f"≤ {TINY_OVER_NUMPY}× numpy and ≤ {TINY_NS:.0f} ns", f"{ratio:.2f}×",
                         ratio <= TINY_OVER_NUMPY and ns <= TINY_NS, "over budget"))
    imports = py.get("imports", {})
    kf = imports.get("kernforge")
    if kf:
        others = ", ".join(f"`import {k}` {v['import_ms']:.0f} ms" for k, v in imports.items()
                           if k not in ("bare", "kernforge"))
        rows.append(_row(f"`import kernforge`, every plugin probed, over a bare interpreter "
                         f"({others})", f"{kf['import_ms']:.1f} ms", f"≤ {IMPORT_MS:.0f} ms",
                         f"{kf['import_ms'] / IMPORT_MS:.2f}× the budget",
                         kf["import_ms"] <= IMPORT_MS, "over budget"))
    return rows


def python_section(py: dict | None) -> list[str]:
    if not py:
        return []
    versions = ", ".join(f"{k} {v}" for k, v in py.get("versions", {}).items())
    out = ["## Python", "",
           f"`benchmarks/bench_python.py` on Python {py.get('python', '?')} ({versions}). "
           "Tiny ops: each repetition times every candidate once in a shuffled order (timeit, "
           "the best of three loops); medians over the repetitions. Imports: fresh interpreters "
           "started round-robin; medians of the wall-clock time, and the cost over `python -c "
           "pass`.", "",
           "| tiny op | median | min | max |", "|---|---:|---:|---:|"]
    for name, v in py.get("tiny_add", {}).items():
        out.append(f"| {name} | {v['median_ns']:.0f} ns | {v['min_ns']:.0f} ns | "
                   f"{v['max_ns']:.0f} ns |")
    out += ["", "| interpreter | median | min | max | over `pass` |", "|---|---:|---:|---:|---:|"]
    for name, v in py.get("imports", {}).items():
        what = "`python -c pass`" if name == "bare" else f"`import {name}`"
        out.append(f"| {what} | {v['median_ms']:.1f} ms | {v['min_ms']:.1f} ms | "
                   f"{v['max_ms']:.1f} ms | {v['import_ms']:.1f} ms |")
    listing = py.get("listing", {})
    if listing:
        out += ["", "`import kernforge`, `kf.backends()` and one CPU op, fresh interpreters "
                "round-robin, as shipped and with the plugins found unavailable turned off:", "",
                "| `kf.backends()` | median | peak memory |", "|---|---:|---:|"]
        for name, v in listing.items():
            out.append(f"| {name} | {v['median_ms']:.1f} ms | {v['peak_mib']:.1f} MiB |")
    return out
