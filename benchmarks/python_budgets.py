"""The Python frontend's budget rows and section of docs/benchmarks.md (write_report.py renders
them), from the JSON of bench_python.py:

- tiny `a + b` (1-element float32, new result): within 1.25x numpy's `np.add` in the same run,
  and at most 350 ns;
- `import kernforge` with every plugin probed: at most 60 ms over a bare interpreter;
- 16M elements: `kf.sort` (float32) and `kf.unique_values` (int32) at least as fast as numpy's
  `np.sort` and `np.unique`; `kf.flip`, `kf.roll`, `x[mask]` and `kf.take` of a random
  permutation (float32) at least 0.90x the speed of a copy of the same bytes (`x.clone()`);
- the decompositions (solve, inv, cholesky, qr, svd, eigh) of float64: one 1024 x 1024 matrix
  at least 0.95x numpy's speed, and a batch of 256 64 x 64 matrices at least 1.5x (numpy loops
  over a batch on one thread);
- the everyday paths of python_paths.py: each within its budget over numpy, and faster than
  torch, in the same run.
"""
from __future__ import annotations

from python_paths import PATHS

TINY_OVER_NUMPY = 1.25
TINY_NS = 350.0
IMPORT_MS = 60.0
COPY_SPEED = 0.90
# (ours, the reference, the speed ours must reach as a fraction of the reference's)
LARGE_BUDGETS = [
    ("kernforge sort float32", "numpy np.sort float32", 1.0),
    ("kernforge unique_values int32", "numpy np.unique int32", 1.0),
    ("kernforge flip float32", "kernforge copy float32", COPY_SPEED),
    ("kernforge roll float32", "kernforge copy float32", COPY_SPEED),
    ("kernforge x[mask] float32", "kernforge copy float32", COPY_SPEED),
    ("kernforge take float32", "kernforge copy float32", COPY_SPEED),
]


LINALG_OPS = ("solve", "inv", "cholesky", "qr", "svd", "eigh")
# (the problem's label, the speed kernforge must reach as a fraction of numpy's)
LINALG_BUDGETS = [("1024²", 0.95), ("256×64²", 1.5)]
# The transforms of issue 23 (bench_python.py's _fft_candidates): at least numpy's speed.
FFT_BUDGETS = [("kernforge fft.fft 2^22 complex64", "numpy np.fft.fft 2^22 complex64"),
               ("kernforge fft.fft prime 999983 complex64",
                "numpy np.fft.fft prime 999983 complex64"),
               ("kernforge fft.rfftn 4096² float32", "numpy np.fft.rfft2 4096² float32")]


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
    large = py.get("large", {})
    for ours, ref, speed in LARGE_BUDGETS:
        if ours in large and ref in large:
            ms, ref_ms = large[ours]["median_ms"], large[ref]["median_ms"]
            ratio = ref_ms / ms
            rows.append(_row(f"`{ours[len('kernforge '):]}` of 16M elements vs {ref}, same run",
                             f"{ms:.1f} ms vs {ref_ms:.1f} ms", f"≥ {speed:.2f}× its speed",
                             f"{ratio:.2f}×", ratio >= speed, "slower than the budget"))
    rows += _linalg_rows(py.get("linalg", {}))
    rows += _fft_rows(py.get("fft", {}))
    rows += _path_rows(py)
    return rows


def _linalg_rows(linalg: dict) -> list[str]:
    rows = []
    for label, speed in LINALG_BUDGETS:
        for op in LINALG_OPS:
            ours = linalg.get(f"kernforge linalg.{op} {label} float64")
            ref = linalg.get(f"numpy np.linalg.{op} {label} float64")
            if not ours or not ref:
                continue
            ms, ref_ms = ours["median_ms"], ref["median_ms"]
            ratio = ref_ms / ms
            rows.append(_row(f"`linalg.{op}` of {label} float64 vs numpy's, same run",
                             f"{ms:.2f} ms vs {ref_ms:.2f} ms", f"≥ {speed:.2f}× its speed",
                             f"{ratio:.2f}×", ratio >= speed, "slower than the budget"))
    return rows


