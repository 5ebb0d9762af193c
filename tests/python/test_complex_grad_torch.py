"""Complex gradients against torch's: each case of complex_grad_cases.py differentiated by
kernforge here and by torch 1.13 in a separate process (Debian's /usr/bin/python3; skipped
where it or its torch is missing)."""

import numpy as np
import pytest

import complex_grad_cases as cases
import kernforge as kf
from torch_reference import torch_results


@pytest.fixture(scope="module")
def torch_grads():
    return torch_results("complex_grad_cases.py")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_complex_gradient_matches_torch(name, torch_grads):
    inputs, f = cases.CASES[name]
    xs = [kf.asarray(np.array(a), requires_grad=True) for a in inputs]
    y = f(kf, *xs)
    grads = kf.autograd.grad(y, xs, grad_outputs=kf.asarray(cases.seed(y.numpy())))
    for i, (g, (re, im)) in enumerate(zip(grads, torch_grads[name])):
        np.testing.assert_allclose(g.numpy(), np.array(re) + 1j * np.array(im), rtol=1e-9,
                                   atol=1e-10, err_msg=f"{name}: input {i}")
