#!/usr/bin/env python3
"""Turns kernforge_bench's Google Benchmark JSON into docs/benchmarks.md.

    python3 benchmarks/write_report.py build/release/benchmarks.json docs/benchmarks.md \
        [--kernforge-info "$(kernforge info --json)"] [--startup build/release/startup.json] \
        [--note "text"]

The page holds the machine (CPU model from /proc/cpuinfo, nproc), the date, every figure and the
ratios against the performance budgets. With repetitions it uses the medians.
The tiny-op budget compares BM_TinyAdd with BM_TorchAddTinyDefault (libtorch's torch::add, same
run; BM_TorchAddTiny, under InferenceMode, is shown as well);
when kernforge_bench was built without libtorch (its context says libtorch_version "not built"),
the row says so instead of a ratio.
--startup takes the JSON of kernforge_bench_startup (process start to C ABI ready) and adds the
"Start-up" section and its budget row. --note adds a line about the run's conditions.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import subprocess
from pathlib import Path

import cpu_budgets
import cuda_budgets
import python_budgets

TINY_ADD_VS_TORCH_BUDGET = 10.0  # kf_add through the C ABI at least this many times faster
MATMUL_BUDGET_PCT = 95.0
OPENCL_ADD_VS_DIRECT = 0.9  # kf_add on opencl at least this fraction of the same kernel direct
STARTUP_BUDGET_MS = 10.0
STARTUP_KINDS = ("bare", "linked", "core", "full", "started")
LISTING_KINDS = ("listing", "listing_off")
# A program that lists the backends, as shipped, against the same with the plugins it found
# unavailable turned off: at most this much slower, and this much more memory.
LISTING_TIME_RATIO, LISTING_EXTRA_MIB = 1.15, 8.0
TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def nproc() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 0


def git_commit() -> str:
    """HEAD's short hash, and whether tracked files other than this report differ from it."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=here).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, check=True, cwd=here).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    changed = [line for line in status.splitlines() if not line.endswith("docs/benchmarks.md")]
    return f"`{head}` (plus uncommitted work)" if changed else f"`{head}`"


def run_name(entry: dict) -> str:
    """The benchmark's name without Google Benchmark's suffixes (/real_time, /repeats:N)."""
    name = entry.get("run_name", entry["name"]).replace("/real_time", "")
    return re.sub(r"/repeats:\d+", "", name)


def figures(report: dict) -> dict[str, dict]:
    """run name -> its entry: the median aggregate when there are repetitions, else the run."""
    picked: dict[str, dict] = {}
    for b in report.get("benchmarks", []):
        name = run_name(b)
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                picked[name] = b
        elif name not in picked:
            picked[name] = b
    return picked


def spreads(report: dict) -> dict[str, float]:
    """run name -> coefficient of variation of its repetitions' wall-clock times (0.05 = 5%)."""
    cv: dict[str, float] = {}
    for b in report.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "cv":
            cv[run_name(b)] = b["real_time"]
    return cv


SKIPPED = "skipped: "  # how a benchmark's error message says the machine lacks what it needs


def _stopped(report: dict, skipped: bool) -> list[str]:
    return sorted({f"{b['name']}: {b.get('error_message', 'error')}"
                   for b in report.get("benchmarks", []) if b.get("error_occurred")
                   and b.get("error_message", "").startswith(SKIPPED) == skipped})


def errors(report: dict) -> list[str]:
    """'name: message' of every benchmark that stopped with an error (not a skip)."""
    return _stopped(report, skipped=False)


def skips(report: dict) -> list[str]:
    """'name: skipped: why' of every benchmark this machine cannot run (bench_cpu.cpp)."""
    return _stopped(report, skipped=True)


def real_ns(entry: dict) -> float:
    return entry["real_time"] * TO_NS[entry.get("time_unit", "ns")]


def fmt_time(ns: float) -> str:
    if ns < 1e3:
        return f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns / 1e6:.2f} ms"


