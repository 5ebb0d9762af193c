"""Collectives between processes, following ``torch.distributed``'s names (docs/distributed.md).

    import kernforge.distributed as dist
    dist.init_process_group("gloo", init_method="file:///tmp/job42", rank=r, world_size=2)
    dist.all_reduce(t)                      # in place, every rank
    w = dist.broadcast(t, src=0, async_op=True)
    w.wait()
    evens = dist.new_group([0, 2])          # every rank calls it
    if evens is not dist.GroupMember.NON_GROUP_MEMBER:
        dist.all_reduce(t, group=evens)
    dist.destroy_process_group()

The calls go through the C ABI's communicators (kf_comm_create, kf_all_reduce, ...) to a
collective plugin (gloo, ...). Failures raise as every kernforge call: ``TimeoutError`` when not
every rank arrived inside the timeout, ``ValueError`` for a bad argument (a tensor that is not
contiguous, a rank out of range), ``LookupError`` for an engine no plugin has or a rendezvous
folder that does not exist, ``NotImplementedError`` for a call the engine does not have, and
``RuntimeError`` for the engine's own failures (a lost peer). After a failed call the ranks may
be out of step: destroy the process group.
"""

from ._collectives import (Work, all_gather, all_gather_into_tensor, all_reduce, barrier,
                           broadcast, irecv, isend, recv, reduce_scatter, reduce_scatter_tensor,
                           send)
from ._engines import Backend
from ._process_group import (GroupMember, ProcessGroup, destroy_process_group, get_backend,
                             get_global_rank, get_group_rank, get_rank, get_world_size,
                             init_process_group, is_available, is_initialized, new_group)
from ._reduce_op import ReduceOp

__all__ = ["init_process_group", "destroy_process_group", "is_initialized", "is_available",
           "get_rank", "get_world_size", "get_backend", "new_group", "get_group_rank",
           "get_global_rank", "GroupMember", "ProcessGroup", "Backend", "ReduceOp",
           "Work", "all_reduce", "broadcast", "all_gather", "all_gather_into_tensor",
           "reduce_scatter", "reduce_scatter_tensor", "send", "recv", "isend", "irecv",
           "barrier"]
