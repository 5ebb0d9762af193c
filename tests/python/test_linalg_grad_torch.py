"""The gradients of the linalg ops and sort against torch's: each case of linalg_grad_cases.py
differentiated by kernforge here and by torch 1.13 in a separate process (Debian's
/usr/bin/python3; skipped where it or its torch is missing)."""

import numpy as np
import pytest

import kernforge as kf
from torch_reference import torch_results
import linalg_grad_cases as cases

@pytest.fixture(scope="module")
def torch_grads():
    return torch_results("linalg_grad_cases.py")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_gradient_matches_torch(name, torch_grads):
    inputs, f = cases.CASES[name]
    xs = [kf.asarray(np.array(a, dtype=np.float64), requires_grad=True) for a in inputs]
    y = f(kf, *xs)
    w = kf.asarray(cases.weights(tuple(y.shape)))
    grads = kf.autograd.grad(y, xs, grad_outputs=w)
    for i, (g, want) in enumerate(zip(grads, torch_grads[name])):
        np.testing.assert_allclose(g.numpy(), np.array(want), rtol=1e-9, atol=1e-10,
                                   err_msg=f"{name}: input {i}")