def figures_table(picked: dict[str, dict], cv: dict[str, float]) -> list[str]:
    lines = ["| benchmark | time (wall clock) | GFLOP/s | repetitions | spread (cv) |",
             "|---|---:|---:|---:|---:|"]
    def order(name: str) -> tuple:
        size = name.split("/")[1] if "/" in name else "0"
        tiny = "TinyAdd" in name or "AddTiny" in name
        return (0 if tiny else 1, int(size) if size.isdigit() else 0, name)

    for name in sorted(picked, key=order):
        e = picked[name]
        gflops = e.get("GFLOP/s")
        g = f"{gflops:.1f}" if gflops is not None else "–"
        reps = e.get("repetitions", 1) if e.get("run_type") == "aggregate" else 1
        spread = f"{100.0 * cv[name]:.1f}%" if name in cv else "–"
        lines.append(f"| `{name}` | {fmt_time(real_ns(e))} | {g} | {reps} | {spread} |")
    return lines


def torch_built(report: dict) -> bool:
    return report.get("context", {}).get("libtorch_version", "not built") != "not built"


def tiny_vs_torch_rows(picked: dict[str, dict], report: dict) -> list[str]:
    """The tiny-op budget: kf_add through the C ABI against libtorch's torch::add in its default
    mode (the budget), and against torch::add under InferenceMode (informative), same run."""
    ours = picked.get("BM_TinyAdd")
    if not ours:
        return []
    target = f"≥ {TINY_ADD_VS_TORCH_BUDGET:.0f}× faster"
    rows = []
    for name, what, binding in (
            ("BM_TorchAddTinyDefault", "`torch::add` (default mode)", True),
            ("BM_TorchAddTiny", "`torch::add` under `c10::InferenceMode`", False)):
        label = (f"tiny `add` (1 element, new output): C ABI `kf_add` vs libtorch {what}, same "
                 f"run{'' if binding else ' (informative)'}")
        ref = picked.get(name)
        if not torch_built(report):
            rows.append(f"| {label} | libtorch not installed (Debian: libtorch-dev); ratio not "
                        f"measured | {target} | – | not measured |")
            continue
        if not ref:
            rows.append(f"| {label} | `{name}` not in this run; ratio not measured | {target} | "
                        "– | not measured |")
            continue
        ours_ns, ref_ns = real_ns(ours), real_ns(ref)
        ratio = ref_ns / ours_ns
        verdict = "within budget" if ratio >= TINY_ADD_VS_TORCH_BUDGET else "over budget"
        if not binding:
            verdict = "meets 10×" if ratio >= TINY_ADD_VS_TORCH_BUDGET else "below 10×"
        reps = ours.get("repetitions") if ours.get("run_type") == "aggregate" else None
        reps_text = f" (medians of {reps} repetitions each)" if reps else ""
        rows.append(f"| {label} | {ours_ns:.1f} ns vs {ref_ns:.1f} ns{reps_text} | {target} | "
                    f"{ratio:.2f}× faster | {verdict} |")
    return rows


def startup_share_ms(startup: dict) -> float | None:
    """kernforge's part of a process's start and end: full minus bare, medians, in ms."""
    try:
        return startup["kernforge_us"]["median"] / 1e3
    except (KeyError, TypeError):
        return None


def startup_budget_row(startup: dict | None) -> list[str]:
    ms = startup_share_ms(startup) if startup else None
    if ms is None:
        return []
    verdict = "within budget" if ms <= STARTUP_BUDGET_MS else "over budget"
    probed = (startup.get("full_child") or {}).get("plugins_probed", "?")
    best = (startup.get("kernforge_us") or {}).get("min")
    best_text = f" (fastest runs: {best / 1e3:.2f} ms)" if isinstance(best, (int, float)) else ""
    return [f"| start-up to C ABI ready, every plugin probed ({probed} found): a process "
            f"calling `kf_init` minus a bare process, medians | {ms:.2f} ms{best_text} | "
            f"≤ {STARTUP_BUDGET_MS:.0f} ms | {ms / STARTUP_BUDGET_MS:.2f}× the budget | "
            f"{verdict} |"]


