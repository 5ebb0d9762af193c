#!/usr/bin/env bash
# run.sh OUTDIR — the GPU check of the cuda backend, run from its bundle (tools/device/
# cuda-check.sh builds the bundle; README.md beside that script says how to use it).
#
# On a machine with the NVIDIA driver and a CUDA 13 runtime it runs, within about 8 minutes:
#   1. kernforge doctor (which CUDA libraries were found where, the devices);
#   2. the conformance suite on cuda: every op x dtype against the double-precision reference;
#   3. kernforge_cuda_gpu_tests: streams, events, copies, Philox bits and every kernel family
#      against the CPU backend; then the nccl collective plugin's one-rank check
#      (kernforge_nccl_worker gpu: every collective against a host reference), where the
#      machine has NCCL (libnccl.so.2: the toolkit's, the system's or the wheel nvidia-nccl);
#   4. kernforge bench on cuda and kernforge_bench_cuda (against cudaMemcpyAsync and
#      cublasGemmEx called directly), and torch's tiny add when python3 has torch.
# Everything lands in OUTDIR (summary.txt first). Where no GPU is, step 1 says why, the rest is
# skipped, summary.txt says "no NVIDIA GPU: <reason>", and the exit status is 0: finding no GPU
# is an answer, not a failure. A failed step makes the exit status 1.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:?usage: run.sh OUTDIR}"
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
failed=0

# The CUDA libraries. The plugin's manifest searches $KERNFORGE_CUDA_HOME/lib64, $CUDA_HOME/lib64
# and /usr/local/cuda/lib64; a machine whose CUDA comes as Python wheels (nvidia/cu13/lib,
# nvidia/cublas/lib, ...) gets a folder of links to them here, named by KERNFORGE_CUDA_HOME.
find_cuda_lib_dir() {
  local lib=libcublas.so.13 d
  for d in "${KERNFORGE_CUDA_HOME:-/nonexistent}/lib64" "${CUDA_HOME:-/nonexistent}/lib64" \
           /usr/local/cuda/lib64 /usr/local/cuda-13*/lib64; do
    [[ -e "$d/$lib" ]] && { echo "$d"; return 0; }
  done
  if command -v python3 >/dev/null; then
    local site
    for site in $(python3 -c 'import site, sys; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null); do
      for d in "$site"/nvidia/cu13/lib "$site"/nvidia/cublas/lib; do
        [[ -e "$d/$lib" ]] && { echo "$d"; return 0; }
      done
    done
  fi
  return 1
}
if cuda_dir="$(find_cuda_lib_dir)"; then
  case "$cuda_dir" in
    */lib64) export KERNFORGE_CUDA_HOME="${cuda_dir%/lib64}" ;;
    *)
      links="$here/cuda-home/lib64"
      mkdir -p "$links"
      site="${cuda_dir%/nvidia/*}"
      for f in "$site"/nvidia/*/lib/lib{cublasLt,cublas,cudart,cufft,nvJitLink,cusparse}.so.* \
               "$site"/nvidia/*/lib/lib{cusolver,nvrtc,nccl}.so.*; do
        [[ -e "$f" ]] && ln -sf "$f" "$links/"
      done
      export KERNFORGE_CUDA_HOME="$here/cuda-home" ;;
  esac
  say "CUDA libraries: $cuda_dir (KERNFORGE_CUDA_HOME=$KERNFORGE_CUDA_HOME)"
else
  say "CUDA libraries: libcublas.so.13 not found in \$KERNFORGE_CUDA_HOME, \$CUDA_HOME, /usr/local/cuda or Python's nvidia wheels"
fi
cuda_ld_path="${KERNFORGE_CUDA_HOME:+$KERNFORGE_CUDA_HOME/lib64}"

# The driver: the loader finds libcuda.so.1 through ld.so.cache and LD_LIBRARY_PATH; container
# images often mount it elsewhere (/usr/local/nvidia/lib64) without telling ldconfig.
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/wsl/lib; do
    if [[ -e "$d/libcuda.so.1" ]]; then
      export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      cuda_ld_path="$cuda_ld_path:$d"
      say "CUDA driver: $d/libcuda.so.1 (not in ld.so.cache; added to LD_LIBRARY_PATH)"
      break
    fi
  done
fi

run_step() {  # run_step NAME TIMEOUT CMD...: output in OUTDIR/NAME.txt
  local name="$1" limit="$2"
  shift 2
  local start=$SECONDS
  timeout --kill-after=10 "$limit" "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  say "$name: exit $rc after $((SECONDS - start)) s (log: $name.txt)"
  [[ $rc -eq 0 ]] || failed=1
  return $rc
}

say "== kernforge doctor"
"$here/bin/kernforge" doctor >"$out/doctor.txt" 2>&1
"$here/bin/kernforge" doctor --json >"$out/doctor.json" 2>/dev/null
"$here/bin/kernforge" info >"$out/info.txt" 2>&1
if ! grep -qE '^ +cuda +.* loaded +' "$out/info.txt"; then
  reason="$(grep -m1 -E '^ +cuda: ' "$out/info.txt" | sed 's/^ *//')"
  say "no NVIDIA GPU: ${reason:-the cuda backend is not loaded (see info.txt and doctor.txt)}"
  exit 0
fi
grep -E '^ +cuda' "$out/info.txt" | tee -a "$summary"

say "== the conformance suite on cuda"
run_step cts 210 "$here/bin/kernforge-cts" --gtest_filter='Cts/*/cuda*' --gtest_brief=1 \
  --gtest_output="xml:$out/cts.xml"
grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/cts.txt" | tee -a "$summary"

say "== the GPU tests: streams, events, copies, Philox, every family against the CPU backend"
run_step gpu_tests 90 "$here/bin/kernforge_cuda_gpu_tests" --gtest_brief=1
grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/gpu_tests.txt" | tee -a "$summary"

say "== the nccl collective plugin: one rank on one GPU"
nccl_line="$(grep -m1 -E '^ +nccl \(cuda\): ' "$out/doctor.txt" | sed 's/^ *//')"
if [[ ! -x "$here/bin/kernforge_nccl_worker" ]]; then
  say "nccl: skipped: the bundle has no kernforge_nccl_worker (the plugin was not built)"
elif [[ "$nccl_line" != *": loaded"* ]]; then
  say "nccl: skipped: ${nccl_line:-doctor lists no nccl plugin} (no libnccl.so.2 here?)"
else
  nccl_rendezvous="$(mktemp -d)"
  run_step nccl 120 "$here/bin/kernforge_nccl_worker" gpu 0 1 "$nccl_rendezvous" 30000
  tail -n 5 "$out/nccl.txt" | tee -a "$summary"
  rm -rf "$nccl_rendezvous"
fi

say "== kernforge bench on cuda"
run_step bench 45 "$here/bin/kernforge" bench --backend cuda --seconds 1
say "== kernforge_bench_cuda (references called directly)"
LD_LIBRARY_PATH="$cuda_ld_path" run_step bench_cuda 120 "$here/bin/kernforge_bench_cuda" \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/bench_cuda.json" --benchmark_out_format=json
if command -v python3 >/dev/null && python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  say "== torch on the same GPU: a tiny add (1 element, a new output)"
  run_step torch_tiny 30 python3 "$here/torch_tiny_add.py" "$out/torch_tiny.json"
  cat "$out/torch_tiny.txt" >>"$summary"
fi
say "done: $([[ $failed -eq 0 ]] && echo 'every step passed' || echo 'a step failed')"
exit $failed
