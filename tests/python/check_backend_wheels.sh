#!/usr/bin/env bash
# One wheel per backend (issue 26, item 3), with the repaired core wheel python.wheel_repair made:
#   check_backend_wheels.sh <python> <source dir> <work dir> <python.wheel_repair's work dir>
#                           [<build dir> <build type> [<backend>...]]
# For each backend named (default: opencl; the CMake test adds rocm where it is built):
# 1. `pip wheel packaging/python/<backend>` (--no-build-isolation: the interpreter's own
#    scikit-build-core and PyYAML, as python.install's extra case; its isolated build is the
#    same pyproject) builds kernforge-<backend>, repaired by auditwheel as the core (the
#    driver's libraries excluded: the OpenCL ICD loader; the HIP runtime); the wheel holds the
#    plugin, its manifest (which requires exactly this core version) and the package folder,
#    registers it in the entry-point group kernforge.backends, and depends on
#    kernforge==<its version>.
# 2. In a fresh venv with the repaired core wheel, `pip install --no-index <kernforge-<backend>>`
#    (the dependency is met by the installed core); `kernforge doctor` and kf.doctor() list the
#    backend from the entry point (PoCL, tools/install-deps.sh, is opencl's driver here; rocm is
#    unavailable without an AMD GPU, with the runtime's reason).
# 3. The opencl plugin with another core version in its manifest is refused by the loader,
#    which names both versions.
# Given the CMake build that runs this check, each wheel is built beside it
# (<build>/../pip-<backend>) with its build type, so that ccache serves the objects that build
# compiled.
set -euo pipefail
py="$1" src="$2" work="$3" repair_work="$4" cmake_build="${5:-}" build_type="${6:-}"
backends=("${@:7}")
((${#backends[@]})) || backends=(opencl)
rm -rf "$work/dist" "$work/repaired" "$work/venv-backends"
mkdir -p "$work"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$src}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
builds="$work/builds"
[[ -z "$cmake_build" ]] || builds="$(cd "$cmake_build/.." && pwd)"
settings=()
[[ -z "$build_type" ]] || settings=(--config-settings="cmake.build-type=$build_type")
core=$(ls "$repair_work"/repaired/kernforge-*-manylinux_*.whl)
cd "$work"

# The libraries of a backend's driver, which stay the system's.
driver_libs() {
  case "$1" in
    opencl) echo libOpenCL.so.1 ;;
    rocm) echo libamdhip64.so.5 libhsa-runtime64.so.1 ;;
  esac
}

# Builds, repairs and inspects kernforge-<backend>; prints the repaired wheel's path last.
build_wheel() {
  local b="$1" excludes=() lib
  for lib in $(driver_libs "$b"); do excludes+=(--exclude "$lib"); done
  echo "== pip wheel packaging/python/$b" >&2
  SKBUILD_BUILD_DIR="$builds/pip-$b" \
    "$py" -m pip wheel --no-build-isolation --no-deps -q "${settings[@]}" -w "$work/dist" \
    "$src/packaging/python/$b" >&2
  local built
  built=$(ls "$work"/dist/kernforge_"$b"-*.whl)
  # Self-contained as the core's (libcrypto for opencl's program cache), but the driver's
  # libraries stay the system's: they come with the driver.
  KF_AUDITWHEEL_VENV="$repair_work/auditwheel-venv" bash "$src/packaging/python/repair_wheel.sh" \
    "$built" "$work/repaired" "${excludes[@]}" 2>&1 | grep -E '^Fixed-up|Error' >&2 || true
  local wheel
  wheel=$(ls "$work"/repaired/kernforge_"$b"-*-manylinux_*.whl)
  "$py" - "$wheel" "$core" "$b" $(driver_libs "$b") <<'PY' >&2
import json, sys, zipfile
wheel, core, b, driver = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
version = core.split("/")[-1].split("-")[1]
pkg = f"kernforge_{b}"
z = zipfile.ZipFile(wheel)
names = z.namelist()
need = [f"{pkg}/__init__.py", f"{pkg}/libkernforge_{b}.so", f"{pkg}/{b}.json"]
assert all(n in names for n in need), f"the wheel lacks {[n for n in need if n not in names]}"
stray = [n for n in names if ".so" in n and n not in need and not n.startswith(f"{pkg}.libs/")]
assert not stray, f"the wheel holds other libraries: {stray}"
bundled = [n for n in names for d in driver if d.split(".so")[0] in n]
assert not bundled, f"the driver's libraries were bundled: {bundled}"
manifest = json.loads(z.read(f"{pkg}/{b}.json"))
assert manifest["requires"].get("kernforge") == version, manifest["requires"]
meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
assert f"Requires-Dist: kernforge=={version}" in meta, meta
eps = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
assert "[kernforge.backends]" in eps and f"{b} = {pkg}" in eps, eps
print(f"{wheel.split('/')[-1]}: plugin, manifest (requires kernforge {version}), entry point, "
      f"Requires-Dist kernforge=={version}")
PY
  echo "$wheel"
}

wheels=()
for b in "${backends[@]}"; do wheels+=("$(build_wheel "$b")"); done

echo "== a fresh venv: the repaired core, then pip install ${backends[*]/#/kernforge-}"
venv="$work/venv-backends"
"$py" -m venv "$venv"
"$venv/bin/pip" install -q --no-deps "$core"
"$venv/bin/pip" install -q --no-index "${wheels[@]}"
out=$("$venv/bin/kernforge" doctor) || [[ $? == 1 ]]  # 1: degraded is still a listing
listed=$(IFS='|'; echo "${backends[*]}")
echo "$out" | grep -E "^\s+(cpu|$listed)\s" || true
for b in "${backends[@]}"; do
  echo "$out" | grep -qE "^\s+$b\s+(loaded|deferred|unavailable)\s" ||
    { echo "kernforge doctor does not list the $b backend:"; echo "$out"; exit 1; } >&2
done
"$venv/bin/python" - "${backends[@]}" <<'PY'
import sys
import kernforge as kf
rep = kf.doctor()
for b in sys.argv[1:]:
    eps = [e for e in rep.data["entry_points"] if e["name"] == b]
    want = ("loaded", "already loaded") if b == "opencl" else ("loaded", "unavailable")
    assert eps and eps[0]["state"] in want, rep.data["entry_points"]
    found = [x for x in rep.data["backends"] if x["name"] == b]
    assert found, [x["name"] for x in rep.data["backends"]]
    print(f"kf.doctor(): {b}", found[0]["state"], "from", eps[0]["paths"][0])
    if found[0]["state"] == "loaded":
        x = kf.ones(4, device=b) + 1
        assert x.tolist() == [2.0] * 4
        print(f"an op on {b}:", x.tolist())
    elif b == "rocm":
        assert "no AMD GPU" in found[0]["reason"], found[0]["reason"]
        assert "no AMD GPU" in eps[0]["error"], eps[0]
assert rep.ok, "kf.doctor() counts an unavailable backend as a failure:\n" + str(rep)
PY

echo "== the same opencl plugin, built for another core version: refused naming both"
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
echo "python.backend_wheels: all checks passed (${backends[*]})"