def budget_rows(picked: dict[str, dict], report: dict, startup: dict | None = None,
                doctor: dict | None = None, python: dict | None = None) -> list[str]:
    lines = ["| budget | measured | target | ratio | verdict |", "|---|---:|---:|---:|---|"]
    lines += tiny_vs_torch_rows(picked, report)
    for n in (1024, 2048):
        ours, ref = picked.get(f"BM_MatmulKernforge/{n}"), picked.get(f"BM_CblasSgemm/{n}")
        if not (ours and ref and ours.get("GFLOP/s") and ref.get("GFLOP/s")):
            continue
        pct = 100.0 * ours["GFLOP/s"] / ref["GFLOP/s"]
        binding = " (informative)"
        verdict = "within budget" if pct >= MATMUL_BUDGET_PCT else "below budget"
        lines.append(f"| CPU `matmul` {n}² f32 vs `cblas_sgemm`{binding} | "
                     f"{ours['GFLOP/s']:.1f} vs {ref['GFLOP/s']:.1f} GFLOP/s | "
                     f"≥ {MATMUL_BUDGET_PCT:.0f}% | {pct:.1f}% | {verdict} |")
    lines += cpu_budgets.cpu_budget_rows(picked, doctor, real_ns)
    return (lines + opencl_budget_row(picked) + startup_budget_row(startup) +
            python_budgets.python_budget_rows(python))


def opencl_budget_row(picked: dict[str, dict]) -> list[str]:
    n = 1 << 24
    ours, ref = picked.get(f"BM_OpenclAddKernforge/{n}"), picked.get(f"BM_OpenclAddDirect/{n}")
    if not (ours and ref and ours.get("GB/s") and ref.get("GB/s")):
        return []
    ratio = ours["GB/s"] / ref["GB/s"]
    verdict = "within budget" if ratio >= OPENCL_ADD_VS_DIRECT else "below budget"
    return [f"| opencl `add` 16M f32 vs the same kernel through OpenCL directly | "
            f"{ours['GB/s']:.1f} vs {ref['GB/s']:.1f} GB/s | ≥ {OPENCL_ADD_VS_DIRECT:.1f}× | "
            f"{ratio:.2f}× | {verdict} |"]


def opencl_section(picked: dict[str, dict]) -> list[str]:
    rows = []
    for name, label, key in (
            (f"BM_OpenclAddKernforge/{1 << 24}", "`kf_add` 16M f32 on opencl, synchronized",
             "GB/s"),
            (f"BM_OpenclAddDirect/{1 << 24}", "the same kernel through OpenCL directly", "GB/s"),
            ("BM_OpenclMatmul/512", "`kf_matmul` 512² f32 on opencl (tiled kernel)", "GFLOP/s"),
            ("BM_OpenclMatmul/1024", "`kf_matmul` 1024² f32 on opencl (tiled kernel)", "GFLOP/s"),
            ("BM_MatmulKernforge/1024", "`kf_matmul` 1024² f32 on cpu (OpenBLAS)", "GFLOP/s"),
            ("BM_OpenclTinyAdd", "`kf_add` of 1-element tensors on opencl, per call", None),
            (f"BM_OpenclSort/{1 << 20}", "`kf_sort` 1M f32 on opencl (the fallback on PoCL)", None),
            (f"BM_OpenclArgsort/{1 << 20}", "`kf_argsort` 1M f32 on opencl", None)):
        entry = picked.get(name)
        if not entry:
            continue
        figure = f"{entry[key]:.1f} {key}" if key and entry.get(key) else fmt_time(real_ns(entry))
        rows.append(f"| {label} | {figure} |")
    if not rows:
        return []
    return ["## OpenCL backend", "",
            "The opencl backend on the OpenCL platform of this machine (PoCL on the CPU here: "
            "`kernforge doctor` names it), in the same run as the rest. The matrix product on "
            "opencl is informative: PoCL runs the tiled OpenCL C kernel on the same CPU cores "
            "that OpenBLAS uses for the cpu backend.", "",
            "| what | figure |", "|---|---:|"] + rows


def fmt_us(value: object) -> str:
    return f"{value / 1e3:.2f} ms" if isinstance(value, (int, float)) else "–"


def median_of(stats: dict | None) -> object:
    return (stats or {}).get("median")


