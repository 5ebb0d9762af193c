"""The CPU backend's budget rows of docs/benchmarks.md (write_report.py renders them), from the
benchmarks of bench_cpu.cpp and bench_dispatch.cpp in the same run:

- matmul 2048² float32 against the best engine called directly (OpenBLAS's cblas_sgemm or
  oneDNN's dnnl_sgemm): >= 95%;
- matmul 1024² complex64 against OpenBLAS's cblas_cgemm called directly: >= 95%;
- matmul 2048² bfloat16 against float32: >= 2x where the CPU has AVX512-BF16 or AMX (the cpu
  backend's doctor line says which level the CPU has);
- add and sum over 16M float32 against the STREAM-style loops of the same work: >= 90%;
- exp over 16M float32 against the copy loop (same bytes): >= 80%;
- softmax 4096x4096 float32 against the copy loop of the same bytes: within 2x of its time.
"""
from __future__ import annotations

MATMUL_PCT = 95.0
BF16_OVER_F32 = 2.0
BANDWIDTH_PCT = 90.0
EXP_PCT = 80.0
SOFTMAX_OVER_COPY = 2.0
N16M = 1 << 24


def _rate(picked: dict[str, dict], name: str, key: str) -> float | None:
    entry = picked.get(name)
    value = entry.get(key) if entry else None
    return float(value) if value else None


def _row(what: str, measured: str, target: str, ratio: str, ok: bool, fail: str) -> str:
    return f"| {what} | {measured} | {target} | {ratio} | {'within budget' if ok else fail} |"


def matmul_rows(picked: dict[str, dict]) -> list[str]:
    ours = _rate(picked, "BM_MatmulKernforge/2048", "GFLOP/s")
    engines = {"cblas_sgemm": _rate(picked, "BM_CblasSgemm/2048", "GFLOP/s"),
               "dnnl_sgemm": _rate(picked, "BM_DnnlSgemm/2048", "GFLOP/s")}
    engines = {k: v for k, v in engines.items() if v}
    if not ours or not engines:
        return []
    best = max(engines, key=engines.get)
    pct = 100.0 * ours / engines[best]
    others = ", ".join(f"`{k}` {v:.1f}" for k, v in engines.items())
    return [_row(f"CPU `matmul` 2048² f32 vs the best engine called directly (`{best}`; "
                 f"{others} GFLOP/s)", f"{ours:.1f} vs {engines[best]:.1f} GFLOP/s",
                 f"≥ {MATMUL_PCT:.0f}%", f"{pct:.1f}%", pct >= MATMUL_PCT, "below budget")]


def complex_matmul_rows(picked: dict[str, dict]) -> list[str]:
    ours = _rate(picked, "BM_MatmulKernforgeC64/1024", "GFLOP/s")
    cgemm = _rate(picked, "BM_CblasCgemm/1024", "GFLOP/s")
    if not ours or not cgemm:
        return []
    pct = 100.0 * ours / cgemm
    return [_row("CPU `matmul` 1024² complex64 vs `cblas_cgemm` called directly",
                 f"{ours:.1f} vs {cgemm:.1f} GFLOP/s (8 n³ real operations)",
                 f"≥ {MATMUL_PCT:.0f}%", f"{pct:.1f}%", pct >= MATMUL_PCT, "below budget")]


def cpu_has_bf16(doctor: dict | None) -> bool | None:
    """Whether the cpu backend's doctor line names a CPU level with bfloat16 dot products."""
    for b in (doctor or {}).get("backends", []):
        if b.get("name") == "cpu" and b.get("details"):
            level = b["details"].split("; CPU ")[-1].split(";")[0]
            return level in ("AVX-512 BF16", "AMX")
    return None


