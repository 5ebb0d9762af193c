"""The new_group scenarios of distributed_worker.py (test_distributed.py): groups of some ranks
(kf_comm_split under kernforge.distributed.new_group), their calls against numpy, and what a
rank outside a group gets."""

import numpy as np

import kernforge as kf
import kernforge.distributed as dist


def values(rank, n=5):
    return (np.arange(n, dtype=np.float32) + 1) * (rank + 1)


def expect_raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        return str(e)
    raise AssertionError(f"{fn.__name__} did not raise {exc.__name__}")


def check_member(rank, group, members):
    assert dist.get_rank(group) == members.index(rank)
    assert dist.get_world_size(group) == len(members)
    assert dist.get_group_rank(group, rank) == members.index(rank)
    assert dist.get_global_rank(group, 0) == members[0]
    t = kf.asarray(values(rank))
    dist.all_reduce(t, group=group)
    np.testing.assert_allclose(np.asarray(t), sum(values(r) for r in members), rtol=1e-6)
    m = kf.asarray(values(rank, 3))
    dist.all_reduce(m, op=dist.ReduceOp.MAX, group=group, async_op=True).wait()
    np.testing.assert_array_equal(np.asarray(m), values(max(members), 3))
    b = kf.asarray(values(rank))
    dist.broadcast(b, src=members[-1], group=group)  # a global rank, as torch's
    np.testing.assert_array_equal(np.asarray(b), values(members[-1]))
    outside = next(r for r in range(dist.get_world_size()) if r not in members)
    assert "not in the group" in expect_raises(ValueError, dist.broadcast, b, outside,
                                               group=group)


def check_ddp_on_group(rank, group, members):
    """DistributedDataParallel over a group: the gradient is the mean over its members."""
    from kernforge import nn
    from kernforge.nn.parallel import DistributedDataParallel
    kf.manual_seed(rank)  # DDP gives every member the group's first member's parameters
    model = DistributedDataParallel(nn.Linear(5, 1, bias=False), process_group=group)
    model(kf.asarray(values(rank)[None, :])).sum().backward()
    mean = sum(values(r) for r in members) / len(members)
    np.testing.assert_allclose(np.asarray(model.module.weight.grad)[0], mean, rtol=1e-6)


def check_non_member(group):
    assert group is dist.GroupMember.NON_GROUP_MEMBER
    assert dist.get_rank(group) == -1 and dist.get_world_size(group) == -1
    for call in (lambda: dist.all_reduce(kf.ones((2,)), group=group),
                 lambda: dist.broadcast(kf.ones((2,)), 0, group=group),
                 lambda: dist.barrier(group=group)):
        assert "not a member" in expect_raises(RuntimeError, call)


def groups(rank, world, folder, timeout_ms):
    """4 ranks: a group of {0, 2} and one of {1, 2, 3} (every rank makes both, in the same
    order); then the whole world again, and the default group still works."""
    from distributed_worker import join
    join(rank, world, folder, timeout_ms)
    assert world == 4
    made = [([0, 2], dist.new_group([2, 0])), ([1, 2, 3], dist.new_group(ranks=[1, 2, 3]))]
    for members, group in made:
        if rank in members:
            check_member(rank, group, members)
            check_ddp_on_group(rank, group, members)
        else:
            check_non_member(group)
    everyone = dist.new_group()
    t = kf.asarray(values(rank))
    dist.all_reduce(t, group=everyone)
    dist.all_reduce(kf.asarray(values(rank)))  # the default group after the splits
    np.testing.assert_allclose(np.asarray(t), sum(values(r) for r in range(world)), rtol=1e-6)
    assert "0 .. 3" in expect_raises(ValueError, dist.new_group, [0, 4])
    assert "backend" in expect_raises(ValueError, dist.new_group, [0, 1], backend="mpi")
    dist.destroy_process_group()  # the groups and the default one
    assert not dist.is_initialized()


CASES = {f.__name__: f for f in (groups,)}
