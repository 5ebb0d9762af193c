#!/usr/bin/env bash
# The Windows build and its tests, on Debian: cross-compiled with MinGW-w64 (preset `windows`,
# cmake/toolchains/mingw-w64-x86_64.cmake) and run under wine64. One CI stage (.ci/run).
#   bash tools/windows-build.sh           install what is missing, configure, build, test
#   bash tools/windows-build.sh -L loader  extra arguments go to ctest
# Needs the Linux build's packages too (tools/install-deps.sh): the header-only libraries and
# GoogleTest's sources come from them. Installs the MinGW compiler and wine64 with apt when they
# are missing (as root, or with sudo), and does nothing when they are there.
# OpenBLAS with LAPACK comes from PyPI's scipy-openblas32 wheel, the version pinned below,
# downloaded once with pip into $KF_DOWNLOAD_DIR (default ~/.cache/kernforge/downloads), checked
# against its SHA-256 and handed to CMake as KF_MINGW_OPENBLAS_WHEEL
# (cmake/KernforgeOpenBlasWheel.cmake). KF_WINDOWS_OPENBLAS=OFF builds without it: the CPU
# plugin's own GEMM and no LAPACK kernels.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

openblas_wheel_version=0.3.34.481.3
openblas_wheel_sha256=963e311354df08856c22aad17d77209448d2d8fc3bc4b3b1d87912828797cf13

packages=(g++-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix wine64)
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
      echo "windows-build: missing ${missing[*]}; run this script as root" >&2
      exit 1
    fi
  fi
  echo "windows-build: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Prints the path of the pinned scipy-openblas32 wheel, downloading it when it is not there yet.
openblas_wheel() {
  local dir="${KF_DOWNLOAD_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kernforge/downloads}"
  local wheel="$dir/scipy_openblas32-${openblas_wheel_version}-py3-none-win_amd64.whl"
  if [[ ! -f "$wheel" ]]; then
    mkdir -p "$dir"
    echo "windows-build: downloading scipy-openblas32 ${openblas_wheel_version} from PyPI" >&2
    if ! python3 -m pip download "scipy-openblas32==${openblas_wheel_version}" --no-deps \
        --platform win_amd64 --only-binary=:all: -d "$dir" >&2; then
      echo "windows-build: pip could not download scipy-openblas32==${openblas_wheel_version}" \
           "(win_amd64) from PyPI (its output is above). Put the wheel into $dir by hand, or" \
           "build without OpenBLAS and LAPACK: KF_WINDOWS_OPENBLAS=OFF $0" >&2
      return 1
    fi
  fi
  if ! echo "${openblas_wheel_sha256}  $wheel" | sha256sum --check --status; then
    echo "windows-build: $wheel is not the scipy-openblas32 ${openblas_wheel_version} wheel" \
         "this script pins (SHA-256 ${openblas_wheel_sha256}); delete it to download it again" >&2
    return 1
  fi
  echo "$wheel"
}

wheel=""
if [[ "${KF_WINDOWS_OPENBLAS:-ON}" != OFF ]]; then
  wheel="$(openblas_wheel)"
fi

start=$SECONDS
cmake --preset windows -DKF_MINGW_OPENBLAS_WHEEL="$wheel"
cmake --build --preset windows
built=$SECONDS
# The wine prefix lives in build/windows/wineprefix; the first test creates it (once).
ctest --preset windows "$@"
echo "windows-build: built in $((built - start)) s, tested in $((SECONDS - built)) s"