def _fft_rows(fft: dict) -> list[str]:
    rows = []
    for ours, ref in FFT_BUDGETS:
        if ours not in fft or ref not in fft:
            continue
        ms, ref_ms = fft[ours]["median_ms"], fft[ref]["median_ms"]
        ratio = ref_ms / ms
        rows.append(_row(f"`{ours[len('kernforge '):]}` vs `{ref[len('numpy '):]}`, same run",
                         f"{ms:.1f} ms vs {ref_ms:.1f} ms", "≥ 1.00× its speed", f"{ratio:.2f}×",
                         ratio >= 1.0, "slower than the budget"))
    return rows


def _path_rows(py: dict) -> list[str]:
    """Each everyday path against its budget over numpy (this run's numpy), with the autograd
    layer off and on (grad mode off), and against torch: in this run when this interpreter has
    torch, else in the run beside torch (`beside_torch`, another interpreter with its own
    numpy)."""
    rows = []
    paths, autograd = py.get("paths", {}), py.get("paths_autograd", {})
    beside = py.get("beside_torch", {})
    for row, budget in PATHS:
        ours, numpy = paths.get(row, {}).get("kernforge"), paths.get(row, {}).get("numpy")
        if not ours or not numpy:
            continue
        ratio = ours["median_ns"] / numpy["median_ns"]
        measured = f"{ours['median_ns']:.0f} ns vs numpy's {numpy['median_ns']:.0f} ns"
        ok_numpy, worst = ratio <= budget, ratio
        on = autograd.get(row, {})
        if "kernforge" in on and "numpy" in on:
            on_ratio = on["kernforge"]["median_ns"] / on["numpy"]["median_ns"]
            measured += f"; autograd layer on: {on['kernforge']['median_ns']:.0f} ns " \
                        f"({on_ratio:.2f}×)"
            ok_numpy, worst = ok_numpy and on_ratio <= budget, max(worst, on_ratio)
        versus = _versus_torch(row, paths, autograd, beside)
        beats_torch = all(ours_ns < torch_ns for _, ours_ns, torch_ns in versus)
        if versus:
            measured += "; vs torch: " + ", ".join(
                f"{ours_ns:.0f} vs {torch_ns:.0f} ns {what}" for what, ours_ns, torch_ns in versus)
        rows.append(_row(f"Python `{row}` vs numpy and torch", measured,
                         f"≤ {budget}× numpy, faster than torch", f"{worst:.2f}×",
                         ok_numpy and beats_torch and bool(versus),
                         "over budget" if not ok_numpy else
                         "slower than torch" if versus else "torch not measured"))
    return rows


def _versus_torch(row: str, paths: dict, autograd: dict, beside: dict) -> list[tuple]:
    """(which run, kernforge ns, torch ns) for each run that timed torch on `row`."""
    out = []
    for what, timings in (("(layer off)", paths), ("(layer on)", autograd),
                          ("(layer off, beside torch)", beside.get("paths", {})),
                          ("(layer on, beside torch)", beside.get("paths_autograd", {}))):
        libs = timings.get(row, {})
        if "kernforge" in libs and "torch" in libs:
            out.append((what, libs["kernforge"]["median_ns"], libs["torch"]["median_ns"]))
    return out


