"""Runs a cases module under Debian's /usr/bin/python3 (the only interpreter with torch 1.13
here), in a process of its own, and returns what it prints as JSON: torch's gradients for the
reference tests (test_linalg_grad_torch.py, test_complex_grad_torch.py). Skips the calling test
where that interpreter, or the numpy or torch the cases import, is missing (Debian's python3-torch
brings both); an import that fails for another reason fails the test."""

import json
import pathlib
import shutil
import subprocess

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def torch_results(cases_file):
    python = "/usr/bin/python3"
    if shutil.which(python) is None:
        pytest.skip("no /usr/bin/python3 to run torch in")
    probe = subprocess.run([python, "-c", "import numpy, torch"], capture_output=True, text=True,
                           timeout=120)
    if probe.returncode != 0 and "ModuleNotFoundError" in probe.stderr:
        missing = probe.stderr.strip().splitlines()[-1]
        pytest.skip(f"{python}: {missing} (apt-get install python3-torch brings numpy and torch)")
    r = subprocess.run([python, str(HERE / cases_file)], capture_output=True, text=True,
                       cwd=HERE, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)
