"""Runs a cases module under Debian's /usr/bin/python3 (the only interpreter with torch 1.13
here), in a process of its own, and returns what it prints as JSON: torch's gradients for the
reference tests (test_linalg_grad_torch.py, test_complex_grad_torch.py). Skips the calling test
where that interpreter or its torch is missing."""

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
    r = subprocess.run([python, str(HERE / cases_file)], capture_output=True, text=True,
                       cwd=HERE, timeout=300)
    if r.returncode != 0 and "No module named 'torch'" in r.stderr:
        pytest.skip("/usr/bin/python3 has no torch")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)
