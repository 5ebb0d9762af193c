#!/usr/bin/env bash
# make_packages.sh <build dir> <source dir> <output dir>
# Makes the Debian packages of a build (cpack, one per install component) in <output dir>, installs
# every component into <output dir>/all-components (DESTDIR, prefix /usr) as the reference of
# what the packages must hold together, and checks them (check_packages.py: each package holds
# only its own files, none is left out, the dependencies hold).
set -euo pipefail
build="$(realpath "$1")"
src="$(realpath "$2")"
out="$3"
rm -rf "$out"
mkdir -p "$out"
out="$(realpath "$out")"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$out"
rm -rf "$out/_CPack_Packages"
DESTDIR="$out/all-components" cmake --install "$build" --prefix /usr >/dev/null
version="${KERNFORGE_BUILD_VERSION:-$(cat "$src/version.txt")}"
python3 "$src/tests/packaging/check_packages.py" --debs "$out" \
  --install "$out/all-components/usr" --version "$version"
