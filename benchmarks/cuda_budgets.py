"""The cuda backend's budget rows and section of docs/benchmarks.md (write_report.py renders
them), from the folder the GPU check writes (tools/device/cuda-check.sh; its run.sh OUTDIR):
bench_cuda.json (kernforge_bench_cuda, Google Benchmark with repetitions), torch_tiny.json
(torch's tiny add on the same GPU, when torch was there) and summary.txt. A run is kept in the
repository as benchmarks/results/cuda/, which benchmarks/run.sh passes here; without one, the
section says the figures wait for a GPU machine.

- elementwise (add, exp, copy_, sum): at least 85% of the device's bandwidth, measured as a
  device-to-device cudaMemcpyAsync of the same size in the same run;
- matmul: at least 90% of cublasGemmEx called directly with the same types, same run;
- tiny add: next to torch.add on the same GPU (informative).
"""
from __future__ import annotations

import json
from pathlib import Path

BANDWIDTH_SHARE = 0.85
GEMM_SHARE = 0.90


def load(folder: Path | None) -> dict | None:
    """The GPU check's results in `folder`, or None when there are none."""
    if folder is None or not (folder / "bench_cuda.json").is_file():
        return None
    out = {"bench": json.loads((folder / "bench_cuda.json").read_text())}
    torch = folder / "torch_tiny.json"
    out["torch"] = json.loads(torch.read_text()) if torch.is_file() else None
    summary = folder / "summary.txt"
    out["summary"] = summary.read_text().splitlines() if summary.is_file() else []
    return out


def _medians(bench: dict) -> dict[str, dict]:
    """run name (BM_X/arg/manual_time) -> its median aggregate (or the single run)."""
    picked: dict[str, dict] = {}
    for b in bench.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            continue
        picked[name] = b
    return picked


def _find(picked: dict[str, dict], prefix: str) -> dict | None:
    for name, b in picked.items():
        if name.startswith(prefix):
            return b
    return None


def _row(what: str, measured: str, target: str, ratio: str, ok: bool, fail: str) -> str:
    return f"| {what} | {measured} | {target} | {ratio} | {'within budget' if ok else fail} |"


def cuda_budget_rows(cuda: dict | None) -> list[str]:
    if not cuda:
        return ["| cuda: elementwise vs device-to-device copy, matmul vs cuBLAS directly | "
                "not measured: no GPU machine was lent yet (section CUDA) | ≥ 85% / ≥ 90% | – | "
                "waits for a GPU |"]
    picked = _medians(cuda["bench"])
    rows = []
    copy = _find(picked, "BM_CudaMemcpyD2D/")
    for op, label in (("BM_KfCudaAdd/", "add"), ("BM_KfCudaExp/", "exp"),
                      ("BM_KfCudaCopy/", "copy_"), ("BM_KfCudaSum/", "sum")):
        ours = _find(picked, op)
        if ours and copy:
            share = ours["GB/s"] / copy["GB/s"]
            rows.append(_row(f"cuda `{label}` 256M f32 vs a device-to-device `cudaMemcpyAsync` "
                             "of the same size (bytes read + written)",
                             f"{ours['GB/s']:.0f} vs {copy['GB/s']:.0f} GB/s",
                             f"≥ {BANDWIDTH_SHARE:.0%}", f"{share:.1%}",
                             share >= BANDWIDTH_SHARE, "below budget"))
    for dtype in ("f32", "bf16", "f16"):
        for n in (4096, 8192):
            ours = _find(picked, f"BM_KfCudaMatmul/{dtype}/{n}/")
            ref = _find(picked, f"BM_CublasGemmEx/{dtype}/{n}/")
            if ours and ref:
                share = ours["GFLOP/s"] / ref["GFLOP/s"]
                rows.append(_row(f"cuda `matmul` {n}² {dtype} vs `cublasGemmEx` called directly",
                                 f"{ours['GFLOP/s'] / 1e3:.1f} vs {ref['GFLOP/s'] / 1e3:.1f} "
                                 "TFLOP/s", f"≥ {GEMM_SHARE:.0%}", f"{share:.1%}",
                                 share >= GEMM_SHARE, "below budget"))
    upload = _find(picked, "BM_KfCudaUpload/")
    pageable = _find(picked, "BM_CudaMemcpyH2D/pageable/")
    pinned = _find(picked, "BM_CudaMemcpyH2D/pinned/")
    if upload and pageable and pinned:
        rows.append(_row("cuda upload of 256 MiB from pageable memory (`kf_tensor_from_data`, "
                         "pinned staging) vs `cudaMemcpy` from pageable memory; from pinned "
                         f"memory {pinned['GB/s']:.1f} GB/s (informative: whether staging pays)",
                         f"{upload['GB/s']:.1f} vs {pageable['GB/s']:.1f} GB/s", "≥ 1×",
                         f"{upload['GB/s'] / pageable['GB/s']:.2f}×",
                         upload["GB/s"] >= pageable["GB/s"], "staging does not pay"))
    tiny = _find(picked, "BM_KfCudaAddTiny")
    torch = cuda.get("torch")
    if tiny and torch:
        us = tiny["real_time"] if tiny.get("time_unit") == "us" else tiny["real_time"] / 1e3
        rows.append(_row("cuda tiny `add` (1 element, new output, queued) vs `torch.add` on the "
                         "same GPU (informative)", f"{us:.2f} vs {torch['median_us']:.2f} µs",
                         "≤ torch", f"{us / torch['median_us']:.2f}×",
                         us <= torch["median_us"], "slower than torch"))
    return rows


def cuda_section(cuda: dict | None) -> list[str]:
    out = ["## CUDA", ""]
    if not cuda:
        return out + [
            "Not measured yet: no GPU machine has been lent while the cuda backend was built. The "
            "GPU check (`tools/device/cuda-check.sh`, [its README](../tools/device/README.md)) "
            "is built and checked here and measures, on one GPU in one run: `add`, `exp`, "
            "`copy_` and `sum` on 256M floats next to a device-to-device `cudaMemcpyAsync` of "
            "the same size; `matmul` at 4096² and 8192² in f32, bf16 and f16 next to "
            "`cublasGemmEx` called directly; the tiny add next to `torch.add` on the same GPU. "
            "Its output folder, kept as `benchmarks/results/cuda/`, fills this section."]
    context = cuda["bench"].get("context", {})
    out += [f"From the GPU check (`kernforge_bench_cuda`, {context.get('date', '?')}, host "
            f"`{context.get('host_name', '?')}`); each figure is the median of the repetitions, "
            "each repetition times batches of 20 calls between two synchronizations.", ""]
    out += [f"    {line}" for line in cuda.get("summary", []) if line.strip()]
    out += ["", "| benchmark | median | rate |", "|---|---:|---:|"]
    for name, b in _medians(cuda["bench"]).items():
        rate = (f"{b['GB/s']:.0f} GB/s" if "GB/s" in b else
                f"{b['GFLOP/s'] / 1e3:.1f} TFLOP/s" if "GFLOP/s" in b else "")
        out.append(f"| `{name}` | {b['real_time']:.3f} {b.get('time_unit', 'ns')} | {rate} |")
    if cuda.get("torch"):
        t = cuda["torch"]
        out += ["", f"torch {t.get('torch_version', '?')}: `torch.add` of 1-element float32 CUDA "
                f"tensors, {t['median_us']:.2f} µs per call (median of 200 batches of 20)."]
    return out
