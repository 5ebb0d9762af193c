"""The fused optimizer updates: adamw_step_ and sgd_step_ (one pass over a parameter and its
state) and their list ops fused_adamw and fused_sgd (one call per parameter list, which
kf.optim.AdamW and kf.optim.SGD make): against numpy's spelling of PyTorch's formulas for every
dtype they take, against torch's optimizers in a separate process, on strided, flipped and
device tensors, and the errors that leave every parameter as it was."""

import numpy as np
import pytest

import kernforge as kf
from optim_cases import CASES, run
from torch_reference import torch_results

# The ops whose numpy comparison is here (test_ops_numpy_rest.py's coverage check reads it).
COMPARED = {"adamw_step_", "sgd_step_", "fused_adamw", "fused_sgd"}

HYPER = dict(lr=0.05, beta1=0.8, beta2=0.95, eps=1e-6, weight_decay=0.1)
TOL = {"float64": 1e-12, "float32": 1e-5, "complex64": 1e-5, "complex128": 1e-12,
       "float16": 2e-3, "bfloat16": 2e-2}


def adamw_numpy(p, g, m, v, lr, beta1, beta2, eps, weight_decay, step):
    """PyTorch's AdamW step; a complex array's parts each on their own (view_as_real)."""
    if np.iscomplexobj(p):
        parts = [adamw_numpy(*(x.real for x in (p, g, m, v)), lr, beta1, beta2, eps,
                             weight_decay, step),
                 adamw_numpy(*(x.imag for x in (p, g, m, v)), lr, beta1, beta2, eps,
                             weight_decay, step)]
        return tuple(r + 1j * i for r, i in zip(*parts))
    p = p * (1 - lr * weight_decay)
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    denom = np.sqrt(v) / np.sqrt(1 - beta2 ** step) + eps
    return p - lr / (1 - beta1 ** step) * m / denom, m, v


def sgd_numpy(p, g, buf, lr, momentum, dampening, weight_decay, nesterov, first_step):
    g = g + weight_decay * p
    buf = g if first_step else momentum * buf + (1 - dampening) * g
    d = g + momentum * buf if nesterov else buf
    return p - lr * d, buf


def arrays(dtype, shape=(3, 5), seed=0):
    rng = np.random.default_rng(seed)
    x = [rng.standard_normal(shape) for _ in range(4)]
    if dtype.startswith("complex"):
        x = [a + 1j * rng.standard_normal(shape) for a in x]
    x[3] = np.abs(x[3])  # the second moment is not negative
    return x


def as_kf(a, dtype):
    return kf.asarray(a.astype(np.float64 if dtype == "bfloat16" else dtype)).to(getattr(kf, dtype))


def as_np(t):
    return t.to(kf.float64).numpy() if t.dtype in (kf.bfloat16, kf.float16) else t.numpy()