def bf16_rows(picked: dict[str, dict], doctor: dict | None) -> list[str]:
    bf16 = _rate(picked, "BM_MatmulKernforgeBf16/2048", "GFLOP/s")
    f32 = _rate(picked, "BM_MatmulKernforge/2048", "GFLOP/s")
    if not bf16 or not f32:
        return []
    ratio = bf16 / f32
    binding = cpu_has_bf16(doctor)
    direct = _rate(picked, "BM_DnnlMatmulBf16/2048", "GFLOP/s")
    extra = f"; oneDNN's matmul called directly {direct:.1f}" if direct else ""
    target = (f"≥ {BF16_OVER_F32:.0f}×" if binding else
              "informative (no AVX512-BF16 or AMX here)")
    return [_row(f"CPU `matmul` 2048² bf16 vs f32{extra}", f"{bf16:.1f} vs {f32:.1f} GFLOP/s",
                 target, f"{ratio:.2f}×", ratio >= BF16_OVER_F32 or not binding,
                 "below budget")]


def bandwidth_rows(picked: dict[str, dict]) -> list[str]:
    rows = []
    for op, ours_name, ref_name, pct_target in (
            ("`add` (new output)", "BM_KfAdd", "BM_StreamAdd", BANDWIDTH_PCT),
            ("`add_out` (existing output)", "BM_KfAddOut", "BM_StreamAdd", BANDWIDTH_PCT),
            ("`sum`", "BM_KfSumAll", "BM_StreamSum", BANDWIDTH_PCT),
            ("`exp_out`", "BM_KfExpOut", "BM_StreamCopy", EXP_PCT)):
        ours = _rate(picked, f"{ours_name}/{N16M}", "GB/s")
        ref = _rate(picked, f"{ref_name}/{N16M}", "GB/s")
        if not ours or not ref:
            continue
        pct = 100.0 * ours / ref
        rows.append(_row(f"CPU {op} 16M f32 vs the STREAM-style `{ref_name}` loop",
                         f"{ours:.1f} vs {ref:.1f} GB/s", f"≥ {pct_target:.0f}%", f"{pct:.1f}%",
                         pct >= pct_target, "below budget"))
    return rows


def softmax_rows(picked: dict[str, dict], real_ns) -> list[str]:
    ours, copy = picked.get("BM_KfSoftmax/4096"), picked.get(f"BM_StreamCopy/{N16M}")
    if not ours or not copy:
        return []
    ratio = real_ns(ours) / real_ns(copy)
    return [_row("CPU `softmax` 4096×4096 f32 vs a copy of the same bytes (`BM_StreamCopy`)",
                 f"{real_ns(ours) / 1e6:.2f} vs {real_ns(copy) / 1e6:.2f} ms",
                 f"≤ {SOFTMAX_OVER_COPY:.0f}× the copy's time", f"{ratio:.2f}×",
                 ratio <= SOFTMAX_OVER_COPY, "over budget")] + softmax_engine_rows(picked, real_ns)


def softmax_engine_rows(picked: dict[str, dict], real_ns) -> list[str]:
    """The plugin's fused kernels against oneDNN's primitives on the same work: the measurement
    behind the plugin's choice of running its own."""
    rows = []
    for op, ours_name, dnnl_name in (
            ("`softmax` 4096×4096", "BM_KfSoftmax/4096", "BM_DnnlSoftmax/4096"),
            ("`layer_norm` 4096×4096", "BM_KfLayerNorm/4096", "BM_DnnlLayerNorm/4096"),
            ("`exp_out` 16M", f"BM_KfExpOut/{N16M}", f"BM_DnnlExp/{N16M}")):
        ours, dnnl = picked.get(ours_name), picked.get(dnnl_name)
        if not ours or not dnnl:
            continue
        ratio = real_ns(dnnl) / real_ns(ours)
        rows.append(_row(f"CPU {op} f32 vs oneDNN's primitive called directly (informative: "
                         "which one the plugin should run)",
                         f"{real_ns(ours) / 1e6:.2f} vs {real_ns(dnnl) / 1e6:.2f} ms", "≥ 1×",
                         f"{ratio:.2f}× as fast", ratio >= 1.0, "oneDNN is faster"))
    return rows


def cpu_budget_rows(picked: dict[str, dict], doctor: dict | None, real_ns) -> list[str]:
    return (matmul_rows(picked) + complex_matmul_rows(picked) + bf16_rows(picked, doctor) + bandwidth_rows(picked) +
            softmax_rows(picked, real_ns))
