#!/usr/bin/env bash
# check_gpu_check.sh BUILD_DIR SOURCE_DIR — the GPU check's run.sh (tools/device/
# cuda-bundle-run.sh) on this build, laid out as its bundle is (bin/, lib/ with the plugins,
# run.sh beside them; links into the build tree), so CI keeps the script working on the
# machines that have no GPU: it must start, find the CUDA libraries, find no GPU, say so in
# summary.txt and exit 0. Where a GPU is, it runs the whole check and must pass.
set -euo pipefail
build="$1" src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bundle"
ln -s "$build/bin" "$work/bundle/bin"
ln -s "$build/lib" "$work/bundle/lib"
cp "$src/tools/device/cuda-bundle-run.sh" "$work/bundle/run.sh"
cp "$src/tools/device/torch_tiny_add.py" "$work/bundle/"
status=0
bash "$work/bundle/run.sh" "$work/out" || status=$?
echo "--- summary.txt"
cat "$work/out/summary.txt"
if grep -q '^no NVIDIA GPU: ' "$work/out/summary.txt"; then
  [[ $status -eq 0 ]] || { echo "run.sh found no GPU but exited $status" >&2; exit 1; }
  grep -q 'no CUDA driver\|no driver for it\|no device\|reports' "$work/out/summary.txt" ||
    { echo "run.sh did not give the runtime's reason" >&2; exit 1; }
  exit 0
fi
[[ $status -eq 0 ]] || { echo "run.sh found a GPU and a step failed (exit $status)" >&2; exit 1; }
grep -q '^done: every step passed' "$work/out/summary.txt"
