#!/usr/bin/env bash
# The Windows build and its tests, on Debian: cross-compiled with MinGW-w64 (preset `windows`,
# cmake/toolchains/mingw-w64-x86_64.cmake) and run under wine64. One CI stage (.ci/run).
#   bash tools/windows-build.sh           install what is missing, configure, build, test
#   bash tools/windows-build.sh -L loader  extra arguments go to ctest
# Needs the Linux build's packages too (tools/install-deps.sh): the header-only libraries and
# GoogleTest's sources come from them. Installs the MinGW compiler and wine64 with apt when they
# are missing (as root, or with sudo), and does nothing when they are there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

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

start=$SECONDS
cmake --preset windows
cmake --build --preset windows
built=$SECONDS
# The wine prefix lives in build/windows/wineprefix; the first test creates it (once).
ctest --preset windows "$@"
echo "windows-build: built in $((built - start)) s, tested in $((SECONDS - built)) s"
