#!/usr/bin/env bash
# Installs everything kernforge needs to build and test on a fresh Debian 12 machine (liblapacke-dev:
# lapack.h, the declarations of the LAPACK routines the cpu plugin calls in OpenBLAS;
# libkissfft-dev: kissfft.hh, the cpu plugin's FFT; libvkfft-dev: vkFFT.h, the opencl plugin's;
# clang and lld: the libFuzzer targets and the loader test's cross-built foreign-architecture library;
# PoCL and the OpenCL headers: the opencl backend and its tests, on the CPU (libssl-dev: the
# SHA-256 digests of its program cache); Level Zero, clang-15,
# llvm-spirv-15 and spirv-tools: the xpu backend and its SPIR-V kernels; dpkg-dev and file: the
# Debian packages CPack makes; rustc: the Rust embedding example; patchelf and xz-utils: the GPU
# check's bundle, tools/device/cuda-check.sh; libgloo-dev: the gloo collective plugin,
# backends/gloo; libopenmpi-dev and openmpi-bin: the mpi collective plugin, backends/mpi, and
# mpirun for its tests; hipcc and libamdhip64-dev: the rocm backend, HIP 5.2 with the device
# libraries of its default targets). The CUDA toolkit is not a Debian package here:
# the cuda backend builds where it is installed (/usr/local/cuda), and is skipped elsewhere.
#   bash tools/install-deps.sh        (as root, or as a user with sudo)
# Idempotent: when every package is already installed it touches nothing and takes a second.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config python3 python3-yaml
  libspdlog-dev libcli11-dev nlohmann-json3-dev libboost-dev libopenblas-dev liblapacke-dev
  libkissfft-dev libvkfft-dev
  libdnnl-dev libhwy-dev libgtest-dev libgmock-dev libbenchmark-dev
  clang lld
  pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers clinfo libssl-dev
  libze-dev clang-15 llvm-spirv-15 spirv-tools
  dpkg-dev file rustc
  patchelf xz-utils
  libgloo-dev libopenmpi-dev openmpi-bin
  hipcc libamdhip64-dev
)

missing=()
for p in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    if command -v sudo >/dev/null; then
      sudo=(sudo)
    else
      echo "install-deps: missing ${missing[*]}; run this script as root" >&2
      exit 1
    fi
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#packages[@]} Debian packages already installed"
fi

# The op code generator runs on the python3 found first on PATH, which may not be Debian's.
if ! python3 -c 'import yaml' 2>/dev/null; then
  echo "install-deps: $(command -v python3) lacks PyYAML; installing it with pip"
  python3 -m pip install --quiet pyyaml
fi

# The Python frontend's build (nanobind, scikit-build-core) and tests (numpy, pytest,
# hypothesis, safetensors for the file format's interop, matplotlib for the loss curve of
# examples/python/train_transformer.py), and lizard (the function-length budget,
# tools/checks/budgets.py), for the same python3, with pip only when missing. An interpreter
# marked "externally managed" (PEP 668, Debian's own) is allowed for these user-level packages.
py_missing=()
for mod in nanobind:nanobind scikit_build_core:scikit-build-core numpy:numpy pytest:pytest \
           hypothesis:hypothesis safetensors:safetensors \
           matplotlib:matplotlib lizard:lizard; do
  python3 -c "import ${mod%%:*}" 2>/dev/null || py_missing+=("${mod#*:}")
done
if ((${#py_missing[@]})); then
  echo "install-deps: $(command -v python3) lacks ${py_missing[*]}; installing with pip"
  PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet "${py_missing[@]}"
fi
