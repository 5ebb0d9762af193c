"""The Python frontend's speed, side by side with numpy and torch (where installed) in the same
run; writes JSON for write_report.py (--python).

    python3 benchmarks/bench_python.py OUT.json [--repetitions 15] [--import-runs 30]

- Tiny `a + b`: two 1-element float32 operands, a new result each call: kernforge's Tensor,
  numpy's `np.add(x, y)` and `x + y`, torch's `a + b`. Each repetition times every candidate
  once (timeit, best of its loop), in a shuffled order, so a change of machine load hits them
  all; the figures are the medians over the repetitions, in ns per call.
- Everyday paths (python_paths.py): views, basic indexing, scalar reads, item assignment,
  iteration, small factories and lists on a 4x4 float32 array, in kernforge, numpy and torch,
  timed the same way.
- Large arrays (16M elements): `kf.sort` and `kf.argsort` of float32 against `np.sort` and
  `np.argsort(kind="stable")`, `kf.unique_values` of int32 against `np.unique`, and
  `kf.flip` (`x[::-1]` is a view, which copies nothing), `kf.roll`, a bool-mask read
  `x[mask]` and `kf.take` of a random permutation of float32 against a copy of the same
  bytes (`x.clone()`, numpy's `x.copy()`, `x[mask]` and `np.take` beside them). Each
  repetition times every candidate once, in a shuffled order; medians in ms.
- Profile (profile_paths.py, where `perf` can record): the share of a few paths' time that
  falls in the interpreter, the extension, the core, the CPU plugin and the rest.
- Import: fresh interpreters `python -c "import kernforge"` (every plugin probed: `import`
  starts the runtime), `import numpy`, `import torch`, and `python -c pass`, started round-robin
  after one warm-up round; the figures are medians of the wall-clock time in ms, and each
  import's cost is its median minus the bare interpreter's.
The interpreter is this one; kernforge is whichever `import kernforge` finds (PYTHONPATH).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import timeit

import profile_paths


def _candidates():
    import numpy as np

    import kernforge as kf
    a, b = kf.ones(1), kf.ones(1)
    x, y = np.ones(1, np.float32), np.ones(1, np.float32)
    out = {"kernforge a + b": lambda: a + b, "numpy np.add(x, y)": lambda: np.add(x, y),
           "numpy x + y": lambda: x + y}
    versions = {"kernforge": kf.__version__, "numpy": np.__version__}
    try:
        import torch
        torch.set_num_threads(1)
        ta, tb = torch.ones(1), torch.ones(1)
        out["torch a + b"] = lambda: ta + tb
        versions["torch"] = torch.__version__
    except ImportError:
        pass
    return out, versions


def _medians(candidates: dict, repetitions: int) -> dict:
    """Each repetition times every candidate (a callable or a timeit.Timer) once (the best of
    three loops), in a shuffled order; medians, minima and maxima over the repetitions, in ns
    per call."""
    samples = {name: [] for name in candidates}
    order = list(candidates)
    for _ in range(repetitions):
        random.shuffle(order)
        for name in order:
            c = candidates[name]
            timer = c if isinstance(c, timeit.Timer) else timeit.Timer(c)
            number, _ = timer.autorange()
            best = min(timer.repeat(repeat=3, number=number)) / number
            samples[name].append(best * 1e9)
    return {name: {"median_ns": statistics.median(v), "min_ns": min(v), "max_ns": max(v)}
            for name, v in samples.items()}


def time_tiny(repetitions: int) -> tuple[dict, dict]:
    candidates, versions = _candidates()
    return _medians(candidates, repetitions), versions


def time_paths(repetitions: int, autograd: bool = False) -> dict:
    """The rows of python_paths.PATHS in kernforge, numpy and torch (where installed):
    {row: {library: timing}}. With `autograd`, kernforge's autograd layer is installed first
    (a tensor that requires grad registers it for the rest of the process) and grad mode is
    off, as in an inference loop of a training program; torch's grad mode is off too."""
    import numpy as np

    import kernforge as kf
    import python_paths
    if autograd:
        kf.ones(1, requires_grad=True)
        kf.set_grad_enabled(False)
    lst = [float(i) for i in range(1 << 20)]
    libs = {"kernforge": (kf, kf.ones((4, 4))), "numpy": (np, np.ones((4, 4), np.float32))}
    try:
        import torch
        torch.set_grad_enabled(not autograd)
        libs["torch"] = (torch, torch.ones(4, 4))
    except ImportError:
        pass
    candidates = {}
    for lib, (module, a) in libs.items():
        for row, timer in python_paths.timers(lib, a, lst, module).items():
            candidates[(row, lib)] = timer
    timed = _medians(candidates, repetitions)
    out = {row: {} for row, _ in python_paths.PATHS}
    for (row, lib), v in timed.items():
        out[row][lib] = v
    return out


