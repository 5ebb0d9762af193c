"""oneDNN is mapped at its first use, not at start-up (Note [oneDNN on first use] in
backends/cpu/onednn/onednn_api.h): a fresh process that imports kernforge and adds two tensors
has no libdnnl mapped; its first bfloat16 matmul maps it, and the product is right."""
import os
import subprocess
import sys

import pytest

CHILD = r"""
import kernforge as kf

def mapped():
    with open("/proc/self/maps") as f:
        return sorted({line.split()[-1] for line in f if "libdnnl" in line})

a = kf.ones((2, 3)) + 1
before = mapped()
x = kf.ones((32, 32), dtype=kf.bfloat16)
y = (x @ x).tolist()
after = mapped()
print(repr((before, after, y[0][0], y[31][31])))
"""


def plugin_folder():
    import kernforge as kf
    cpu = [b for b in kf.doctor().data["backends"] if b["name"] == "cpu"]
    if not cpu or not cpu[0]["library_path"]:
        pytest.skip("no cpu plugin loaded")
    return os.path.dirname(cpu[0]["library_path"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_onednn_is_mapped_at_first_use_only():
    if not os.path.exists(os.path.join(plugin_folder(), "libkernforge_cpu_onednn.so")):
        pytest.skip("the cpu plugin was built without oneDNN (libdnnl-dev), nothing to check")
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         check=True).stdout
    before, after, first, last = eval(out)  # noqa: S307 (our own child's repr)
    assert before == [], f"oneDNN was mapped before its first use: {before}"
    assert first == last == 32.0
    # bfloat16 goes through oneDNN only where it has kernels (AVX-512 on); elsewhere through
    # float32, which maps it to choose the float32 engine all the same.
    assert after, "the first matmul did not open oneDNN"