def loader_steps_table(full: dict) -> list[str]:
    """The loader's steps in the `full` child, slowest first (medians over the runs)."""
    steps = full.get("loader_steps_us") or {}
    ranked = sorted(((median_of(v), k) for k, v in steps.items()
                     if isinstance(median_of(v), (int, float))), reverse=True)
    if not ranked:
        return []
    lines = ["", "Inside the loader, in the `full` child (the steps of the load report, medians):",
             "", "| step | median |", "|---|---:|"]
    lines += [f"| `{key}` | {fmt_us(value)} |" for value, key in ranked]
    return lines


def startup_section(startup: dict) -> list[str]:
    """The "Start-up" section: every child kind, kernforge's share and the verdict."""
    kinds = startup.get("kinds", {})
    lines = ["## Start-up", "",
             f"`kernforge_bench_startup` (benchmarks/bench_startup.cpp) started each kind of "
             f"process {startup.get('runs', '?')} times, round-robin, after warm-up rounds, and "
             "timed each from `fork` to the parent's `waitpid` return (\"process\"). The `core` "
             "and `full` children also measure, inside, main's first line to `kf_init`'s return "
             "(\"inside\"), and report the loader's own figure (`startup_micros` of "
             "`kf_runtime_report_json`, \"loader\").", "",
             "| process | what it does | process median | p90 | min | inside median | "
             "loader median |", "|---|---|---:|---:|---:|---:|---:|"]
    for name in STARTUP_KINDS:
        k = kinds.get(name)
        if not k:
            continue
        out = k.get("outside_us") or {}
        lines.append(f"| `{name}` | {k.get('what', '')} | {fmt_us(out.get('median'))} | "
                     f"{fmt_us(out.get('p90'))} | {fmt_us(out.get('min'))} | "
                     f"{fmt_us(median_of(k.get('inside_us')))} | "
                     f"{fmt_us(median_of(k.get('loader_startup_us')))} |")
    lines += loader_steps_table(kinds.get("full") or {})
    ms = startup_share_ms(startup)
    if ms is not None:
        verdict = "within" if ms <= STARTUP_BUDGET_MS else "over"
        full = startup.get("full_child") or {}
        loaded = ", ".join(full.get("loaded", [])) or "none"
        lines += ["", f"kernforge's share of a process (`full` − `bare`, medians): **{ms:.2f} ms**, "
                  f"{verdict} the budget of {STARTUP_BUDGET_MS:.0f} ms (the C ABI ready "
                  f"with every plugin probed). Plugins found: "
                  f"{full.get('plugins_probed', '?')}, loaded: {loaded}. The steps between the "
                  "rows say where it goes: `linked` − `bare` is mapping libkernforge and its "
                  "libraries with their static initialisers, `core` − `linked` the core's own "
                  "initialisation, `full` − `core` discovering and loading the plugins. On a "
                  "busy machine the medians carry the waits for a CPU; the minimums "
                  "(`full` − `bare`: "
                  f"{fmt_us((startup.get('kernforge_us') or {}).get('min'))}) are closer to the "
                  "cost on an idle one."]
    return lines + listing_section(startup)


def fmt_mib(kib: object) -> str:
    return f"{kib / 1024:.1f} MiB" if isinstance(kib, (int, float)) else "?"


