"""Complex gradients against torch's: each case of complex_grad_cases.py differentiated by
kernforge here and by torch 1.13 in a separate process (Debian's /usr/bin/python3; skipped
where it or its torch is missing)."""

import json
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

import complex_grad_cases as cases
import kernforge as kf

HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def torch_grads():
    python = "/usr/bin/python3"
    if shutil.which(python) is None:
        pytest.skip("no /usr/bin/python3 to run torch in")
    r = subprocess.run([python, str(HERE / "complex_grad_cases.py")], capture_output=True,
                       text=True, cwd=HERE, timeout=300)
    if r.returncode != 0 and "No module named 'torch'" in r.stderr:
        pytest.skip("/usr/bin/python3 has no torch")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_complex_gradient_matches_torch(name, torch_grads):
    inputs, f = cases.CASES[name]
    xs = [kf.asarray(np.array(a), requires_grad=True) for a in inputs]
    y = f(kf, *xs)
    grads = kf.autograd.grad(y, xs, grad_outputs=kf.asarray(cases.seed(y.numpy())))
    for i, (g, (re, im)) in enumerate(zip(grads, torch_grads[name])):
        np.testing.assert_allclose(g.numpy(), np.array(re) + 1j * np.array(im), rtol=1e-9,
                                   atol=1e-10, err_msg=f"{name}: input {i}")
