#!/usr/bin/env bash
# Builds the release preset, runs kernforge_bench (JSON), kernforge_bench_startup (JSON) and,
# when the Python frontend is built, benchmarks/bench_python.py (JSON), and writes
# docs/benchmarks.md.
#   benchmarks/run.sh [extra Google Benchmark flags, e.g. --benchmark_filter=Tiny]
# The tiny-op budget compares kf_add with libtorch's torch::add in the same run. libtorch is
# optional (Debian: libtorch-dev, installed by benchmarks/install-libtorch.sh); without it the
# benchmarks still run and the report says the ratio was not measured.
# Environment: KF_BENCH_MIN_TIME (seconds per benchmark, default 0.2), KF_BENCH_REPETITIONS
# (default 5, randomly interleaved so that a change of machine load hits every benchmark alike;
# the report uses the medians), KF_BENCH_TINY_REPETITIONS (repetitions of the tiny-op pair,
# BM_TinyAdd, BM_TorchAddTinyDefault and BM_TorchAddTiny, default 30, interleaved with the
# rest as well),
# KF_BENCH_JSON (default build/release/benchmarks.json), KF_STARTUP_RUNS (processes started per
# kind, default 50), KF_STARTUP_JSON (default build/release/startup.json), KF_BENCH_NOTE (a line
# about the run's conditions for the report, e.g. "other builds were running").
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

cmake --preset release
cmake --build --preset release --target kernforge_bench kernforge_bench_startup kernforge_cli
python_targets=()  # the Python frontend, when the configure found nanobind
build_targets="$(cmake --build --preset release --target help)"  # (grep -q on a pipe: SIGPIPE)
if grep -q '^kernforge_python:' <<<"$build_targets"; then
  cmake --build --preset release --target kernforge_python kernforge_python_files \
    kernforge_python_stub
  python_targets=(yes)
fi

bench_list="$(./build/release/bin/kernforge_bench --benchmark_list_tests=true)"
if ! grep -qx BM_TorchAddTiny <<<"$bench_list"; then
  cat <<'EOF'
run.sh: libtorch not installed: the tiny-op ratio against torch::add is not measured.
  Install it (Debian/Ubuntu):  sudo apt-get install libtorch-dev
                         or:  bash benchmarks/install-libtorch.sh
  then rerun benchmarks/run.sh (the next configure finds it). Continuing without it.
EOF
fi

json="${KF_BENCH_JSON:-build/release/benchmarks.json}"
load_before="$(cut -d' ' -f1 /proc/loadavg)"  # before the benchmarks add their own load
KF_BENCH_TINY_REPETITIONS="${KF_BENCH_TINY_REPETITIONS:-30}" ./build/release/bin/kernforge_bench \
  --benchmark_min_time="${KF_BENCH_MIN_TIME:-0.2}" \
  --benchmark_repetitions="${KF_BENCH_REPETITIONS:-5}" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true \
  --benchmark_out="$json" --benchmark_out_format=json \
  "$@"

startup_json="${KF_STARTUP_JSON:-build/release/startup.json}"
./build/release/bin/kernforge_bench_startup --runs "${KF_STARTUP_RUNS:-50}" --json "$startup_json"

python_args=()
if ((${#python_targets[@]})); then
  python_json="${KF_PYTHON_BENCH_JSON:-build/release/python-bench.json}"
  # The everyday paths beside torch: when python3 lacks torch, another interpreter of the same
  # Python version that has it (KF_BENCH_TORCH_PYTHON, else Debian's /usr/bin/python3 with
  # python3-torch) times them with its own numpy; the main run keeps its figures.
  beside=()
  torch_py="${KF_BENCH_TORCH_PYTHON:-/usr/bin/python3}"
  same_version='import sys; print(sys.version_info[:2])'
  if ! python3 -c 'import torch' 2>/dev/null && "$torch_py" -c 'import torch, numpy' 2>/dev/null \
     && [[ "$("$torch_py" -c "$same_version")" == "$(python3 -c "$same_version")" ]]; then
    torch_json="${python_json%.json}-torch.json"
    PYTHONPATH="$root/build/release/python" "$torch_py" benchmarks/bench_python.py --paths-only \
      "$torch_json"
    beside=(--beside-torch "$torch_json")
  fi
  PYTHONPATH="$root/build/release/python" python3 benchmarks/bench_python.py "$python_json" \
    "${beside[@]}"
  python_args=(--python "$python_json")
fi

# The GPU check's figures, from a GPU machine (tools/device/cuda-check.sh), when a run is kept.
cuda_args=()
[[ -f benchmarks/results/cuda/bench_cuda.json ]] && cuda_args=(--cuda benchmarks/results/cuda)

python3 benchmarks/write_report.py "$json" docs/benchmarks.md --build-type Release \
  --kernforge-info "$(./build/release/bin/kernforge info --json)" --startup "$startup_json" \
  --doctor "$(./build/release/bin/kernforge doctor --json || true)" \
  --note "${KF_BENCH_NOTE:-}" --load-before "$load_before" "${python_args[@]}" "${cuda_args[@]}"
echo "wrote docs/benchmarks.md from $json and $startup_json"
