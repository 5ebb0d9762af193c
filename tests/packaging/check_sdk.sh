#!/usr/bin/env bash
# check_sdk.sh <prefix> <source dir> <work dir>
#
# What a third party does with an installed kernforge (core, cpu backend, SDK) at <prefix>, every
# step failing the script when it fails:
#  1. `kernforge doctor` finds the plugins of the install and exits 0, `kernforge info` names
#     the version;
#  2. the C example builds against the CMake package (find_package(kernforge CONFIG)) and
#     against pkg-config, and runs;
#  3. the Rust example (rustc, no crates) and the Python ctypes example run against the
#     installed library;
#  4. the out-of-tree toy plugin builds against the CMake package, its tests pass (its own test
#     and the conformance suite, kernforge-cts, on device `toy`), and `kernforge doctor` and
#     `kernforge ops` show it and its op toy::scale when KERNFORGE_PLUGIN_PATH names its build.
# Used by the ctest case packaging.installed_sdk (a prefix in the build tree) and by CI's
# package stage (the Debian packages installed in /usr).
set -euo pipefail
prefix="$(realpath "$1")"
src="$(realpath "$2")"
work="$3"
rm -rf "$work"
mkdir -p "$work"
work="$(realpath "$work")"
libdir="$(dirname "$(find "$prefix/lib" -maxdepth 2 -name 'libkernforge.so.2' -print -quit)")"
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# The consumers must find kernforge through the install alone.
unset KERNFORGE_PLUGIN_PATH
kernforge="$prefix/bin/kernforge"

step() { echo "== check_sdk: $*"; }

step "kernforge doctor and info from $prefix"
"$kernforge" doctor
"$kernforge" info | tee "$work/info.txt"
version="${KERNFORGE_BUILD_VERSION:-$(cat "$src/version.txt")}"
grep -q "^kernforge $version " "$work/info.txt"

step "one version everywhere: $version"
[[ "$(pkg-config --modversion kernforge)" == "$version" ]]
[[ "$(pkg-config --modversion kernforge-plugin)" == "$version" ]]
grep -q "set(PACKAGE_VERSION \"${version%%-*}\")" "$libdir/cmake/kernforge/kernforgeConfigVersion.cmake"
for manifest in "$libdir"/kernforge/plugins/*.json; do
  grep -q "\"version\" : \"$version\"" "$manifest"
done

step "examples/c with find_package(kernforge CONFIG)"
cmake -S "$src/examples/c" -B "$work/c" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
cmake --build "$work/c"
ctest --test-dir "$work/c" --output-on-failure

step "examples/c with pkg-config"
# shellcheck disable=SC2046  # pkg-config's flags are words
cc -std=c99 -o "$work/example_c_pkgconfig" "$src/examples/c/matmul.c" \
  $(pkg-config --cflags --libs kernforge) -Wl,-rpath,"$libdir"
"$work/example_c_pkgconfig"

step "examples/rust with rustc"
bash "$src/examples/rust/build.sh" "$libdir" "$work/example_rust"
"$work/example_rust"

step "examples/python_ctypes"
KERNFORGE_LIBRARY="$libdir/libkernforge.so.2" python3 "$src/examples/python_ctypes/matmul.py"
if [[ "$prefix" == /usr ]]; then
  # Found the way a user's script finds it: ctypes.util.find_library, through ld.so's cache.
  env -u KERNFORGE_LIBRARY python3 "$src/examples/python_ctypes/matmul.py"
fi

step "the out-of-tree toy plugin"
toy="$work/toy"
cmake -S "$src/examples/toy_device" -B "$toy" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release
cmake --build "$toy"
ctest --test-dir "$toy" --output-on-failure
# The conformance suite on toy ran (the toy project leaves it out when the SDK has no kernforge-cts).
grep -q "toy.cts" <<<"$(ctest --test-dir "$toy" -N)"  # (a pipe into grep -q: SIGPIPE, pipefail)
step "the toy plugin's Debian package"
cpack --config "$toy/CPackConfig.cmake" -B "$toy/packages"
toy_deb="$(ls "$toy"/packages/kernforge-backend-toy_*.deb)"
grep -q "kernforge-core (>= $version)" <<<"$(dpkg-deb -f "$toy_deb" Depends)"
plugin_subdir="$(realpath --relative-to="$prefix" "$libdir")/kernforge/plugins"
[[ "$(dpkg-deb -c "$toy_deb" | awk '$1 !~ /^d/ {print $6}' | sort | tr '\n' ' ')" == \
   "./usr/$plugin_subdir/libkernforge_toy.so ./usr/$plugin_subdir/toy.json " ]]

export KERNFORGE_PLUGIN_PATH="$toy/lib/kernforge/plugins"
"$kernforge" doctor | tee "$work/doctor-toy.txt"
grep -Eq "^ +toy +loaded" "$work/doctor-toy.txt"
"$kernforge" ops | tee "$work/ops-toy.txt"
grep -q "toy::scale" "$work/ops-toy.txt"
echo "check_sdk: all well"