def time_paths_beside_torch(repetitions: int) -> dict:
    """The everyday paths in an interpreter that has torch (run.sh starts this one with
    --paths-only when the main interpreter lacks torch): plain, then with the autograd layer
    installed and grad mode off."""
    import numpy as np
    import torch

    import kernforge as kf
    return {"python": platform.python_version(),
            "versions": {"kernforge": kf.__version__, "numpy": np.__version__,
                         "torch": torch.__version__},
            "paths": time_paths(repetitions),
            "paths_autograd": time_paths(repetitions, autograd=True)}


LARGE = 1 << 24


def _large_candidates():
    import numpy as np

    import kernforge as kf
    rng = np.random.default_rng(0)
    f = rng.standard_normal(LARGE, dtype=np.float32)
    i = rng.integers(0, 1 << 20, LARGE, dtype=np.int32)
    mask = f > 0
    perm = rng.permutation(LARGE)  # int64: every element once, in a random order
    kf_f, kf_i, kf_mask, kf_perm = kf.asarray(f), kf.asarray(i), kf.asarray(mask), kf.asarray(perm)
    return {
        "kernforge sort float32": lambda: kf.sort(kf_f),
        "numpy np.sort float32": lambda: np.sort(f),
        "kernforge argsort float32": lambda: kf.argsort(kf_f),
        "numpy np.argsort float32": lambda: np.argsort(f, kind="stable"),
        "kernforge unique_values int32": lambda: kf.unique_values(kf_i),
        "numpy np.unique int32": lambda: np.unique(i),
        "kernforge copy float32": lambda: kf_f.clone(),
        "numpy copy float32": lambda: f.copy(),
        "kernforge flip float32": lambda: kf.flip(kf_f),
        "kernforge roll float32": lambda: kf.roll(kf_f, 1000),
        "kernforge x[mask] float32": lambda: kf_f[kf_mask],
        "numpy x[mask] float32": lambda: f[mask],
        "kernforge take float32": lambda: kf.take(kf_f, kf_perm),
        "numpy np.take float32": lambda: np.take(f, perm),
    }


LINALG_N, LINALG_BATCH, LINALG_SMALL = 1024, 256, 64


LINALG_SHAPES = {"1024²": (LINALG_N, LINALG_N),
                 "256×64²": (LINALG_BATCH, LINALG_SMALL, LINALG_SMALL)}


