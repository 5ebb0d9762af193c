"""Tensor.register_post_accumulate_grad_hook (C ABI 2.9), as torch's: the hook gets the leaf
after backward accumulated its .grad; remove() takes it off; a hook's exception comes out of
backward as it was raised; bad use is a clear error."""

import numpy as np
import pytest

import kernforge as kf


def leaf(values):
    t = kf.tensor(np.array(values, dtype=np.float64))
    t.requires_grad = True
    return t


def square_backward(x):
    (x * x).sum().backward()


def test_the_hook_sees_the_accumulated_grad_in_order_and_remove_stops_it():
    x = leaf([1.0, 2.0])
    seen = []
    h1 = x.register_post_accumulate_grad_hook(lambda p: seen.append(("a", p.grad.tolist())))
    x.register_post_accumulate_grad_hook(lambda p: seen.append(("b", p.grad.tolist())))
    square_backward(x)
    assert seen == [("a", [2.0, 4.0]), ("b", [2.0, 4.0])]
    square_backward(x)
    assert seen[-1] == ("b", [4.0, 8.0])
    h1.remove()
    h1.remove()  # again: nothing
    square_backward(x)
    assert [k for k, _ in seen] == ["a", "b", "a", "b", "b"]


def test_grad_calls_no_hook_and_a_with_block_removes_it():
    x = leaf([3.0])
    seen = []
    with x.register_post_accumulate_grad_hook(lambda p: seen.append(1)):
        kf.autograd.grad((x * x).sum(), x)
        assert seen == []
        square_backward(x)
        assert seen == [1]
    square_backward(x)
    assert seen == [1]


def test_a_hook_exception_comes_out_of_backward():
    x = leaf([1.0])

    def boom(p):
        raise KeyError("from the hook")

    h = x.register_post_accumulate_grad_hook(boom)
    with pytest.raises(KeyError, match="from the hook"):
        square_backward(x)
    assert x.grad.tolist() == [2.0]  # accumulated before the hook ran
    h.remove()
    x.register_post_accumulate_grad_hook(lambda p: 1)
    with pytest.raises(RuntimeError, match="must return None"):
        square_backward(x)


def test_bad_use_is_a_clear_error():
    x = leaf([1.0])
    with pytest.raises(ValueError, match="not a leaf"):
        (x * 2).register_post_accumulate_grad_hook(lambda p: None)
    with pytest.raises(ValueError, match="does not require grad"):
        kf.tensor([1.0]).register_post_accumulate_grad_hook(lambda p: None)
    with pytest.raises(TypeError, match="callable"):
        x.register_post_accumulate_grad_hook(3)


def test_a_failed_backward_still_runs_the_after_backward_queue():
    """DDP's end of step runs even when a hook failed, so its ranks stay in step."""
    x = leaf([1.0])
    ran = []
    x.register_post_accumulate_grad_hook(lambda p: 1 / 0)
    kf.autograd._queue_after_backward(lambda: ran.append(True))
    with pytest.raises(ZeroDivisionError):
        square_backward(x)
    assert ran == [True] and kf.autograd._after_backward == []
