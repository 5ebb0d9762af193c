"""Reverse-mode automatic differentiation (docs/autograd.md): ``backward`` adds gradients into
the leaves' ``.grad``; ``grad`` returns them instead. Both run the core's engine through the C
ABI (kf_backward, kf_autograd_grad)."""

from . import _C
from ._grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled

# What the next backward() runs once its gradients are all in .grad, in the order queued (not
# per thread; grad() runs none: it leaves .grad alone; a backward that fails runs them too,
# then raises its error). DistributedDataParallel's forward queues
# here the end of its gradient all-reduce (nn/parallel/distributed.py): its buckets start
# during backward, from the parameters' post-accumulate-grad hooks, and this waits for them
# (docs/distributed.md).
_after_backward = []

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]


def _tensors(x):
    return [x] if isinstance(x, _C.Tensor) else list(x)


def _optional_tensors(x, n, what):
    if x is None:
        return None
    out = _tensors(x)
    if len(out) != n:
        raise ValueError(f"{what} has {len(out)} entries for {n} outputs")
    return out


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False):
    """Adds the gradients of `tensors` (seeded with `grad_tensors`; None for a one-element
    tensor means 1) into the .grad of every leaf that requires grad."""
    outs = _tensors(tensors)
    grads = _optional_tensors(grad_tensors, len(outs), "grad_tensors")
    keep = create_graph if retain_graph is None else retain_graph
    try:
        _C._backward(outs, grads, bool(keep), bool(create_graph))
    except BaseException:
        # The queued calls still run (DDP then finishes its buckets, so that every rank makes
        # the same collective calls and none waits for this one); the backward's error wins.
        try:
            _run_after_backward()
        except Exception:  # noqa: BLE001 - the backward's error is the one to report
            pass
        raise
    _run_after_backward()


def _run_after_backward():
    while _after_backward:
        _after_backward.pop(0)()


def _queue_after_backward(fn):
    """Runs fn() once, after the next backward() has put its gradients into .grad."""
    _after_backward.append(fn)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False):
    """The gradients of `outputs` with respect to `inputs`, as a tuple (None for an unused
    input when allow_unused); .grad is left alone. create_graph records them for a gradient of
    a gradient."""
    outs = _tensors(outputs)
    ins = _tensors(inputs)
    grads = _optional_tensors(grad_outputs, len(outs), "grad_outputs")
    keep = create_graph if retain_graph is None else retain_graph
    return tuple(_C._autograd_grad(outs, ins, grads, bool(keep), bool(create_graph),
                                   bool(allow_unused)))
