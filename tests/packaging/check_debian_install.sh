#!/usr/bin/env bash
# check_debian_install.sh <folder of .deb files> <source dir> <work dir>     (as root; CI only)
#
# Installs kernforge-core, kernforge-backend-cpu and kernforge-dev with dpkg -i, checks what a
# third party does with them (check_sdk.sh with the prefix /usr: doctor, the C, Rust and ctypes
# examples, the toy plugin built from kernforge-dev alone with the conformance suite on it, and its
# own package kernforge-backend-toy, which is installed too and must show in doctor), then purges
# all four and checks that none of their files, and none of kernforge's folders, is left.
# It changes /usr: run it on a CI machine, not a workstation. It refuses to start when a kernforge
# package is installed already.
set -euo pipefail
debs="$(realpath "$1")"
src="$(realpath "$2")"
work="$3"
packages=(kernforge-core kernforge-backend-cpu kernforge-dev)

if [[ -n "$(dpkg-query -W -f='${Package}\n' 'kernforge-*' 2>/dev/null || true)" ]]; then
  echo "check_debian_install: kernforge packages are installed already; purge them first" >&2
  exit 1
fi
files=()
for p in "${packages[@]}"; do
  files+=("$(ls "$debs/${p}_"*.deb)")
done

echo "== dpkg -i ${files[*]}"
dpkg -i "${files[@]}"
trap 'dpkg -P "${packages[@]}" >/dev/null 2>&1 || true' EXIT
bash "$src/tests/packaging/check_sdk.sh" /usr "$src" "$work"

# The third party's package, made by check_sdk.sh from the toy plugin: installed, the core finds
# it in its own plugin folder with no variable set.
echo "== dpkg -i kernforge-backend-toy"
dpkg -i "$work"/toy/packages/kernforge-backend-toy_*.deb
packages+=(kernforge-backend-toy)
env -u KERNFORGE_PLUGIN_PATH kernforge doctor | tee "$work/doctor-toy-package.txt"
grep -Eq "^ +toy +loaded" "$work/doctor-toy-package.txt"

echo "== dpkg -P ${packages[*]}"
listed=()
for p in "${packages[@]}"; do
  mapfile -t -O "${#listed[@]}" listed < <(dpkg -L "$p")
done
dpkg -P "${packages[@]}"
trap - EXIT
left=0
for p in "${packages[@]}"; do
  if [[ -n "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" ]]; then
    echo "check_debian_install: $p is still known to dpkg after the purge" >&2
    left=1
  fi
done
for f in "${listed[@]}"; do
  # The package's own paths: files, links and the folders only it made.
  case "$f" in
    /usr|/usr/bin|/usr/lib|/usr/include|/usr/lib/cmake|/usr/lib/pkgconfig|/usr/share|/usr/share/doc|/.) continue ;;
  esac
  if [[ -e "$f" || -L "$f" ]]; then
    echo "check_debian_install: $f is left after the purge" >&2
    left=1
  fi
done
echo "check_debian_install: ${#listed[@]} paths installed and removed; left: $left"
exit "$left"
