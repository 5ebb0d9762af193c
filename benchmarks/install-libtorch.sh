#!/usr/bin/env bash
# Installs libtorch (Debian/Ubuntu: libtorch-dev, with its CMake package), the reference that
# kernforge_bench's tiny-op comparison needs. Only the benchmarks use it, and it is large (about
# 1 GB with its dependencies), so tools/install-deps.sh does not install it.
set -euo pipefail

if ! command -v apt-get >/dev/null; then
  echo "install-libtorch.sh: no apt-get here; install libtorch with its CMake package" \
       "(TorchConfig.cmake) and point CMake at it with -DTorch_DIR=..." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
$sudo apt-get update
$sudo apt-get install -y libtorch-dev