def _linalg_candidates(label):
    """The decompositions of issue 23's budgets, float64, kernforge against numpy, on one of
    LINALG_SHAPES: one 1024 x 1024 matrix, or a batch of 256 64 x 64 ones (numpy loops over a
    batch on one thread; OpenBLAS threads one large call). Each shape is timed as a group of
    its own: after a large call, both libraries' OpenBLAS threads spin for a while, and on two
    cores a spinning thread takes one from whatever runs next (a batch on two threads lost
    half its speed to it, and varied 3x between repetitions)."""
    import numpy as np

    import kernforge as kf
    rng = np.random.default_rng(1)
    out = {}
    shape = LINALG_SHAPES[label]
    a = rng.standard_normal(shape)
    n = shape[-1]
    spd = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)  # symmetric positive-definite
    b = rng.standard_normal(shape[:-1] + (1,))
    x, xs, xb = kf.asarray(a), kf.asarray(spd), kf.asarray(b)
    for name, ours, ref in (
            ("solve", lambda x=x, xb=xb: kf.linalg.solve(x, xb),
             lambda a=a, b=b: np.linalg.solve(a, b)),
            ("inv", lambda x=x: kf.linalg.inv(x), lambda a=a: np.linalg.inv(a)),
            ("cholesky", lambda xs=xs: kf.linalg.cholesky(xs),
             lambda spd=spd: np.linalg.cholesky(spd)),
            ("qr", lambda x=x: kf.linalg.qr(x), lambda a=a: np.linalg.qr(a)),
            ("svd", lambda x=x: kf.linalg.svd(x), lambda a=a: np.linalg.svd(a)),
            ("eigh", lambda xs=xs: kf.linalg.eigh(xs), lambda spd=spd: np.linalg.eigh(spd))):
        out[f"kernforge linalg.{name} {label} float64"] = ours
        out[f"numpy np.linalg.{name} {label} float64"] = ref
    return out


FFT_POW2, FFT_PRIME, FFT_SIDE = 1 << 22, 999983, 4096


def _fft_candidates():
    """The transforms of issue 23's budgets, kernforge against numpy's np.fft (pocketfft):
    fft of 2^22 complex64, of a prime length near 10^6 (999983) complex64, and rfft2 of
    4096 x 4096 float32."""
    import numpy as np

    import kernforge as kf
    rng = np.random.default_rng(2)
    out = {}
    for label, n in (("2^22", FFT_POW2), ("prime 999983", FFT_PRIME)):
        a = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
        x = kf.asarray(a)
        out[f"kernforge fft.fft {label} complex64"] = lambda x=x: kf.fft.fft(x)
        out[f"numpy np.fft.fft {label} complex64"] = lambda a=a: np.fft.fft(a)
    image = rng.standard_normal((FFT_SIDE, FFT_SIDE)).astype(np.float32)
    x = kf.asarray(image)
    out["kernforge fft.rfftn 4096² float32"] = lambda x=x: kf.fft.rfftn(x)
    out["numpy np.fft.rfft2 4096² float32"] = lambda a=image: np.fft.rfft2(a)
    return out


# Seconds each large candidate waits before it runs: after a call that threads, OpenBLAS's
# workers (kernforge's and numpy's, two pools) keep spinning for a while, and on two cores a
# spinning worker takes a core from whatever runs next (docs/benchmarks.md, "Beside numpy in
# one process"). The wait lets them sleep, so each candidate is timed on an idle machine.
SETTLE_S = 0.3


def time_large(repetitions: int, candidates=None) -> dict:
    candidates = _large_candidates() if candidates is None else candidates
    samples = {name: [] for name in candidates}
    order = list(candidates)
    for _ in range(repetitions):
        random.shuffle(order)
        for name in order:
            time.sleep(SETTLE_S)
            start = time.perf_counter()
            candidates[name]()
            samples[name].append((time.perf_counter() - start) * 1e3)
    return {name: {"median_ms": statistics.median(v), "min_ms": min(v), "max_ms": max(v)}
            for name, v in samples.items()}


def time_imports(runs: int) -> dict:
    kinds = {"bare": "pass", "kernforge": "import kernforge", "numpy": "import numpy"}
    try:
        import torch  # noqa: F401
        kinds["torch"] = "import torch"
    except ImportError:
        pass
    walls = {k: [] for k in kinds}
    for round_ in range(runs + 1):
        for kind, code in kinds.items():
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            if round_:  # round 0 warms the page cache
                walls[kind].append((time.perf_counter() - start) * 1e3)
    bare = statistics.median(walls["bare"])
    return {k: {"median_ms": statistics.median(v), "min_ms": min(v), "max_ms": max(v),
                "import_ms": statistics.median(v) - bare} for k, v in walls.items()}


