"""In-place ops on views of tensors in the graph (Note [In-place ops on views] in
dispatcher/autograd/inplace_view.cpp): each case of view_grad_cases.py against central
differences and against torch 1.13's gradients (computed in a separate process under
/usr/bin/python3; skipped where it or its torch is missing), then the refusals, the version
checks and a double backward."""

import numpy as np
import pytest

import kernforge as kf
import view_grad_cases as cases
from torch_reference import torch_results


def gradients(name):
    inputs, f = cases.CASES[name]
    xs = [kf.asarray(np.array(a), requires_grad=True) for a in inputs]
    y = f(kf, *xs)
    grads = kf.autograd.grad(y, xs, grad_outputs=kf.asarray(cases.seed(y.numpy())))
    return [g.numpy() for g in grads]


def loss(f, arrays):
    y = f(kf, *[kf.asarray(a) for a in arrays]).numpy()
    return float((y * cases.seed(y)).sum())


def numeric(f, arrays, i, eps=1e-6):
    g = np.zeros_like(arrays[i])
    for j in np.ndindex(arrays[i].shape):
        hi = [a.copy() for a in arrays]
        lo = [a.copy() for a in arrays]
        hi[i][j] += eps
        lo[i][j] -= eps
        g[j] = (loss(f, hi) - loss(f, lo)) / (2 * eps)
    return g


@pytest.fixture(scope="module")
def torch_grads():
    return torch_results("view_grad_cases.py")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_view_write_matches_finite_differences(name):
    inputs, f = cases.CASES[name]
    arrays = [np.array(a, dtype=np.float64) for a in inputs]
    for i, g in enumerate(gradients(name)):
        np.testing.assert_allclose(g, numeric(f, arrays, i), rtol=1e-6, atol=1e-8,
                                   err_msg=f"{name}: input {i}")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_view_write_matches_torch(name, torch_grads):
    for i, (g, want) in enumerate(zip(gradients(name), torch_grads[name])):
        np.testing.assert_allclose(g, np.array(want), rtol=1e-10, atol=1e-12,
                                   err_msg=f"{name}: input {i}")


def test_the_base_gets_a_new_history_and_the_view_follows_it():
    x = kf.asarray([1.0, 2.0, 3.0, 4.0], dtype=kf.float64, requires_grad=True)
    y = x * 1
    v = y[1:3]
    assert v.grad_fn == "slice"
    v.mul_(2)
    assert y.grad_fn == "CopySlices"
    assert v.grad_fn == "slice"  # made again from y's new history
    (v * v).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 16.0, 24.0, 0.0])


def test_setitem_of_a_tensor_writes_through_a_view():
    x = kf.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=kf.float64, requires_grad=True)
    z = kf.asarray([5.0, 6.0], dtype=kf.float64, requires_grad=True)
    y = x * x
    y[:, 1] = z
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[2.0, 0.0], [6.0, 0.0]])
    np.testing.assert_allclose(z.grad.numpy(), [1.0, 1.0])
    y = x * 1
    y[...] = z              # a key of no item: a view of all of y
    y.sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [3.0, 3.0])  # broadcast over the two rows


def test_setitem_of_a_number_writes_through_a_view():
    x = kf.asarray([[1.0, 2.0, 3.0]], dtype=kf.float64, requires_grad=True)
    y = x * x
    y[0, -1] = 5.0          # one element (kf_tensor_fill_at)
    y[0, 0:1] = 0.5         # a slice (fill_)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.0, 4.0, 0.0]])
    with pytest.raises(ValueError, match="view of a leaf tensor that requires grad"):
        x[0, 0] = 1.0


def test_a_leaf_written_through_a_view_is_refused():
    x = kf.ones((3, 2), requires_grad=True)
    with pytest.raises(ValueError, match="view of a leaf tensor that requires grad"):
        x[0].mul_(2)
    with pytest.raises(ValueError, match="view of a leaf tensor that requires grad"):
        x.transpose(0, 1)[1][0:1].add_(1)
    with kf.no_grad():
        x[0].mul_(2)  # an optimizer's kind of update
    np.testing.assert_allclose(x.numpy(), [[2.0, 2.0], [1.0, 1.0], [1.0, 1.0]])


def test_views_and_their_base_share_one_version_counter():
    x = kf.asarray([0.5, 1.0, 1.5], dtype=kf.float64, requires_grad=True)
    y = x * 1
    e = kf.exp(y)           # saves its result, e
    e[0:2].mul_(2)          # e's storage changed: exp's backward must refuse
    with pytest.raises(RuntimeError, match="modified by an in-place op"):
        e.sum().backward()
    y = x * 1
    s = kf.sin(y)           # saves its input, y
    y[1].mul_(3)            # through a view of y
    with pytest.raises(RuntimeError, match="modified by an in-place op"):
        s.sum().backward()


def test_a_view_write_differentiates_twice():
    x = kf.asarray([0.5, -1.0, 2.0], dtype=kf.float64, requires_grad=True)
    y = x * x
    y[0:2].mul_(x[1:3])     # y = [x0^2 x1, x1^2 x2, x2^2]
    (g,) = kf.autograd.grad(y.sum(), [x], create_graph=True)
    x0, x1, x2 = 0.5, -1.0, 2.0
    np.testing.assert_allclose(g.numpy(), [2 * x0 * x1, x0 ** 2 + 2 * x1 * x2,
                                           x1 ** 2 + 2 * x2])
    g.sum().backward()      # d/dx of sum(g)
    np.testing.assert_allclose(x.grad.numpy(), [2 * x1 + 2 * x0, 2 * x0 + 2 * x2 + 2 * x1,
                                                2 * x1 + 2])


def test_in_place_ops_that_save_their_result_differentiate():
    x = kf.asarray([1.0, 2.0, 4.0], dtype=kf.float64, requires_grad=True)
    z = kf.asarray([2.0, 4.0, 8.0], dtype=kf.float64, requires_grad=True)
    y = x * 1
    y.div_(z)               # div saves its result, which the call itself writes
    v = x * 1
    v[1:3].div_(z[0:2])     # and through a view
    (y.sum() + v.sum()).backward()
    # y = x / z, v = [x0, x1 / z0, x2 / z1]
    np.testing.assert_allclose(x.grad.numpy(), [1.5, 0.75, 0.375])
    np.testing.assert_allclose(z.grad.numpy(), [-0.75, -0.375, -0.0625])


def test_an_argument_that_views_the_written_memory_is_read_as_it_was():
    x = kf.asarray([0.5, -1.0, 2.0, 3.0], dtype=kf.float64, requires_grad=True)
    y = x * 1
    y[0:2].mul_(y[2:4])     # y = [x0 x2, x1 x3, x2, x3]
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 3.0, 1.5, 0.0])
