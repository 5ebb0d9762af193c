"""One rank of a kernforge.distributed test (test_distributed.py, test_ddp.py start them):

    distributed_worker.py SCENARIO RANK WORLD FOLDER TIMEOUT_MS

Joins the default group through file://FOLDER (except where the scenario is about joining), runs
the scenario's checks (plain asserts against numpy references every rank computes itself, as
every rank's input is known to every rank), prints "ok" and exits 0; a failed check is an
AssertionError's traceback and exit 1.
"""

import datetime
import os
import sys
import time

import numpy as np

import kernforge as kf
import kernforge.distributed as dist

SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


def join(rank, world, folder, timeout_ms):
    dist.init_process_group("gloo", init_method="file://" + folder, rank=rank, world_size=world,
                            timeout=datetime.timedelta(milliseconds=timeout_ms))


# ------------------------------------------------------------------------ collectives

DTYPES = ["float32", "float64", "int32", "int64", "uint8"]


def data(rank, dtype, shape, salt=0):
    """Rank `rank`'s input: small values, so that a product of 4 ranks fits every dtype."""
    rng = np.random.default_rng(1000 * salt + rank)
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    low = 0 if np.dtype(dtype).kind == "u" else -3
    return rng.integers(low, 4, size=shape).astype(dtype)


def reference(op, arrays):
    stacked = np.stack(arrays)
    if op == "AVG":
        total = stacked.astype(np.float64).sum(0)
        mean = total / len(arrays)
        if stacked.dtype.kind != "f":
            return np.trunc(mean).astype(stacked.dtype)  # integers divide toward zero
        return mean.astype(stacked.dtype)
    fn = {"SUM": np.sum, "PRODUCT": np.prod, "MIN": np.min, "MAX": np.max}[op]
    return fn(stacked, axis=0).astype(stacked.dtype)


def close(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.shape)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5 if want.dtype == np.float32 else 1e-12,
                                   atol=1e-6)
    else:
        np.testing.assert_array_equal(got, want)


def check_all_reduce(rank, world, dtype):
    for shape in [(7,), (3, 4), (0,)]:
        for op in dist.ReduceOp:
            t = kf.asarray(data(rank, dtype, shape, op.value))
            assert dist.all_reduce(t, op=op) is None
            close(t, reference(op.name, [data(r, dtype, shape, op.value) for r in range(world)]))
    t = kf.asarray(data(rank, dtype, (5,)))
    work = dist.all_reduce(t, async_op=True)
    assert work.wait() is True and work.is_completed()
    close(t, reference("SUM", [data(r, dtype, (5,)) for r in range(world)]))


def check_broadcast(rank, world, dtype):
    src = world - 1
    t = kf.asarray(data(rank, dtype, (2, 3)))
    dist.broadcast(t, src)
    close(t, data(src, dtype, (2, 3)))
    t = kf.asarray(data(rank, dtype, (4,)))
    dist.broadcast(t, 0, async_op=True).wait()
    close(t, data(0, dtype, (4,)))


def check_all_gather(rank, world, dtype):
    every = [data(r, dtype, (2, 3)) for r in range(world)]
    out = [kf.zeros((2, 3), dtype=dtype) for _ in range(world)]
    assert dist.all_gather(out, kf.asarray(every[rank])) is None
    for got, want in zip(out, every):
        close(got, want)
    out = [kf.zeros((6,), dtype=dtype) for _ in range(world)]  # any shape of that many elements
    work = dist.all_gather(out, kf.asarray(every[rank]), async_op=True)
    while not work.is_completed():  # the copies are made once it says so (or at wait())
        time.sleep(0.001)
    for got, want in zip(out, every):
        close(got, want.reshape(-1))
    assert work.wait() is True
    for got, want in zip(out, every):
        close(got, want.reshape(-1))
    flat = kf.zeros((world * 2, 3), dtype=dtype)
    dist.all_gather_into_tensor(flat, kf.asarray(every[rank]), async_op=True).wait()
    close(flat, np.concatenate(every))


def check_reduce_scatter(rank, world, dtype):
    inputs = [[data(r, dtype, (3,), salt=i) for i in range(world)] for r in range(world)]
    out = kf.zeros((3,), dtype=dtype)
    dist.reduce_scatter(out, [kf.asarray(a) for a in inputs[rank]], op=dist.ReduceOp.MAX)
    close(out, reference("MAX", [inputs[r][rank] for r in range(world)]))
    whole = [np.concatenate(inputs[r]) for r in range(world)]
    out = kf.zeros((3,), dtype=dtype)
    dist.reduce_scatter_tensor(out, kf.asarray(whole[rank]), async_op=True).wait()
    close(out, reference("SUM", whole)[3 * rank:3 * rank + 3])


def check_send_recv(rank, world, dtype):
    nxt, prev = (rank + 1) % world, (rank - 1) % world
    got = kf.zeros((4,), dtype=dtype)
    # Even ranks send first, odd ones receive first: a ring that cannot deadlock.
    if rank % 2 == 0:
        dist.send(kf.asarray(data(rank, dtype, (4,))), nxt, tag=3)
        assert dist.recv(got, prev, tag=3) == prev
    else:
        dist.irecv(got, prev, tag=3).wait()
        dist.isend(kf.asarray(data(rank, dtype, (4,))), nxt, tag=3).wait()
    close(got, data(prev, dtype, (4,)))


