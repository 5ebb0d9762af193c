"""Where the time of a few everyday Python paths goes (bench_python.py's "profile"): each
path's statement runs in a loop in a fresh interpreter under `perf record`, and the samples are
split by the library they fell in: the Python interpreter (the loop itself included), the
extension (kernforge._C: argument reading, object wrapping), the core (libkernforge: handle
checks, layouts, dispatch), the CPU plugin's kernels, and the rest (libc, the kernel).

    python3 benchmarks/profile_paths.py [OUT.json]

Needs `perf` (Debian: linux-perf) and a kernel that lets this user record its own processes
(/proc/sys/kernel/perf_event_paranoid <= 2); without them it returns {} and the report says so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import timeit

# The paths profiled: the ones where the Python frontend's share decides the budget.
PATHS = ["a[0, 0]", "float(a[0, 0])", "a[0, 0] = 1.5", "a[1:3, ::2]", "zeros((4, 4))"]
LOOPS = 2_000_000
SETUP = "import kernforge as kf; a = kf.ones((4, 4)); zeros = kf.zeros"

# (share name, test on perf's dso name), in the order the report lists them.
PARTS = [
    ("interpreter", lambda d: d.startswith("python") or d.startswith("libpython")),
    ("extension (_C)", lambda d: d.startswith("_C.")),
    ("core (libkernforge)", lambda d: d.startswith("libkernforge.so")),
    ("cpu plugin", lambda d: d.startswith("libkernforge_cpu")),
]
OTHER = "libc, kernel, other"


def _shares(report: str) -> dict:
    """{part: percent} from `perf report --sort dso --stdio` text."""
    shares = {name: 0.0 for name, _ in PARTS}
    shares[OTHER] = 0.0
    for line in report.splitlines():
        fields = line.split()
        if len(fields) < 2 or not fields[0].endswith("%"):
            continue
        try:
            percent = float(fields[0][:-1])
        except ValueError:
            continue
        part = next((name for name, test in PARTS if test(fields[1])), OTHER)
        shares[part] += percent
    return {k: round(v, 1) for k, v in shares.items()}


def _record(statement: str, data: str) -> str | None:
    code = f"{SETUP}\nfor _ in range({LOOPS}):\n    {statement}\n"
    run = subprocess.run(["perf", "record", "-q", "-o", data, sys.executable, "-c", code],
                         capture_output=True, text=True, env=os.environ)
    if run.returncode != 0:
        return None
    rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "dso",
                          "--no-children"], capture_output=True, text=True)
    return rep.stdout if rep.returncode == 0 else None


def profile() -> dict:
    """{path: {"ns": per call, "shares": {part: percent}}}, or {} without perf."""
    if shutil.which("perf") is None:
        return {}
    import kernforge as kf
    names = {"a": kf.ones((4, 4)), "zeros": kf.zeros}
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in PATHS:
            report = _record(path, os.path.join(tmp, "perf.data"))
            if report is None:
                return {}
            timer = timeit.Timer(path, globals=names)
            number, _ = timer.autorange()
            ns = min(timer.repeat(repeat=5, number=number)) / number * 1e9
            out[path] = {"ns": round(ns, 1), "shares": _shares(report)}
    return out


if __name__ == "__main__":
    result = profile()
    text = json.dumps(result, indent=1)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            f.write(text)
    print(text)
