"""Safetensors save and load throughput beside the reference package's numpy API, in one process:

    PYTHONPATH=build/release/python python3 benchmarks/bench_safetensors.py [--mb 100] [--dir D]

A state dict of `--mb` MB (float32 matrices of 1024x1024, 4 MiB each, plus a few small bias
vectors) is written and read back with `kernforge.save_file` / `kernforge.load_file` and with
`safetensors.numpy.save_file` / `load_file` of the same arrays, interleaved, 7 rounds after one
warm-up; the medians in MB/s (10^6 bytes). The file lands in `--dir` (default: the system's
temporary folder), so a load reads from the page cache: the figures are the formats' and
libraries' cost, not the disk's. Loads include making the tensors (kernforge) or arrays (numpy).
Prints a Markdown table; no figure here is a pass/fail test.
"""

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

import kernforge as kf
from safetensors import numpy as stnp


def state_dict(mb):
    rng = np.random.default_rng(0)
    arrays, total, i = {}, 0, 0
    while total < mb * 1e6:
        arrays[f"layer{i}.weight"] = rng.standard_normal((1024, 1024), dtype=np.float32)
        arrays[f"layer{i}.bias"] = rng.standard_normal(1024, dtype=np.float32)
        total += 1025 * 1024 * 4
        i += 1
    return arrays, total


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    args = parser.parse_args()
    arrays, total = state_dict(args.mb)
    tensors = {k: kf.asarray(v) for k, v in arrays.items()}
    kf_path = os.path.join(args.dir, "bench_kf.safetensors")
    np_path = os.path.join(args.dir, "bench_np.safetensors")
    cases = {
        ("kernforge", "save"): lambda: kf.save_file(tensors, kf_path),
        ("kernforge", "load"): lambda: kf.load_file(kf_path),
        ("safetensors.numpy", "save"): lambda: stnp.save_file(arrays, np_path),
        ("safetensors.numpy", "load"): lambda: stnp.load_file(np_path),
    }
    times = {k: [] for k in cases}
    for r in range(args.rounds + 1):
        for key, fn in cases.items():
            t = timed(fn)
            if r > 0:
                times[key].append(t)
    print(f"{len(arrays)} tensors, {total / 1e6:.1f} MB, {args.rounds} rounds, medians\n")
    print("| library | save | load |")
    print("|---|---:|---:|")
    for lib in ("kernforge", "safetensors.numpy"):
        cells = []
        for op in ("save", "load"):
            med = statistics.median(times[(lib, op)])
            cells.append(f"{med * 1e3:.1f} ms ({total / 1e6 / med:,.0f} MB/s)")
        print(f"| {lib} | {cells[0]} | {cells[1]} |")
    for p in (kf_path, np_path):
        os.remove(p)


if __name__ == "__main__":
    main()
