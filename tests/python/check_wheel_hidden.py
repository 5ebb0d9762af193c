"""Runs the installed self-contained wheel with the system's copies of the libraries it bundles
made unreachable: in a mount namespace of its own (run it under `unshare --mount`, as root), an
empty file is bind-mounted over each system copy of every library in kernforge.libs/, then the
venv's python imports kernforge, multiplies float32 (OpenBLAS and oneDNN sizes) and bfloat16
matrices, and checks that the cpu backend is loaded and that no library it mapped comes from
a hidden file.

    check_wheel_hidden.py <venv python> <site-packages>

A bundled library is named <name>-<8 hex digits of its hash><rest> after the system file it was
copied from (<name><rest>, e.g. libopenblasp-r0-234bd196.3.21.so from libopenblasp-r0.3.21.so),
which is looked for in the system's library folders (ldconfig's cache, followed through its
links, and the folders below /usr/lib).
"""
import os
import pathlib
import re
import subprocess
import sys

SMOKE = r"""
import kernforge as kf
a = kf.ones((32, 32)) + 1
assert (a @ a).tolist()[0][0] == 128.0                 # OpenBLAS (a small product)
b = kf.ones((128, 128))
assert (b @ b).tolist()[5][7] == 128.0                 # the float32 engine (oneDNN or OpenBLAS)
c = kf.ones((64, 64), dtype=kf.bfloat16)
assert float((c @ c).tolist()[0][0]) == 64.0           # oneDNN where it has bfloat16 kernels
rep = kf.doctor()
cpu = [b for b in rep.data["backends"] if b["name"] == "cpu"]
assert cpu and cpu[0]["state"] == "loaded", str(rep)
with open("/proc/self/maps") as f:
    mapped = sorted({line.split()[-1] for line in f if ".so" in line})
print("\n".join(mapped))
"""


def original_name(bundled):
    m = re.match(r"^(.*)-[0-9a-f]{8}(\..*)$", bundled)
    return m.group(1) + m.group(2) if m else None


def system_files():
    """Real paths of the system's shared libraries, by file name."""
    found = {}
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "=>" in line:
            path = os.path.realpath(line.split("=>")[1].strip())
            found.setdefault(os.path.basename(path), set()).add(path)
    for root in ("/usr/lib", "/usr/local/lib"):
        for folder, _dirs, files in os.walk(root):
            if "python" in folder or "site-packages" in folder:
                continue
            for f in files:
                if ".so" in f:
                    path = os.path.realpath(os.path.join(folder, f))
                    found.setdefault(os.path.basename(path), set()).add(path)
    return found


def hide(paths, empty):
    for path in sorted(paths):
        subprocess.run(["mount", "--bind", empty, path], check=True)


def main():
    python, site = sys.argv[1], pathlib.Path(sys.argv[2])
    bundled = sorted(p.name for p in (site / "kernforge.libs").iterdir())
    files = system_files()
    hidden = set()
    for name in bundled:
        original = original_name(name)
        copies = files.get(original, set()) if original else set()
        print(f"{name}: hiding {', '.join(sorted(copies)) or 'nothing (no system copy)'}")
        hidden |= copies
    empty = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"kf-empty-{os.getpid()}")
    open(empty, "w").close()
    try:
        hide(hidden, empty)
        for path in sorted(hidden):
            assert os.path.getsize(path) == 0, f"{path} is still reachable"
        proc = subprocess.run([python, "-c", SMOKE], capture_output=True, text=True,
                              cwd="/")
    finally:
        os.unlink(empty)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print(f"the wheel failed with {len(hidden)} system libraries hidden")
        return 1
    mapped = proc.stdout.split()
    wrong = [m for m in mapped if m in hidden]
    if wrong:
        print(f"mapped from hidden system files: {wrong}")
        return 1
    ours = [m for m in mapped if m.startswith(str(site))]
    print(f"import, float32 and bfloat16 matmul ran with {len(hidden)} system libraries hidden; "
          f"{len(ours)} libraries mapped from the wheel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