@scenario
def collectives(rank, world, folder, timeout_ms):
    join(rank, world, folder, timeout_ms)
    assert dist.is_initialized() and dist.get_backend() == "gloo"
    assert (dist.get_rank(), dist.get_world_size()) == (rank, world)
    for dtype in DTYPES:
        check_all_reduce(rank, world, dtype)
        check_broadcast(rank, world, dtype)
        check_all_gather(rank, world, dtype)
        check_reduce_scatter(rank, world, dtype)
        check_send_recv(rank, world, dtype)
    work = dist.barrier(async_op=True)
    work.wait()
    dist.destroy_process_group()
    assert not dist.is_initialized()


# ----------------------------------------------------------------------------- errors

def raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        return str(e)
    raise AssertionError(f"{fn.__name__} did not raise {exc.__name__}")


@scenario
def errors(rank, world, folder, timeout_ms):
    t = kf.ones((2,))
    assert "init_process_group" in raises(RuntimeError, dist.all_reduce, t)
    assert "init_process_group" in raises(RuntimeError, dist.get_rank)
    url = "file://" + folder
    raises(TypeError, dist.init_process_group, "gloo", url, timeout=5, rank=rank,
           world_size=world)
    raises(ValueError, dist.init_process_group, "gloo", url, rank=world + 3, world_size=world)
    assert "gloo" in raises(LookupError, dist.init_process_group, "nosuchengine", url,
                            rank=rank, world_size=world)
    raises(LookupError, dist.init_process_group, "gloo", url + "/missing", rank=rank,
           world_size=world)
    join(rank, world, folder, timeout_ms)
    assert "already" in raises(RuntimeError, join, rank, world, folder, timeout_ms)
    raises(ValueError, dist.broadcast, t, world)                       # src out of range
    raises(ValueError, dist.send, t, world + 1)                        # dst out of range
    assert "contiguous" in raises(ValueError, dist.all_reduce, kf.zeros((4, 2)).T)
    raises(TypeError, dist.all_reduce, [1.0, 2.0])
    raises(ValueError, dist.all_gather, [kf.zeros((2,))] * (world + 1), t)
    raises(ValueError, dist.all_gather, [kf.zeros((3,))] * world, t)
    raises(ValueError, dist.reduce_scatter, t, [kf.ones((2,), dtype="int32")] * world)
    raises(ValueError, dist.recv, t)                                   # no src
    dist.barrier()  # the ranks are still in step: nothing above reached the engine
    t = kf.ones((2,)) * (rank + 1)
    dist.all_reduce(t)
    close(t, np.full((2,), world * (world + 1) / 2, np.float32))
    group = dist._process_group.default_group()
    dist.destroy_process_group()
    assert "destroyed" in raises(RuntimeError, dist.all_reduce, t, group=group)
    assert "init_process_group" in raises(RuntimeError, dist.get_world_size)


@scenario
def stalled_call(rank, world, folder, timeout_ms):
    """Rank 0's all-reduce waits for a rank that never calls: TimeoutError, then it tells the
    other rank (a file) that it may exit."""
    join(rank, world, folder, timeout_ms)
    done = os.path.join(folder, "rank0-timed-out")
    if rank == 0:
        raises(TimeoutError, dist.all_reduce, kf.ones((3,)))
        with open(done, "w"):
            pass
    else:
        deadline = time.monotonic() + 10 * timeout_ms / 1000
        while not os.path.exists(done) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert os.path.exists(done), "rank 0 never reported its timeout"


@scenario
def env_rendezvous(rank, world, folder, timeout_ms):
    """init_process_group() with no arguments: gloo through env:// (torchrun's variables, set
    by the test)."""
    dist.init_process_group(timeout=datetime.timedelta(milliseconds=timeout_ms))
    assert (dist.get_rank(), dist.get_world_size()) == (rank, world)
    t = kf.ones((3,)) * (rank + 1)
    dist.all_reduce(t)
    close(t, np.full((3,), world * (world + 1) / 2, np.float32))
    dist.destroy_process_group()


@scenario
def absent_rank(rank, world, folder, timeout_ms):
    """Only rank 0 is started: joining ends with TimeoutError."""
    assert rank == 0
    raises(TimeoutError, join, rank, world, folder, timeout_ms)
    assert not dist.is_initialized()


def main():
    name, rank, world, folder, timeout_ms = sys.argv[1:6]
    from ddp_cases import CASES  # the DDP scenarios (ddp_cases.py)
    from group_cases import CASES as GROUP_CASES  # new_group's (group_cases.py)
    SCENARIOS.update(CASES)
    SCENARIOS.update(GROUP_CASES)
    SCENARIOS[name](int(rank), int(world), folder, int(timeout_ms))
    print("ok", flush=True)


if __name__ == "__main__":
    main()