def listing_section(startup: dict) -> list[str]:
    """Listing the backends as shipped against the same with the unavailable plugins off (the
    driver gate's budget), with every kind's peak memory."""
    kinds = startup.get("kinds", {})
    shipped, off = kinds.get("listing"), kinds.get("listing_off")
    if not shipped or not off:
        return []
    lines = ["", "### Listing the backends (driver gate)", "",
             "`listing` lists the backends (`kf_backend_count`, `kf_backend_info`) and adds two "
             "CPU tensors; `listing_off` is the same with `KERNFORGE_DISABLE_PLUGINS` naming "
             "the plugins `listing` found unavailable. Peak memory is the child's `ru_maxrss`.",
             "", "| process | process median | p90 | min | peak memory (median) |",
             "|---|---:|---:|---:|---:|"]
    for name in STARTUP_KINDS + LISTING_KINDS:
        k = kinds.get(name)
        if not k:
            continue
        out = k.get("outside_us") or {}
        lines.append(f"| `{name}` | {fmt_us(out.get('median'))} | {fmt_us(out.get('p90'))} | "
                     f"{fmt_us(out.get('min'))} | {fmt_mib(median_of(k.get('peak_kib')))} |")
    t1, t0 = median_of(shipped.get("outside_us")), median_of(off.get("outside_us"))
    m1, m0 = median_of(shipped.get("peak_kib")), median_of(off.get("peak_kib"))
    if all(isinstance(v, (int, float)) for v in (t1, t0, m1, m0)) and t0 > 0:
        ratio, extra = t1 / t0, (m1 - m0) / 1024
        verdict = "within" if ratio <= LISTING_TIME_RATIO and extra <= LISTING_EXTRA_MIB \
            else "over"
        lines += ["", f"As shipped, listing takes **{ratio:.2f}×** the time and **{extra:+.1f} "
                  f"MiB** the memory of the same with the unavailable plugins off: {verdict} "
                  f"the budget ({LISTING_TIME_RATIO}× and {LISTING_EXTRA_MIB:.0f} MiB)."]
    return lines


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def busy_note(load_before: float | None) -> list[str]:
    """A warning when other work shared the CPUs: absolute figures drop, same-run ratios hold.
    Judged by the load before the run started (the run itself adds about one), else by now."""
    if load_before is None:
        try:
            load_before = float(load_average().split()[0])
        except ValueError:
            return []
    if load_before < 0.5 * nproc():
        return []
    return ["", f"Note: the machine was busy with other work (1-minute load {load_before:.1f} on "
            f"{nproc()} CPUs before the run), so absolute times and GFLOP/s are worse than on an "
            "idle machine. Each budget compares figures taken in the same run with the "
            "repetitions randomly interleaved, so the ratios are the meaningful part; rerun on "
            "an idle machine for absolute numbers."]


def machine_lines(report: dict, info: dict | None, build_type: str,
                  load_before: float | None) -> list[str]:
    ctx = report.get("context", {})
    lines = [f"- CPU: {cpu_model()}; `nproc`: {nproc()}; "
             f"Google Benchmark saw {ctx.get('num_cpus', '?')} CPUs at "
             f"{ctx.get('mhz_per_cpu', '?')} MHz",
             f"- OS: {platform.system()} {platform.release()} ({platform.machine()}); 1-minute "
             f"load before the run: "
             f"{'unknown' if load_before is None else f'{load_before:.2f}'}; load average when "
             f"the report was written: {load_average()}",
             f"- OpenBLAS: {ctx.get('openblas_config', '?')}, core `{ctx.get('openblas_core', '?')}`"
             f", {ctx.get('openblas_threads', '?')} thread(s) (shared by kernforge and the "
             "direct calls)",
             f"- run: {ctx.get('date', 'unknown date')}; kernforge build `{build_type}`; commit "
             f"{git_commit()}; Google Benchmark "
             f"{ctx.get('library_build_type', '?')} library build (Debian's package)"]
    if info:
        backends = ", ".join(f"{b['name']} {b['version']} ({b['state']})"
                             for b in info.get("backends", []))
        lines.append(f"- kernforge {info.get('version', '?')}, backends: {backends or 'none'}")
    if torch_built(report):
        lines.append(f"- libtorch {ctx.get('libtorch_version', '?')} (the reference of the "
                     f"tiny-op budget), {ctx.get('libtorch_threads', '?')} intra-op thread(s), "
                     "`torch::add` in its default mode and under `c10::InferenceMode`")
    else:
        lines.append("- libtorch: not installed (Debian: libtorch-dev); the tiny-op ratio against "
                     "`torch::add` is not measured")
    return lines


