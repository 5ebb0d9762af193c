#!/usr/bin/env bash
# The self-contained wheel (issue 26, item 2), from the wheel python.install built:
#   check_wheel_repair.sh <python> <source dir> <work dir> <python.install's work dir> [hidden]
# 1. packaging/python/repair_wheel.sh (auditwheel repair) bundles its native libraries; the
#    repaired wheel holds one libkernforge file (the soname), its version is the build's
#    (packaging/python/kernforge_version.py) and its tag is manylinux.
# 2. It is installed into a fresh venv that sees nothing of the system's site-packages; every
#    DT_NEEDED of every ELF file in it resolves inside the wheel or to a library the tag's
#    manylinux policy allows (check_wheel_needed.py, with auditwheel's own policy file); it is
#    used from outside the source tree (import, matmul, the load report, the console script).
# With "hidden" as the fifth argument (python.wheel_hidden_system_libs) it runs, instead, the
# repaired venv with the system's copies of the bundled libraries made unreachable in a mount
# namespace (check_wheel_hidden.py); where `unshare --mount` is not permitted (no
# CAP_SYS_ADMIN, a container that forbids it) it exits 77, which CTest reports as skipped.
set -euo pipefail
py="$1" src="$2" work="$3" install_work="$4" mode="${5:-}"
venv="$work/venv-repaired"
site() { "$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'; }

if [[ "$mode" == hidden ]]; then
  [[ -x "$venv/bin/python" ]] || { echo "no repaired venv in $work: run python.wheel_repair first" >&2; exit 1; }
  if ! unshare --mount --propagation private true 2>/dev/null; then
    echo "skipped: unshare --mount is not permitted here (needs root or CAP_SYS_ADMIN), so the" \
         "system's libraries cannot be hidden from the wheel; python.wheel_repair still checked" \
         "every DT_NEEDED"
    exit 77
  fi
  exec unshare --mount --propagation private "$py" "$src/tests/python/check_wheel_hidden.py" \
    "$venv/bin/python" "$(site)"
fi

rm -rf "$work/repaired" "$venv"
mkdir -p "$work"
wheel=$(ls "$install_work"/dist/kernforge-*-linux_*.whl)
echo "== auditwheel repair $(basename "$wheel")"
KF_AUDITWHEEL_VENV="$work/auditwheel-venv" bash "$src/packaging/python/repair_wheel.sh" "$wheel" "$work/repaired" 2>&1 |
  grep -v '^INFO:auditwheel\.\(elfutils\|lddtree\)' || true
repaired=$(ls "$work"/repaired/kernforge-*-manylinux_*.whl)
echo "repaired: $(basename "$repaired"), $(du -k "$repaired" | cut -f1) KiB (unrepaired $(du -k "$wheel" | cut -f1) KiB)"
# auditwheel's venv has `packaging`, for the version's PEP 440 spelling.
"$work/auditwheel-venv/bin/python" - "$repaired" "$src" <<'PY'
import importlib.util, pathlib, re, sys, zipfile
from packaging.version import Version
wheel, src = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
names = zipfile.ZipFile(wheel).namelist()
cores = [n for n in names if re.fullmatch(r"kernforge/lib/libkernforge\.so.*", n)]
assert cores == ["kernforge/lib/libkernforge.so.2"], f"libkernforge is not one file: {cores}"
libs = [n for n in names if n.startswith("kernforge.libs/")]
assert any("libopenblas" in n for n in libs), f"OpenBLAS was not bundled: {libs}"
spec = importlib.util.spec_from_file_location("v", src / "packaging/python/kernforge_version.py")
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)
want = Version(v.wheel_version())
got = Version(wheel.name.split("-")[1])
assert got == want, f"the wheel's version is {got}, the build's is {want}"
print(f"one libkernforge file; version {got}; bundled: {', '.join(n.split('/')[1] for n in libs if n[-1] != '/')}")
PY

echo "== pip install <repaired wheel>, in a fresh venv"
"$py" -m venv "$venv"
"$venv/bin/pip" install -q --no-deps "$repaired"
"$work/auditwheel-venv/bin/python" "$src/tests/python/check_wheel_needed.py" "$(site)"
cd "$work"  # outside the source tree
"$venv/bin/python" - <<'PY'
import kernforge as kf
a = kf.ones((96, 96))
assert (a @ a).tolist()[1][2] == 96.0
rep = kf.doctor()
cpu = [b for b in rep.data["backends"] if b["name"] == "cpu"]
assert cpu and cpu[0]["state"] == "loaded", str(rep)
print("cpu backend:", cpu[0]["library_path"])
PY
"$venv/bin/kernforge" info | head -2
echo "python.wheel_repair: all checks passed"
