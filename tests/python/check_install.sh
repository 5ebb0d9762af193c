#!/usr/bin/env bash
# The real packaging check of the Python package:
#   check_install.sh <python> <source dir> <work dir>
# 1. `pip wheel` builds the wheel from pyproject.toml (scikit-build-core over the same CMake);
#    its contents are checked: the core (libkernforge.so.1), the global deps, the CPU plugin and
#    its manifest in lib/kernforge/plugins, _C with RUNPATH $ORIGIN/lib, no test or SDK files.
# 2. The wheel is installed into a venv and used from outside the source tree: import, an op,
#    the load report, and the pytest file test_tensor.py against the installed package.
# 3. `pip install -e .` (editable, redirect mode) into a second venv: the Python files come from
#    the source tree, the extension and plugins from site-packages, and the plugins are found.
# The venvs see the interpreter's own site-packages (--system-site-packages) for the build
# requirements tools/install-deps.sh installs, so pip runs with --no-build-isolation, offline.
set -euo pipefail
py="$1" src="$2" work="$3"
rm -rf "$work"
mkdir -p "$work"
cd "$work"  # outside the source tree from here on

echo "== wheel"
"$py" -m pip wheel --no-build-isolation --no-deps -q -w "$work/dist" "$src"
wheel=$(ls "$work"/dist/kernforge-*.whl)
"$py" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = ["kernforge/__init__.py", "kernforge/_ops.py", "kernforge/lib/libkernforge.so.1",
        "kernforge/lib/libkernforge_global_deps.so",
        "kernforge/lib/kernforge/plugins/libkernforge_cpu.so",
        "kernforge/lib/kernforge/plugins/cpu.json", "kernforge/bin/kernforge",
        "kernforge/__init__.pyi", "kernforge/py.typed"]
missing = [n for n in need if n not in names]
assert not missing, f"the wheel lacks {missing}"
assert any(n.startswith("kernforge/_C.") and n.endswith(".so") for n in names), "no _C"
unwanted = [n for n in names if "/include/" in n or "cts" in n or "opencl" in n or "/cmake/" in n]
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

echo "== pip install -e <source>"
"$py" -m venv --system-site-packages "$work/venv-editable"
"$work/venv-editable/bin/python" -m pip install -q --no-deps --no-build-isolation -e "$src"
out=$(smoke "$work/venv-editable/bin/python")
echo "$out"
[[ "$out" == "$src/frontends/python/kernforge/__init__.py"* ]] || {
  echo "the editable install does not use the source tree's files" >&2; exit 1; }
echo "python.install: all checks passed"
