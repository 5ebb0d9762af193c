"""Autograd from Python: requires_grad, backward, .grad, grad(), grad mode, and what the
engine refuses. Gradients of single ops are checked against finite differences in the C ABI
tests (tests/abi/test_autograd.cpp); here the Python surface over them."""

import math

import pytest

import kernforge as kf


def values(t):
    return [round(v, 6) for v in t.reshape([-1]).tolist()]


def test_backward_fills_grad_of_leaves():
    x = kf.asarray([0.5, -1.0, 2.0], dtype=kf.float64, requires_grad=True)
    w = kf.ones((3,), dtype=kf.float64, requires_grad=True)
    assert x.requires_grad and x.is_leaf and x.grad is None and x.grad_fn is None
    y = (x * x * w + kf.exp(x)).sum()
    assert y.requires_grad and not y.is_leaf and y.grad_fn == "sum"
    y.backward()
    assert values(x.grad) == [round(2 * v + math.exp(v), 6) for v in (0.5, -1.0, 2.0)]
    assert values(w.grad) == [0.25, 1.0, 4.0]


def test_gradients_accumulate_and_can_be_cleared():
    x = kf.asarray([1.0, 2.0], requires_grad=True)
    for _ in range(2):
        (x * 3).sum().backward()
    assert values(x.grad) == [6.0, 6.0]
    x.grad = None
    assert x.grad is None


def test_a_broadcast_input_gets_a_gradient_of_its_own_shape():
    x = kf.ones((2, 3), requires_grad=True)
    b = kf.asarray([1.0, 2.0, 3.0], requires_grad=True)
    ((x + b) * b).sum().backward()
    assert b.grad.shape == (3,)
    assert values(b.grad) == [6.0, 10.0, 14.0]  # sum over rows of x + 2b
    assert values(x.grad) == [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]


def test_creation_functions_take_requires_grad():
    for t in (kf.zeros((2,), requires_grad=True), kf.ones((2,), requires_grad=True),
              kf.full((2,), 3.0, requires_grad=True), kf.empty((2,), requires_grad=True),
              kf.arange(0.0, 3.0, requires_grad=True), kf.linspace(0, 1, 3, requires_grad=True),
              kf.eye(2, requires_grad=True), kf.tensor([1.0], requires_grad=True),
              kf.zeros_like(kf.ones((2,)), requires_grad=True)):
        assert t.requires_grad and t.is_leaf
    assert not kf.zeros((2,)).requires_grad


def test_no_grad_and_enable_grad():
    x = kf.ones((2,), requires_grad=True)
    assert kf.is_grad_enabled()
    with kf.no_grad():
        assert not kf.is_grad_enabled()
        assert not (x * 2).requires_grad
        with kf.enable_grad():
            assert (x * 2).requires_grad
    assert kf.is_grad_enabled()

    @kf.no_grad()
    def infer(t):
        return t * 2
    assert not infer(x).requires_grad
    kf.set_grad_enabled(False)
    assert not (x * 2).requires_grad
    kf.set_grad_enabled(True)
    assert (x * 2).requires_grad


def test_grad_returns_and_leaves_dot_grad_alone():
    x = kf.asarray([1.0, 2.0], dtype=kf.float64, requires_grad=True)
    y = (x ** 3).sum() if hasattr(x, "__pow__") else (x * x * x).sum()
    (g,) = kf.autograd.grad(y, x, create_graph=True)
    assert values(g) == [3.0, 12.0]
    (g2,) = kf.autograd.grad(g.sum(), x)
    assert values(g2) == [6.0, 12.0]
    assert x.grad is None


def test_detach_and_requires_grad_():
    x = kf.ones((2,)).requires_grad_()
    d = (x * 2).detach()
    assert not d.requires_grad and d.is_leaf
    assert x.requires_grad_(False) is x and not x.requires_grad


def test_errors_say_what_to_do():
    x = kf.ones((3,), requires_grad=True)
    y = x * 2
    with pytest.raises(ValueError, match="one-element"):
        y.backward()
    y.sum().backward()
    with pytest.raises(Exception, match="second time"):
        s = (x * x).sum()
        s.backward()
        s.backward()
    with pytest.raises(ValueError, match="leaf"):
        x.add_(1)
    with pytest.raises(ValueError, match="floating"):
        kf.zeros((2,), dtype=kf.int64).requires_grad = True
    with kf.no_grad():
        x.add_(1)  # an optimizer's update
    assert values(x) == [2.0, 2.0, 2.0]


def test_a_small_regression_trains():
    kf.manual_seed(0)
    xs = kf.randn((64, 3))
    true_w = kf.asarray([[1.5], [-2.0], [0.5]])
    ys = xs @ true_w
    w = kf.zeros((3, 1), requires_grad=True)
    for _ in range(200):
        loss = ((xs @ w - ys) ** 2).mean() if hasattr(xs, "__pow__") else \
            ((xs @ w - ys) * (xs @ w - ys)).mean()
        w.grad = None
        loss.backward()
        with kf.no_grad():
            w.sub_(w.grad * 0.1)
    assert loss.item() < 1e-4
    assert values(w) == pytest.approx([1.5, -2.0, 0.5], abs=1e-2)


