"""`import kernforge` in an interpreter whose static TLS other modules have taken.

The core (and libgomp, which the CPU plugin brings) use the initial-exec TLS model, so
dlopen must find their thread-local blocks room in glibc's static TLS surplus, which every
module loaded before them with the same model shares. glibc guarantees dlopen'ed modules 512
bytes of it (the tunable glibc.rtld.optional_static_tls). These tests take the surplus away
with a filler library of initial-exec TLS loaded first: kernforge, with its CPU backend,
must import and compute when the filler leaves those 512 bytes, and the control shows that
the filler does bite when it leaves nothing.
"""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

GUARANTEED = 512  # bytes of static TLS glibc promises modules opened by dlopen

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("cc") is None,
    reason="glibc's static TLS and a C compiler (cc) are needed")


@pytest.fixture(scope="module")
def filler(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    made = {}

    def make(size):
        if size not in made:
            src = folder / f"fill{size}.c"
            src.write_text(textwrap.dedent(f"""
                __attribute__((tls_model("initial-exec"))) __thread char kf_fill[{max(size, 1)}];
                char* kf_fill_touch(void) {{ return kf_fill; }}
            """))
            lib = folder / f"libfill{size}.so"
            subprocess.run(["cc", "-shared", "-fPIC", "-O0", "-o", str(lib), str(src)],
                           check=True)
            made[size] = str(lib)
        return made[size]
    return make


def run(code, lib):
    prelude = f"import ctypes; ctypes.CDLL({lib!r}).kf_fill_touch()\n"
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True,
                          text=True, env=dict(os.environ))


def largest_filler(filler):
    """The largest filler that a bare interpreter can open (the surplus left after start-up)."""
    lo, hi = 0, 1 << 16
    while hi - lo > 16:
        mid = (lo + hi) // 2
        if run("", filler(mid)).returncode == 0:
            lo = mid
        else:
            hi = mid
    return lo


USE = """
import kernforge as kf
cpu = [b for b in kf.backends() if b["name"] == "cpu"][0]
assert cpu["state"] == "loaded", cpu
assert (kf.ones(3) + 1).tolist() == [2.0, 2.0, 2.0]
assert kf.matmul(kf.ones((64, 64)), kf.ones((64, 64))).sum().item() == 64 ** 3
print("ok")
"""


def test_kernforge_fits_in_the_surplus_glibc_guarantees(filler):
    room = largest_filler(filler)
    assert room > GUARANTEED, f"this interpreter leaves only {room} bytes of static TLS"
    r = run(USE, filler(room - GUARANTEED))
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr


def test_the_filler_takes_the_surplus_away(filler):
    # The control: with no surplus left, kernforge's core (or its CPU backend) cannot load.
    r = run(USE, filler(largest_filler(filler)))
    assert r.returncode != 0 or "ok" not in r.stdout
