"""Complex autograd through the Python surface: complex leaves, the real part a real input
gets, a complex parameter fitted by SGD, and the refusal of formulas written for real dtypes."""

import numpy as np
import pytest

import kernforge as kf


def test_a_complex_leaf_gets_dl_dre_plus_i_dl_dim():
    z = kf.asarray([1.0 + 2.0j, -0.5 + 0.25j], dtype=kf.complex128,
                   requires_grad=True)
    loss = (kf.abs(z) ** 2).sum()  # |z|^2: d/dRe = 2 Re z, d/dIm = 2 Im z
    loss.backward()
    assert z.grad.dtype == kf.complex128
    np.testing.assert_allclose(z.grad.numpy(), 2 * z.detach().numpy())


def test_a_real_input_of_a_complex_op_gets_the_real_part():
    x = kf.asarray([0.5, -1.0, 2.0], dtype=kf.float64, requires_grad=True)
    spectrum = kf.fft.rfft(x)
    (kf.real(spectrum).sum() + kf.imag(spectrum).sum()).backward()
    assert x.grad.dtype == kf.float64
    # real parts: sum_k cos(2 pi jk/3) over k = 0, 1; imag parts: -sin(2 pi j/3)
    j = np.arange(3)
    np.testing.assert_allclose(x.grad.numpy(), 1 + np.cos(2 * np.pi * j / 3)
                               - np.sin(2 * np.pi * j / 3), atol=1e-12)


def test_sgd_fits_a_complex_parameter():
    a = kf.asarray([[1.0 + 0.5j, -0.3j], [0.2, 0.8 - 0.1j], [-0.4 + 0.3j, 1.1]],
                   dtype=kf.complex128)
    target = kf.asarray([0.7 - 1.2j, 0.3 + 0.4j, -1.0 + 0.2j], dtype=kf.complex128)
    w = kf.zeros((2,), dtype=kf.complex128, requires_grad=True)
    optimizer = kf.optim.SGD([w], lr=0.2)
    losses = []
    for _ in range(60):
        optimizer.zero_grad()
        loss = (kf.abs(a @ w - target) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
    assert all(b <= a_ + 1e-12 for a_, b in zip(losses, losses[1:]))


def test_a_formula_for_real_dtypes_refuses_a_complex_input_naming_the_op():
    z = kf.asarray([1.0 + 1.0j, 2.0], dtype=kf.complex128, requires_grad=True)
    with pytest.raises(NotImplementedError, match="'sign' has no complex gradient"):
        kf.sign(z)
    with kf.no_grad():
        assert kf.sign(z).dtype == kf.complex128
    with pytest.raises(NotImplementedError, match="linalg_det"):
        kf.linalg.det(kf.eye(2, dtype=kf.complex64, requires_grad=True))


def test_complex_requires_grad_on_creation_and_integers_refused():
    assert kf.ones((2,), dtype=kf.complex64, requires_grad=True).requires_grad
    with pytest.raises(ValueError, match="complex"):
        kf.zeros((2,), dtype=kf.int32).requires_grad = True
