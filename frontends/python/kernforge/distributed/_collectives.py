"""The collectives, torch.distributed's functions over a group's communicator (`group`; None:
the default group; ranks given as src and dst are global ones, as torch's). Each
waits for its work and returns None, or with ``async_op=True`` returns a ``Work`` (``wait()``,
``is_completed()``). Tensors are changed in place; they must be contiguous, and every rank
passes the same dtype and element count, calling in the same order."""

import kernforge as _kf

from .. import _C
from .._grad_mode import no_grad
from ._process_group import default_group
from ._reduce_op import ReduceOp

Work = _C.Work


def _comm(group):
    return default_group(group)._comm


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """Combines `tensor` over every rank, in place (`op`: a ReduceOp)."""
    return _comm(group).all_reduce(tensor, op, async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """Rank `src`'s `tensor` (a global rank) into every rank's `tensor`."""
    pg = default_group(group)
    return pg._comm.broadcast(tensor, pg._group_rank(src, "broadcast"), async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """`output_tensor` (world size times `input_tensor`'s elements, stacked or concatenated)
    gets every rank's `input_tensor`, in rank order."""
    return _comm(group).all_gather(output_tensor, input_tensor, async_op)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """Combines `input` (world size times `output`'s elements); rank r's `output` gets the r-th
    slice."""
    return _comm(group).reduce_scatter(output, input, op, async_op)


def _check_list(name, tensors, size, like):
    if len(tensors) != size:
        raise ValueError(f"{name}: the list has {len(tensors)} tensors for a world size of "
                         f"{size}: pass one per rank")
    for i, t in enumerate(tensors):
        if not isinstance(t, _C.Tensor):
            raise TypeError(f"{name}: entry {i} is a {type(t).__name__}, not a kernforge Tensor")
        if t.dtype != like.dtype or t.numel() != like.numel():
            raise ValueError(f"{name}: entry {i} has dtype {t.dtype} and {t.numel()} elements, "
                             f"the tensor {like.dtype} and {like.numel()}: every entry must match it")


def _finish(work, then):
    if work is None:
        then()
        return None
    work._then(then)
    return work


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """`tensor_list[r]` gets rank r's `tensor` (one entry per rank, each of tensor's dtype and
    element count). Gathers into one tensor and copies out of it once the work ended."""
    pg = default_group(group)
    if not isinstance(tensor, _C.Tensor):
        raise TypeError(f"all_gather: tensor must be a kernforge Tensor, not "
                        f"{type(tensor).__name__}")
    _check_list("all_gather", tensor_list, pg._size, tensor)
    flat = _kf.empty((pg._size * tensor.numel(),), dtype=tensor.dtype, device=tensor.device)
    work = pg._comm.all_gather(flat, tensor, async_op)

    def copy_out():
        with no_grad():
            n = tensor.numel()
            for r, t in enumerate(tensor_list):
                t.copy_(flat[r * n:(r + 1) * n].reshape(t.shape))
    return _finish(work, copy_out)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """Combines the ranks' `input_list`s entry by entry; rank r's `output` gets entry r's result
    (one entry per rank, each of output's dtype and element count)."""
    pg = default_group(group)
    if not isinstance(output, _C.Tensor):
        raise TypeError(f"reduce_scatter: output must be a kernforge Tensor, not "
                        f"{type(output).__name__}")
    _check_list("reduce_scatter", input_list, pg._size, output)
    with no_grad():
        flat = _kf.cat([t.reshape((-1,)) for t in input_list])
    return pg._comm.reduce_scatter(output, flat, op, async_op)


def send(tensor, dst, group=None, tag=0):
    """Sends `tensor` to rank `dst`, matched by a recv there with the same tag; waits."""
    pg = default_group(group)
    pg._comm.send(tensor, pg._group_rank(dst, "send"), tag, False)


def recv(tensor, src=None, group=None, tag=0):
    """Receives into `tensor` what rank `src` sent with `tag`; waits and returns `src`."""
    if src is None:
        raise ValueError("recv: src=None (from any rank) is not supported: pass the sender's "
                         "rank")
    pg = default_group(group)
    pg._comm.recv(tensor, pg._group_rank(src, "recv"), tag, False)
    return src


def isend(tensor, dst, group=None, tag=0):
    """send, returning its Work."""
    pg = default_group(group)
    return pg._comm.send(tensor, pg._group_rank(dst, "isend"), tag, True)


def irecv(tensor, src=None, group=None, tag=0):
    """recv, returning its Work."""
    if src is None:
        raise ValueError("irecv: src=None (from any rank) is not supported: pass the sender's "
                         "rank")
    pg = default_group(group)
    return pg._comm.recv(tensor, pg._group_rank(src, "irecv"), tag, True)


def barrier(group=None, async_op=False, device_ids=None):
    """Returns once every rank entered it (`device_ids` is accepted and unused, as on gloo)."""
    del device_ids
    return _comm(group).barrier(async_op)