@pytest.mark.parametrize("dtype", list(TOL))
def test_adamw_step_against_numpy(dtype):
    p, g, m, v = arrays(dtype)
    kp, kg, km, kv = (as_kf(a, dtype) for a in (p, g, m, v))
    p, g, m, v = (as_np(t) for t in (kp, kg, km, kv))  # what the kernel starts from
    for step in (1, 2, 3):
        kf.ops.adamw_step_(kp, kg, km, kv, step=step, **HYPER)
        p, m, v = adamw_numpy(p, g, m, v, step=step, **HYPER)
        for got, want in ((kp, p), (km, m), (kv, v)):
            np.testing.assert_allclose(as_np(got), want, rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize("dtype", list(TOL))
@pytest.mark.parametrize("nesterov", [False, True])
def test_sgd_step_against_numpy(dtype, nesterov):
    p, g, buf, _ = arrays(dtype, seed=1)
    kp, kg, kb = (as_kf(a, dtype) for a in (p, g, buf))
    p, g, buf = (as_np(t) for t in (kp, kg, kb))
    hyper = dict(lr=0.1, momentum=0.9, dampening=0.0 if nesterov else 0.25, weight_decay=0.01,
                 nesterov=nesterov)
    for first in (True, False, False):
        kf.ops.sgd_step_(kp, kg, kb, first_step=first, **hyper)
        p, buf = sgd_numpy(p, g, buf, first_step=first, **hyper)
        np.testing.assert_allclose(as_np(kp), p, rtol=TOL[dtype], atol=TOL[dtype])
        np.testing.assert_allclose(as_np(kb), buf, rtol=TOL[dtype], atol=TOL[dtype])


def test_list_ops_update_every_parameter_of_the_list():
    shapes = [(4, 3), (7,), ()]
    ps, gs, ms, vs = zip(*(arrays("float64", s, seed=i) for i, s in enumerate(shapes)))
    kp, kg, km, kv = ([kf.asarray(a) for a in x] for x in (ps, gs, ms, vs))
    assert kf.ops.fused_adamw(kp, kg, km, kv, step=4, **HYPER) is None
    for i in range(len(shapes)):
        want = adamw_numpy(ps[i], gs[i], ms[i], vs[i], step=4, **HYPER)
        for got, w in zip((kp[i], km[i], kv[i]), want):
            np.testing.assert_allclose(got.numpy(), w, rtol=1e-12)
    # without momentum, no buffers: self (1 - lr wd) - lr grad
    before = [t.numpy() for t in kp]
    kf.ops.fused_sgd(kp, kg, [], lr=0.5, momentum=0.0, dampening=0.0, weight_decay=0.2,
                     nesterov=False, first_step=False)
    for t, b, g in zip(kp, before, gs):
        np.testing.assert_allclose(t.numpy(), b * (1 - 0.5 * 0.2) - 0.5 * g, rtol=1e-12)
    kf.ops.fused_adamw([], [], [], [], step=1, **HYPER)  # nothing to update


def test_strided_and_flipped_parameters():
    p, g, m, v = arrays("float64", (4, 6))
    base = kf.asarray(p.T.copy())
    kp = base.T  # a transposed view: written where it lies
    flipped = kf.asarray(m[:, ::-1].copy())
    km = flipped[:, ::-1]  # negative strides: through a temporary, written back
    kg, kv = kf.asarray(g), kf.asarray(v)
    kf.ops.adamw_step_(kp, kg, km, kv, step=2, **HYPER)
    want = adamw_numpy(p, g, m, v, step=2, **HYPER)
    for got, w in zip((base.numpy().T, flipped.numpy()[:, ::-1], kv.numpy()), want):
        np.testing.assert_allclose(got, w, rtol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_optimizers_match_torch(name):
    want = torch_results("optim_cases.py")[name]
    got = run(kf, kf.optim, name)
    np.testing.assert_allclose(np.concatenate([np.ravel(a) for s in got for a in s]),
                               np.concatenate([np.ravel(a) for s in want for a in s]),
                               rtol=1e-10, atol=1e-12)


def test_errors_write_nothing():
    p, g, m, v = (kf.asarray(a.astype(np.float32)) for a in arrays("float32"))
    before = [t.numpy() for t in (p, m, v)]
    with pytest.raises(ValueError, match="share memory"):
        kf.ops.adamw_step_(p, g, p, v, step=1, **HYPER)
    with pytest.raises(ValueError, match="grad is float64 but the parameter"):
        kf.ops.adamw_step_(p, g.to(kf.float64), m, v, step=1, **HYPER)
    with pytest.raises(ValueError, match="steps count from 1"):
        kf.ops.fused_adamw([p], [g], [m], [v], step=0, **HYPER)
    with pytest.raises(ValueError, match="integer|floating point"):
        kf.ops.sgd_step_(kf.ones((2,), dtype=kf.int32), kf.ones((2,), dtype=kf.int32),
                         kf.ones((2,), dtype=kf.int32), lr=0.1, momentum=0.9, dampening=0.0,
                         weight_decay=0.0, nesterov=False, first_step=True)
    q = kf.ones((2,))
    # the second parameter's gradient is wrong: the first parameter is not written either
    with pytest.raises(ValueError, match="entry 1 of grads.*no parameter was written"):
        kf.ops.fused_adamw([p, q], [g, kf.ones((3,))], [m, kf.zeros((2,))], [v, kf.zeros((2,))],
                           step=1, **HYPER)
    with pytest.raises(ValueError, match="exp_avgs has 1 entries but params has 2"):
        kf.ops.fused_adamw([p, q], [g, q], [m], [v, q], step=1, **HYPER)
    with pytest.raises(ValueError, match="momentum_buffers is empty"):
        kf.ops.fused_sgd([p], [g], [], lr=0.1, momentum=0.9, dampening=0.0, weight_decay=0.0,
                         nesterov=False, first_step=True)
    for t, b in zip((p, m, v), before):
        np.testing.assert_array_equal(t.numpy(), b)


def test_a_leaf_that_requires_grad_is_written_under_no_grad_only():
    p = kf.ones((3,), requires_grad=True)
    g, m, v = kf.ones((3,)), kf.zeros((3,)), kf.zeros((3,))
    with pytest.raises(ValueError, match="leaf tensor that requires grad.*no_grad"):
        kf.ops.adamw_step_(p, g, m, v, step=1, **HYPER)
    with kf.no_grad():
        kf.ops.adamw_step_(p, g, m, v, step=1, **HYPER)
    assert p.numpy()[0] < 1


def test_every_written_tensor_gets_a_new_version():
    """A state tensor saved by a recorded op and then written by the update is reported at
    backward, as any in-place change of a saved tensor is."""
    x = kf.ones((3,), requires_grad=True)
    m = kf.full((3,), 2.0)
    y = (x * m).sum()  # mul saves m
    with kf.no_grad():
        kf.ops.adamw_step_(kf.ones((3,)), kf.ones((3,)), m, kf.zeros((3,)), step=1, **HYPER)
    with pytest.raises(RuntimeError, match="modified by an in-place"):
        y.backward()


def opencl_device():
    for b in kf.backends():
        if b["device_type"] == "opencl" and b["device_count"] > 0:
            return "opencl:0"
    pytest.skip("no opencl device")


def test_the_update_on_a_device_without_the_kernel():
    """On opencl, which has no kernel for it, the CPU fallback runs the update and writes the
    parameter and both moments back to the device."""
    device = opencl_device()
    p, g, m, v = arrays("float32")
    on = [kf.asarray(a.astype(np.float32), device=device) for a in (p, g, m, v)]
    kf.ops.fused_adamw([on[0]], [on[1]], [on[2]], [on[3]], step=1, **HYPER)
    want = adamw_numpy(*(a.astype(np.float32) for a in (p, g, m, v)), step=1, **HYPER)
    for got, w in zip((on[0], on[2], on[3]), want):
        assert str(got.device).startswith("opencl")
        np.testing.assert_allclose(got.to("cpu").numpy(), w, rtol=1e-5, atol=1e-6)
