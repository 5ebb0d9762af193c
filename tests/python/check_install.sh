#!/usr/bin/env bash
# The real packaging check of the Python package:
#   check_install.sh <python> <source dir> <work dir> [<build dir> <build type>]
# 1. The extra case: `pip wheel --no-build-isolation` with the interpreter's own build
#    requirements (tools/install-deps.sh installs them); the wheel's contents are checked (the
#    core, the global deps, the CPU plugin and its manifest, _C with RUNPATH $ORIGIN/lib, no test
#    or SDK files), and it is installed into a venv with --system-site-packages and used.
# 2. `pip install <source>` as the README says, in a fresh venv that sees nothing of the
#    system's site-packages, with pip's build isolation: the build requirements come from
#    [build-system].requires alone (PyPI). Used from outside the source tree: import, an op,
#    the load report, and test_tensor.py.
# 3. `pip install -e <source>` (editable, redirect mode), isolated too, in a second fresh venv:
#    the Python files come from the source tree, the extension and plugins from site-packages.
# Given the CMake build that runs this check (CTest passes it), each wheel is built in a folder
# beside it (<build dir>/../pip-<kind>) with its build type (-C cmake.build-type; pyproject's
# Release otherwise). Beside it, the compiler sees the same relative paths, so ccache
# (KF_COMPILER_LAUNCHER, set by CTest; CCACHE_BASEDIR, the source dir unless set) serves the
# core and the CPU plugin that build compiled, and the three wheels share the rest; only the
# extension, built against nanobind in pip's temporary build environment, is compiled each
# time. What is checked (isolation, the wheel's contents, RPATH, the editable redirect) does
# not depend on the build type.
set -euo pipefail
py="$1" src="$2" work="$3" cmake_build="${4:-}" build_type="${5:-}"
rm -rf "$work/dist" "$work/unpacked" "$work"/venv-*
mkdir -p "$work"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$src}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
if [[ -n "$cmake_build" ]]; then
  builds="$(cd "$cmake_build/.." && pwd)" prefix="pip-"
else
  builds="$work/builds" prefix=""
fi
mkdir -p "$builds"
settings=()
[[ -z "$build_type" ]] || settings=(--config-settings="cmake.build-type=$build_type")
cd "$work"  # outside the source tree from here on

echo "== pip wheel --no-build-isolation (the extra case)"
SKBUILD_BUILD_DIR="$builds/${prefix}no-isolation" \
  "$py" -m pip wheel --no-build-isolation --no-deps -q "${settings[@]}" -w "$work/dist" "$src"
wheel=$(ls "$work"/dist/kernforge-*.whl)
"$py" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = ["kernforge/__init__.py", "kernforge/_ops.py", "kernforge/lib/libkernforge.so.2",
        "kernforge/lib/libkernforge_global_deps.so",
        "kernforge/lib/kernforge/plugins/libkernforge_cpu.so",
        "kernforge/lib/kernforge/plugins/cpu.json", "kernforge/bin/kernforge",
        "kernforge/__init__.pyi", "kernforge/py.typed"]
missing = [n for n in need if n not in names]
assert not missing, f"the wheel lacks {missing}"
assert any(n.startswith("kernforge/_C.") and n.endswith(".so") for n in names), "no _C"
unwanted = [n for n in names if "/include/" in n or "cts" in n or "opencl" in n or "/cmake/" in n]
cores = [n for n in names if n.startswith("kernforge/lib/libkernforge.so")]
assert cores == ["kernforge/lib/libkernforge.so.2"], f"libkernforge is not one file: {cores}"
assert not unwanted, f"the wheel holds files it should not: {unwanted}"
print(f"wheel: {len(names)} files, all expected ones present")
PY
mkdir -p "$work/unpacked"
(cd "$work/unpacked" && "$py" -m zipfile -e "$wheel" .)
runpath=$(readelf -d "$work"/unpacked/kernforge/_C.*.so | grep -E 'RUNPATH|RPATH')
echo "_C: $runpath"
[[ "$runpath" == *'[$ORIGIN/lib]'* ]] || { echo "_C's RUNPATH is not \$ORIGIN/lib" >&2; exit 1; }

smoke() {
  "$1" - <<'PY'
import kernforge as kf
t = kf.ones(3) + 1
assert t.tolist() == [2.0, 2.0, 2.0], t
print(kf.__file__)
print(t)
rep = kf.doctor()
assert [b["state"] for b in rep.data["backends"] if b["name"] == "cpu"] == ["loaded"], str(rep)
print("cpu backend:", [b["library_path"] for b in rep.data["backends"] if b["name"] == "cpu"][0])
PY
}

echo "== pip install <wheel>"
"$py" -m venv --system-site-packages "$work/venv-wheel"
"$work/venv-wheel/bin/python" -m pip install -q --no-deps "$wheel"
out=$(smoke "$work/venv-wheel/bin/python")
echo "$out"
[[ "$out" == "$work/venv-wheel/"* ]] || { echo "kernforge did not come from the venv" >&2; exit 1; }
"$work/venv-wheel/bin/python" -m pytest -q -p no:cacheprovider "$src/tests/python/test_tensor.py"
"$work/venv-wheel/lib/"python3*/site-packages/kernforge/bin/kernforge info | head -3

echo "== the README: pip install <source>, in a fresh venv, isolated"
"$py" -m venv "$work/venv-isolated"
SKBUILD_BUILD_DIR="$builds/${prefix}isolated" \
  "$work/venv-isolated/bin/pip" install -q "${settings[@]}" "$src"
out=$(smoke "$work/venv-isolated/bin/python")
echo "$out"
[[ "$out" == "$work/venv-isolated/"* ]] || { echo "kernforge did not come from the venv" >&2; exit 1; }
# The console script: the package's C++ command, its output and exit codes.
"$work/venv-isolated/bin/kernforge" info | head -3
"$work/venv-isolated/bin/kernforge" doctor >/dev/null
rc=0; "$work/venv-isolated/bin/kernforge" ops no_such_op >/dev/null 2>&1 || rc=$?
[[ $rc == 2 ]] || { echo "kernforge ops no_such_op exited $rc, not 2" >&2; exit 1; }
"$work/venv-isolated/bin/pip" install -q pytest numpy hypothesis
"$work/venv-isolated/bin/python" -m pytest -q -p no:cacheprovider "$src/tests/python/test_tensor.py"

echo "== the README: pip install -e <source>, in a fresh venv, isolated"
"$py" -m venv "$work/venv-editable"
SKBUILD_BUILD_DIR="$builds/${prefix}editable" \
  "$work/venv-editable/bin/pip" install -q "${settings[@]}" -e "$src"
out=$(smoke "$work/venv-editable/bin/python")
echo "$out"
[[ "$out" == "$src/frontends/python/kernforge/__init__.py"* ]] || {
  echo "the editable install does not use the source tree's files" >&2; exit 1; }
"$work/venv-editable/bin/kernforge" info | head -1
echo "python.install: all checks passed"