def _profile_rows(profile: dict) -> list[str]:
    """Where a few paths spend their time (profile_paths.py), or why that is not shown."""
    if not profile:
        return ["", "Where the paths spend their time: not measured (`perf` missing or not "
                "allowed to record; see benchmarks/profile_paths.py)."]
    parts = list(next(iter(profile.values()))["shares"])
    out = ["", "Where the paths spend their time: `perf record` of each statement in a loop "
           "(benchmarks/profile_paths.py), the share of the samples in each library; the "
           "interpreter's share includes the loop itself, and the time per call is timeit's "
           "best, apart from the medians above:", "",
           "| path | per call | " + " | ".join(parts) + " |", "|---|---:|" + "---:|" * len(parts)]
    for path, v in profile.items():
        out.append(f"| `{path}` | {v['ns']:.0f} ns | "
                   + " | ".join(f"{v['shares'][p]:.0f}%" for p in parts) + " |")
    return out


def _paths_table(paths: dict, title: str) -> list[str]:
    """A table of the everyday paths' medians per library, with kernforge over numpy."""
    if not paths:
        return []
    libs = [lib for lib in ("kernforge", "numpy", "torch") if any(lib in v for v in paths.values())]
    out = ["", f"{title}:", "", "| path | " + " | ".join(libs) + " | kernforge / numpy |",
           "|---|" + "---:|" * (len(libs) + 1)]
    for row, v in paths.items():
        cells = [f"{v[lib]['median_ns']:,.0f} ns" if lib in v else "—" for lib in libs]
        ratio = (f"{v['kernforge']['median_ns'] / v['numpy']['median_ns']:.2f}×"
                 if "kernforge" in v and "numpy" in v else "—")
        out.append(f"| `{row}` | " + " | ".join(cells) + f" | {ratio} |")
    return out


def _timing_table(timings: dict, digits: int, what: str) -> list[str]:
    """A table of millisecond timings, each candidate once a repetition in a shuffled order."""
    if not timings:
        return []
    out = ["", f"{what}, each candidate once a repetition in a shuffled order:", "",
           "| operation | median | min | max |", "|---|---:|---:|---:|"]
    for name, v in timings.items():
        out.append(f"| {name} | {v['median_ms']:.{digits}f} ms | {v['min_ms']:.{digits}f} ms | "
                   f"{v['max_ms']:.{digits}f} ms |")
    return out


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
    out += _paths_table(py.get("paths", {}), "Everyday paths on a 4x4 float32 array (`lst`: 1M "
                        "floats), medians")
    out += _paths_table(py.get("paths_autograd", {}), "The same with kernforge's autograd layer "
                        "installed and grad mode off (timed last in the run), medians")
    beside = py.get("beside_torch")
    if beside:
        versions = ", ".join(f"{k} {v}" for k, v in beside.get("versions", {}).items())
        out += _paths_table(beside.get("paths", {}), f"Beside torch: the same paths in Python "
                            f"{beside.get('python', '?')} ({versions}), which has torch "
                            "(`bench_python.py --paths-only`, started by run.sh), medians")
        out += _paths_table(beside.get("paths_autograd", {}), "Beside torch, with kernforge's "
                            "autograd layer installed and grad mode off in both, medians")
    out += _profile_rows(py.get("profile", {}))
    out += _timing_table(py.get("large", {}), 1, "Large arrays (16M elements)")
    out += _timing_table(py.get("linalg", {}), 2,
                         "Decompositions of float64 (`benchmarks/bench_python.py`'s "
                         "`_linalg_candidates`: one 1024 x 1024 matrix, a batch of 256 64 x 64 "
                         "ones; numpy with its own OpenBLAS)")
    out += _timing_table(py.get("fft", {}), 1,
                         "Fourier transforms (`benchmarks/bench_python.py`'s `_fft_candidates`; "
                         "numpy's np.fft is pocketfft)")
    listing = py.get("listing", {})
    if listing:
        out += ["", "`import kernforge`, `kf.backends()` and one CPU op, fresh interpreters "
                "round-robin, as shipped and with the plugins found unavailable turned off:", "",
                "| `kf.backends()` | median | peak memory |", "|---|---:|---:|"]
        for name, v in listing.items():
            out.append(f"| {name} | {v['median_ms']:.1f} ms | {v['peak_mib']:.1f} MiB |")
    return out
