"""Run by check_cuda_wheel.sh with the venv's python, the toolkit hidden: kf.doctor() names the
cuda plugin's preloads cuBLASLt, cuBLAS, the CUDA runtime, cuFFT, nvJitLink, cuSPARSE and
cuSOLVER as loaded from NVIDIA's wheels (site-packages/nvidia/...), in PyTorch's order."""
import os
import sys
import sysconfig

import kernforge as kf

site = sysconfig.get_paths()["purelib"]
rep = kf.doctor()
cuda = [b for b in rep.data["runtime"]["backends"] if b["name"] == "cuda"]
assert cuda, [b["name"] for b in rep.data["runtime"]["backends"]]
b = cuda[0]
print("cuda:", b["state"], "-", (b["reason"] or b["details"])[:300])
libs = b["libraries"]
for lib in libs:
    print(f"  {lib['soname']:22} {lib['how']:14} {lib['path']}")
nvidia = os.path.join(site, "nvidia") + os.sep
order = [lib["soname"].split(".so")[0] for lib in libs if lib["path"].startswith(nvidia)]
expected = ["libcublasLt", "libcublas", "libcudart", "libcufft", "libnvJitLink", "libcusparse",
            "libcusolver"]
if order[:7] != expected:
    sys.exit(f"the preloads from {nvidia} are {order}, not {expected}")
blas = [lib for lib in libs if lib["soname"].startswith("libcublas.so")]
if not blas or blas[0]["how"] not in ("loaded", "already mapped"):
    sys.exit(f"libcublas was not loaded: {blas}")
print("libcublas loaded from", blas[0]["path"])