def render(report: dict, info: dict | None, build_type: str,
           startup: dict | None = None, note: str | None = None,
           load_before: float | None = None, doctor: dict | None = None,
           python: dict | None = None, cuda: dict | None = None,
           by_hand: str | None = None) -> str:
    picked = figures(report)
    out = ["# Benchmarks", "",
           f"Written by `benchmarks/write_report.py` on {dt.date.today().isoformat()} from a run "
           "of `benchmarks/run.sh` (release build, Google Benchmark `kernforge_bench`, and "
           "`kernforge_bench_startup` for the start-up). "
           "Figures are the medians of the repetitions, wall-clock time. Timings are never "
           "pass/fail tests; this page is where the performance budgets are checked. "
           "Rerun `bash benchmarks/run.sh` to refresh it.", "",
           "## Machine", ""]
    out += machine_lines(report, info, build_type, load_before)
    if note:
        out += ["", f"Note on this run: {note}"]
    out += busy_note(load_before)
    skipped = skips(report)
    if skipped:
        out += ["", "Not measured on this machine: " + "; ".join(f"`{line}`" for line in skipped)
                + "."]
    out += ["", "## Budgets", ""] + budget_rows(picked, report, startup, doctor, python)
    out += cuda_budgets.cuda_budget_rows(cuda)
    if startup:
        out += [""] + startup_section(startup)
    if python:
        out += [""] + python_budgets.python_section(python)
    if by_hand:
        out += ["", "## Measured by hand", "",
                "Figures that `run.sh` does not take (before and after a change, or a probe of a "
                "library), kept in `benchmarks/by_hand.md` and copied here as they are written.",
                "", by_hand.strip()]
    opencl = opencl_section(picked)
    if opencl:
        out += [""] + opencl
    out += [""] + cuda_budgets.cuda_section(cuda)
    out += ["", "## All figures", ""] + figures_table(picked, spreads(report))
    out += ["", "`BM_TinyAdd`: `kf_add(a, b, alpha=1, &out)` on two 1-element float32 tensors, "
            "then `kf_tensor_release(out)`. `BM_TorchAddTinyDefault` (built when libtorch is "
            "installed): `torch::add(a, b, /*alpha=*/1)` on two CPU float32 tensors of shape {1}, "
            "the output released at the end of each iteration, with `at::set_num_threads(1)` "
            "(kernforge runs the op on the calling thread), in libtorch's default mode, as a C++ "
            "program calls it (the budget's reference). `BM_TorchAddTiny`: the same under "
            "`c10::InferenceMode` (kernforge has no autograd; this is libtorch's fastest path, so "
            "its ratio is the strictest one). They run in the same process with their "
            "repetitions randomly interleaved. "
            "`BM_MatmulKernforge/n`: `kf_matmul` of two n×n "
            "float32 tensors through the C ABI, a new output each time (released). "
            "`BM_CblasSgemm/n`: OpenBLAS `cblas_sgemm` called directly on the same sizes into a "
            "preallocated buffer, in the same process and run. GFLOP/s counts 2·n³ per product.",
            ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", type=Path, help="Google Benchmark JSON output")
    parser.add_argument("markdown", type=Path, help="the page to write (docs/benchmarks.md)")
    parser.add_argument("--kernforge-info", help="the output of `kernforge info --json`")
    parser.add_argument("--build-type", default="unknown", help="kernforge's CMAKE_BUILD_TYPE")
    parser.add_argument("--startup", type=Path,
                        help="the JSON written by kernforge_bench_startup --json")
    parser.add_argument("--note", help="a line about the run's conditions, printed as given")
    parser.add_argument("--doctor", help="the output of `kernforge doctor --json` (the cpu "
                        "backend's GEMM engines and CPU level)")
    parser.add_argument("--python", type=Path,
                        help="the JSON written by benchmarks/bench_python.py")
    parser.add_argument("--cuda", type=Path,
                        help="the folder the GPU check wrote (benchmarks/results/cuda)")
    parser.add_argument("--load-before", type=float,
                        help="the 1-minute load average before the benchmarks started")
    args = parser.parse_args()
    report = json.loads(args.json.read_text())
    info = json.loads(args.kernforge_info) if args.kernforge_info else None
    startup = json.loads(args.startup.read_text()) if args.startup else None
    doctor = json.loads(args.doctor) if args.doctor else None
    python = json.loads(args.python.read_text()) if args.python else None
    failed = errors(report)
    if failed:
        raise SystemExit("benchmarks failed, docs not written:\n  " + "\n  ".join(failed))
    args.markdown.parent.mkdir(parents=True, exist_ok=True)
    by_hand = Path(__file__).with_name("by_hand.md")
    args.markdown.write_text(render(report, info, args.build_type, startup, args.note or None,
                                        args.load_before, doctor, python,
                                        cuda_budgets.load(args.cuda),
                                        by_hand.read_text() if by_hand.exists() else None))


if __name__ == "__main__":
    main()