_LISTING = "import kernforge as kf; kf.backends(); kf.ones(2) + kf.ones(2)"


def _unavailable() -> str:
    code = "import kernforge as kf; print(','.join(b['name'] for b in kf.backends() " \
           "if b['state'] == 'unavailable'))"
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True).stdout.strip()


def time_listing(runs: int) -> dict:
    """`kf.backends()` and one CPU op in fresh interpreters, as shipped and with the plugins it
    finds unavailable turned off: wall-clock medians and the children's peak memory."""
    off = _unavailable()
    kinds = {"as shipped": {}, f"{off or 'none'} disabled": {"KERNFORGE_DISABLE_PLUGINS": off}}
    walls = {k: [] for k in kinds}
    peaks = {k: [] for k in kinds}
    for round_ in range(runs + 1):
        for kind, extra in kinds.items():
            start = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-c", _LISTING], env={**os.environ, **extra})
            _, status, usage = os.wait4(child.pid, 0)
            if status != 0:
                raise RuntimeError(f"the listing child ({kind}) failed")
            if round_:
                walls[kind].append((time.perf_counter() - start) * 1e3)
                peaks[kind].append(usage.ru_maxrss / 1024)
    return {k: {"median_ms": statistics.median(walls[k]), "peak_mib": statistics.median(peaks[k])}
            for k in kinds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json")
    parser.add_argument("--repetitions", type=int, default=15)
    parser.add_argument("--import-runs", type=int, default=30)
    parser.add_argument("--large-repetitions", type=int, default=7)
    parser.add_argument("--linalg-repetitions", type=int, default=5)
    parser.add_argument("--fft-repetitions", type=int, default=5)
    parser.add_argument("--paths-only", action="store_true",
                        help="only the everyday paths, plain and with the autograd layer, "
                        "beside torch (which this interpreter must have)")
    parser.add_argument("--beside-torch", type=argparse.FileType(),
                        help="the JSON of a --paths-only run, kept in this run's JSON")
    args = parser.parse_args()
    if args.paths_only:
        with open(args.json, "w") as f:
            json.dump(time_paths_beside_torch(args.repetitions), f, indent=1)
        return
    tiny, versions = time_tiny(args.repetitions)
    result = {"python": platform.python_version(), "versions": versions, "tiny_add": tiny,
              "paths": time_paths(args.repetitions),
              "large": time_large(args.large_repetitions),
              "linalg": {name: t for label in LINALG_SHAPES for name, t in
                         time_large(args.linalg_repetitions, _linalg_candidates(label)).items()},
              "fft": time_large(args.fft_repetitions, _fft_candidates()),
              "imports": time_imports(args.import_runs),
              "listing": time_listing(args.import_runs // 3 or 1),
              "profile": profile_paths.profile()}
    # last: the autograd layer stays installed for the rest of the process
    result["paths_autograd"] = time_paths(args.repetitions, autograd=True)
    if args.beside_torch:
        result["beside_torch"] = json.load(args.beside_torch)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    for name, v in tiny.items():
        print(f"{name:24s} {v['median_ns']:8.1f} ns")
    for row, libs in result["paths"].items():
        print(f"{row:28s} " + "  ".join(f"{lib} {v['median_ns']:8.0f} ns"
                                        for lib, v in libs.items()))
    for name, v in {**result["large"], **result["linalg"], **result["fft"]}.items():
        print(f"{name:32s} {v['median_ms']:8.1f} ms")
    for name, v in result["imports"].items():
        print(f"import {name:12s} {v['median_ms']:8.1f} ms (import cost {v['import_ms']:.1f} ms)")


if __name__ == "__main__":
    main()