def test_in_place_ops_on_results_record_and_read_what_they_overwrote():
    x = kf.asarray([1.0, 3.0], dtype=kf.float64, requires_grad=True)
    y = x * 2
    y.mul_(y)            # y = (2x)^2, reading y as it was before the write
    y.add_(x)            # + x
    assert y.grad_fn == "add"
    y.sum().backward()
    assert values(x.grad) == [9.0, 25.0]  # 8x + 1


def test_a_complex_result_of_a_real_tensor_passes_its_gradient_back():
    x = kf.ones((2,), requires_grad=True)
    z = x.to(dtype=kf.complex64) * kf.asarray([1 + 2j, 3 - 1j], dtype=kf.complex64)
    assert z.requires_grad
    with pytest.raises(ValueError, match="complex"):
        z.sum().backward()  # no implicit gradient for a complex output
    kf.real(z).sum().backward()
    assert x.grad.dtype == kf.float32 and values(x.grad) == [1.0, 3.0]


def test_every_float_output_of_an_op_with_several_outputs_records():
    x = kf.asarray([[4.0, 1.0], [1.0, 3.0]], dtype=kf.float64, requires_grad=True)
    values_, vectors = kf.linalg.eigh(x)
    assert values_.grad_fn == "linalg_eigh" and vectors.grad_fn == "linalg_eigh"
    sign, logabsdet = kf.linalg.slogdet(x)
    assert not sign.requires_grad and logabsdet.grad_fn == "linalg_slogdet"
    solution, residuals, rank, sv = kf.linalg.lstsq(x, kf.ones((2, 1), dtype=kf.float64))
    assert solution.requires_grad
    assert not (residuals.requires_grad or rank.requires_grad or sv.requires_grad)
    # A gradient may start at any output, and grad() may stop at any.
    u, s, vh = kf.linalg.svd(x, full_matrices=False)
    (gs,) = kf.autograd.grad((s * s).sum(), [s])
    assert values(gs) == values(s * 2)


def test_an_output_without_a_gradient_does_not_spoil_the_others():
    # Repeated eigenvalues: the eigenvectors' gradient is not finite there, but the
    # eigenvalues' alone (the vectors' gradient never arrives) is V diag(g) V^T.
    x = kf.eye(3, dtype=kf.float64, requires_grad=True)
    values_, _ = kf.linalg.eigh(x * 2)
    values_.sum().backward()
    assert values(x.grad) == [2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0]


def test_linalg_gradients_refuse_what_is_not_determined():
    tall = kf.asarray([[1.0, 0.2], [0.3, -1.2], [0.7, 0.4]], dtype=kf.float64,
                      requires_grad=True)
    u, _, _ = kf.linalg.svd(tall)  # full_matrices=True: U's last column is arbitrary
    with pytest.raises(NotImplementedError, match="full_matrices=False"):
        u.sum().backward()
    q, _ = kf.linalg.qr(tall, mode="complete")
    with pytest.raises(NotImplementedError, match="complete=False"):
        q.sum().backward()
    with pytest.raises(NotImplementedError, match="linalg_det.*complex"):
        kf.linalg.det(kf.ones((2, 2), dtype=kf.complex128, requires_grad=True))


def test_linalg_gradients_keep_float32():
    m = [[2.0, 0.3, -0.5], [0.4, 1.5, 0.2], [-0.3, 0.6, 1.8]]
    x = kf.asarray(m, dtype=kf.float32, requires_grad=True)
    kf.linalg.det(x).backward()
    assert x.grad.dtype == kf.float32
    d, inv = kf.linalg.det(x.detach()), kf.linalg.inv(x.detach())
    want = (inv.mT * d).reshape([-1]).tolist()
    assert values(x.grad) == pytest.approx(want, rel=1e-4)
    u, s, vh = kf.linalg.svd(x, full_matrices=False)
    ((u * u).sum() + s.sum() + (vh * vh).sum()).backward()
    assert x.grad.dtype == kf.float32


def test_gradients_flow_across_devices():
    if not any(b["device_type"] == "opencl" and b["device_count"] > 0 for b in kf.backends()):
        pytest.skip("no opencl device")
    x = kf.asarray([1.0, 2.0, 3.0], dtype=kf.float64, requires_grad=True)
    y = x.to("opencl:0")
    assert y.requires_grad and y.grad_fn == "to"
    (kf.exp(y) * 2).sum().backward()
    assert str(x.grad.device) == "cpu"
    assert values(x.grad) == [round(2 * math.exp(v), 6) for v in (1.0, 2.0, 3.0)]
    w = kf.asarray([0.5, -1.0], device="opencl:0", requires_grad=True)
    (w.to("cpu") * 4).sum().backward()
    assert str(w.grad.device) == "opencl:0" and values(w.grad.to("cpu")) == [4.0, 4.0]
