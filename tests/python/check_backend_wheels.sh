#!/usr/bin/env bash
# One wheel per backend (issue 26, item 3), with the repaired core wheel python.wheel_repair made:
#   check_backend_wheels.sh <python> <source dir> <work dir> <python.wheel_repair's work dir>
#                           [<build dir> <build type>]
# 1. `pip wheel packaging/python/opencl` (--no-build-isolation: the interpreter's own
#    scikit-build-core and PyYAML, as python.install's extra case; its isolated build is the
#    same pyproject) builds kernforge-opencl, repaired by auditwheel as the core (the OpenCL
#    ICD loader excluded: the driver's); the wheel holds the plugin, its manifest (which
#    requires exactly this core version) and the package folder, registers it in the
#    entry-point group kernforge.backends, and depends on kernforge==<its version>.
# 2. In a fresh venv with the repaired core wheel, `pip install --no-index <kernforge-opencl>`
#    (the dependency is met by the installed core); `kernforge doctor` and kf.doctor() list the
#    opencl backend from the entry point (PoCL, tools/install-deps.sh, is its driver here).
# 3. The same plugin with another core version in its manifest is refused by the loader, which
#    names both versions.
# Given the CMake build that runs this check, the wheel is built beside it (<build>/../pip-opencl)
# with its build type, so that ccache serves the objects that build compiled.
set -euo pipefail
py="$1" src="$2" work="$3" repair_work="$4" cmake_build="${5:-}" build_type="${6:-}"
rm -rf "$work/dist" "$work/repaired" "$work/venv-backends"
mkdir -p "$work"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$src}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
builds="$work/builds"
[[ -z "$cmake_build" ]] || builds="$(cd "$cmake_build/.." && pwd)"
settings=()
[[ -z "$build_type" ]] || settings=(--config-settings="cmake.build-type=$build_type")
core=$(ls "$repair_work"/repaired/kernforge-*-manylinux_*.whl)
cd "$work"

echo "== pip wheel packaging/python/opencl"
SKBUILD_BUILD_DIR="$builds/pip-opencl" \
  "$py" -m pip wheel --no-build-isolation --no-deps -q "${settings[@]}" -w "$work/dist" \
  "$src/packaging/python/opencl"
built=$(ls "$work"/dist/kernforge_opencl-*.whl)
# Self-contained as the core's (libcrypto, the program cache's digests), but the OpenCL ICD
# loader stays the system's: it comes with the driver.
KF_AUDITWHEEL_VENV="$repair_work/auditwheel-venv" bash "$src/packaging/python/repair_wheel.sh" \
  "$built" "$work/repaired" --exclude libOpenCL.so.1 2>&1 | grep -E '^Fixed-up|Error' || true
wheel=$(ls "$work"/repaired/kernforge_opencl-*-manylinux_*.whl)
"$py" - "$wheel" "$core" <<'PY'
import json, sys, zipfile
wheel, core = sys.argv[1], sys.argv[2]
version = core.split("/")[-1].split("-")[1]
z = zipfile.ZipFile(wheel)
names = z.namelist()
need = ["kernforge_opencl/__init__.py", "kernforge_opencl/libkernforge_opencl.so",
        "kernforge_opencl/opencl.json"]
assert all(n in names for n in need), f"the wheel lacks {[n for n in need if n not in names]}"
stray = [n for n in names if ".so" in n and n not in need and not n.startswith("kernforge_opencl.libs/")]
assert not stray, f"the wheel holds other libraries: {stray}"
assert not [n for n in names if "libOpenCL" in n], "the ICD loader was bundled"
manifest = json.loads(z.read("kernforge_opencl/opencl.json"))
assert manifest["requires"].get("kernforge") == version, manifest["requires"]
meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
assert f"Requires-Dist: kernforge=={version}" in meta, meta
eps = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
assert "[kernforge.backends]" in eps and "opencl = kernforge_opencl" in eps, eps
print(f"{wheel.split('/')[-1]}: plugin, manifest (requires kernforge {version}), entry point, "
      f"Requires-Dist kernforge=={version}")
PY

echo "== a fresh venv: the repaired core, then pip install <kernforge-opencl>"
venv="$work/venv-backends"
"$py" -m venv "$venv"
"$venv/bin/pip" install -q --no-deps "$core"
"$venv/bin/pip" install -q --no-index "$wheel"
out=$("$venv/bin/kernforge" doctor) || [[ $? == 1 ]]  # 1: degraded is still a listing
echo "$out" | grep -E '^\s+(cpu|opencl)\s' || true
echo "$out" | grep -qE '^\s+opencl\s+(loaded|deferred|unavailable)\s' ||
  { echo "kernforge doctor does not list the opencl backend:"; echo "$out"; exit 1; } >&2
"$venv/bin/python" - <<'PY'
import kernforge as kf
rep = kf.doctor()
eps = [e for e in rep.data["entry_points"] if e["name"] == "opencl"]
assert eps and eps[0]["state"] in ("loaded", "already loaded"), rep.data["entry_points"]
ocl = [b for b in rep.data["backends"] if b["name"] == "opencl"]
assert ocl, [b["name"] for b in rep.data["backends"]]
print("kf.doctor(): opencl", ocl[0]["state"], "from", eps[0]["paths"][0])
if ocl[0]["state"] == "loaded":
    x = kf.ones(4, device="opencl") + 1
    assert x.tolist() == [2.0] * 4
    print("an op on opencl:", x.tolist())
PY

echo "== the same plugin, built for another core version: refused naming both"
manifest=$(ls "$venv"/lib/python3*/site-packages/kernforge_opencl/opencl.json)
"$py" - "$manifest" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["requires"]["kernforge"] = "0.0.9"
json.dump(m, open(sys.argv[1], "w"))
PY
out=$("$venv/bin/kernforge" doctor --verbose 2>&1) || true
echo "$out" | grep -E 'opencl' | head -3
echo "$out" | grep -q "built for kernforge 0.0.9" && echo "$out" | grep -q "this is kernforge" ||
  { echo "the mismatched opencl plugin was not refused naming both versions" >&2; exit 1; }
echo "python.backend_wheels: all checks passed"
