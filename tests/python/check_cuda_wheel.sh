#!/usr/bin/env bash
# kernforge-cuda with NVIDIA's wheels and no toolkit (issue 26, item 3):
#   check_cuda_wheel.sh <python> <source dir> <work dir> <python.wheel_repair's work dir>
#                       [<build dir> <build type>]
# 1. `pip wheel packaging/python/cuda` builds kernforge-cuda beside the CMake build (nvcc and the
#    toolkit at build time); auditwheel repairs it with the manifest's preloads excluded (they
#    come from NVIDIA's wheels, not from the wheel).
# 2. A fresh venv gets the repaired core, then `pip install <kernforge-cuda>`, which brings
#    nvidia-cuda-runtime, nvidia-cublas, nvidia-cufft, nvidia-nvjitlink, nvidia-cusparse and
#    nvidia-cusolver of its CUDA major from PyPI (about 1 GiB).
# 3. In a mount namespace the toolkit is hidden (an empty folder over /usr/local/cuda's real
#    folder, which ld.so.cache and /usr/local/lib's links point into) and KERNFORGE_CUDA_HOME and
#    CUDA_HOME are unset. This machine has no NVIDIA driver, so the manifest's driver gate would
#    keep the plugin from loading anything; the toolkit's stub libcuda.so (copied out first, as
#    libcuda.so.1 on LD_LIBRARY_PATH) stands in for it. kf.doctor() then reports the cuda
#    plugin's preloads, cuBLASLt, cuBLAS, the runtime, cuFFT, nvJitLink, cuSPARSE and cuSOLVER,
#    loaded from site-packages/nvidia/cu<major>/lib, in that order (the stub answers no device).
# Exits 77 (skipped, saying why) where unshare --mount is not permitted or no stub exists.
set -euo pipefail
py="$1" src="$2" work="$3" repair_work="$4" cmake_build="${5:-}" build_type="${6:-}"
cuda_home="${KERNFORGE_CUDA_HOME:-${CUDA_HOME:-/usr/local/cuda}}"
stub=$(ls "$cuda_home"/lib64/stubs/libcuda.so "$cuda_home"/lib/stubs/libcuda.so 2>/dev/null | head -1 || true)
if ! unshare --mount --propagation private true 2>/dev/null; then
  echo "skipped: unshare --mount is not permitted here, so the toolkit cannot be hidden"; exit 77
fi
[[ -n "$stub" ]] || { echo "skipped: no stub libcuda.so in $cuda_home to stand in for a driver"; exit 77; }
rm -rf "$work/dist" "$work/repaired" "$work/venv-cuda" "$work/driver-stub"
mkdir -p "$work/driver-stub"
cp "$stub" "$work/driver-stub/libcuda.so.1"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$src}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
builds="$work/builds"
[[ -z "$cmake_build" ]] || builds="$(cd "$cmake_build/.." && pwd)"
settings=()
[[ -z "$build_type" ]] || settings=(--config-settings="cmake.build-type=$build_type")
core=$(ls "$repair_work"/repaired/kernforge-*-manylinux_*.whl)
cd "$work"

echo "== pip wheel packaging/python/cuda"
SKBUILD_BUILD_DIR="$builds/pip-cuda" \
  "$py" -m pip wheel --no-build-isolation --no-deps -q "${settings[@]}" -w "$work/dist" \
  "$src/packaging/python/cuda"
built=$(ls "$work"/dist/kernforge_cuda-*.whl)
# The preloads (the manifest's sonames) stay out of the wheel: NVIDIA's wheels bring them.
mapfile -t excludes < <("$py" - "$built" <<'PY'
import json, sys, zipfile
m = json.loads(zipfile.ZipFile(sys.argv[1]).read("kernforge_cuda/cuda.json"))
for p in m["preload"]:
    print("--exclude"); print(p["soname"])
PY
)
KF_AUDITWHEEL_VENV="$repair_work/auditwheel-venv" bash "$src/packaging/python/repair_wheel.sh" \
  "$built" "$work/repaired" "${excludes[@]}" 2>&1 | grep -E '^Fixed-up|Error' || true
wheel=$(ls "$work"/repaired/kernforge_cuda-*-manylinux_*.whl)
echo "$(basename "$wheel"); requires: $(unzip -p "$wheel" '*.dist-info/METADATA' | grep Requires-Dist | tr '\n' ' ')"

echo "== a fresh venv: the repaired core, then pip install <kernforge-cuda> (NVIDIA's wheels from PyPI)"
venv="$work/venv-cuda"
"$py" -m venv "$venv"
"$venv/bin/pip" install -q --no-deps "$core"
"$venv/bin/pip" install -q "$wheel"
"$venv/bin/pip" list 2>/dev/null | grep -E '^(kernforge|nvidia)' || true

echo "== the toolkit hidden, the stub driver on LD_LIBRARY_PATH: kf.doctor()"
real_home=$(realpath "$cuda_home")
unset KERNFORGE_CUDA_HOME CUDA_HOME
unshare --mount --propagation private bash -c '
  set -euo pipefail
  mkdir -p "$1/empty"
  mount --bind "$1/empty" "$2"
  [[ ! -e "$2/lib64/libcublas.so.13" && ! -e /usr/local/cuda/bin/nvcc ]]
  cd "$1"
  LD_LIBRARY_PATH="$1/driver-stub" exec "$3/bin/python" "$4"
' _ "$work" "$real_home" "$venv" "$src/tests/python/check_cuda_preloads.py"
echo "python.cuda_wheel: all checks passed"
