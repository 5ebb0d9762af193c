"""The DDP scenarios of distributed_worker.py (test_ddp.py): DistributedDataParallel training of
a small MLP on each rank's shard of a fixed global batch, against the same model trained in one
process on the whole batch (rank 0 trains it itself, without communication)."""

import numpy as np

import kernforge as kf
import kernforge.distributed as dist
from kernforge import nn
from kernforge.nn import functional as F
from kernforge.nn.parallel import DistributedDataParallel

GLOBAL_BATCH, STEPS = 32, 5


def mlp(seed):
    kf.manual_seed(seed)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                         nn.Linear(16, 4))


def batch():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((GLOBAL_BATCH, 8)).astype(np.float32)
    y = rng.integers(0, 4, size=GLOBAL_BATCH).astype(np.int64)
    return x, y


def train(model, x, y, optimizer, micro=1, ddp=None):
    """STEPS steps; each splits (x, y) into `micro` accumulated micro-batches, the first ones
    under ddp.no_sync() when given."""
    n = len(x) // micro
    for _ in range(STEPS):
        optimizer.zero_grad()
        for m in range(micro):
            xs, ys = kf.asarray(x[m * n:(m + 1) * n]), kf.asarray(y[m * n:(m + 1) * n])
            if ddp is not None and m < micro - 1:
                with ddp.no_sync():
                    (F.cross_entropy(model(xs), ys) / micro).backward()
            else:
                (F.cross_entropy(model(xs), ys) / micro).backward()
        optimizer.step()


def params(model):
    return [np.asarray(p.detach()) for p in model.parameters()]


def check(rank, world, ddp_model, make_optimizer, micro):
    """Every rank's parameters equal rank 0's; rank 0's match the single-process run."""
    mine = params(ddp_model.module)
    for p in mine:
        theirs = kf.asarray(p.copy())
        dist.broadcast(theirs, 0)
        np.testing.assert_array_equal(np.asarray(theirs), p)
    if rank == 0:
        single = mlp(0)
        x, y = batch()
        train(single, x, y, make_optimizer(single))  # the whole batch at once
        for got, want in zip(mine, params(single)):
            np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)


def watch_buckets_started_in_backward(model):
    """Every parameter gets a gradient here, so every bucket's all-reduce must have started
    during backward (from the gradient hooks), before the after-backward step runs."""
    after_backward = model._reduce_gradients

    def checked():
        started = model._next_bucket
        assert started == len(model._bucket_params), (
            f"{started} of {len(model._bucket_params)} buckets started during backward")
        after_backward()

    model._reduce_gradients = checked


def run(rank, world, folder, timeout_ms, make_optimizer, micro=1, bucket_cap_mb=25):
    from distributed_worker import join
    join(rank, world, folder, timeout_ms)
    model = DistributedDataParallel(mlp(rank), bucket_cap_mb=bucket_cap_mb)  # rank 0's start
    watch_buckets_started_in_backward(model)
    x, y = batch()
    shard = GLOBAL_BATCH // world
    xs, ys = x[rank * shard:(rank + 1) * shard], y[rank * shard:(rank + 1) * shard]
    train(model, xs, ys, make_optimizer(model), micro, ddp=model)
    check(rank, world, model, make_optimizer, micro)
    dist.destroy_process_group()


def ddp_sgd(rank, world, folder, timeout_ms):
    run(rank, world, folder, timeout_ms, lambda m: kf.optim.SGD(m.parameters(), lr=0.1,
                                                                momentum=0.9))


def ddp_adamw_small_buckets(rank, world, folder, timeout_ms):
    """Buckets of 1 KiB: each parameter (or two small ones) is its own all-reduce."""
    run(rank, world, folder, timeout_ms, lambda m: kf.optim.AdamW(m.parameters(), lr=1e-2),
        bucket_cap_mb=1 / 1024)


def ddp_no_sync(rank, world, folder, timeout_ms):
    """Two micro-batches per step, the first under no_sync(): the same as the whole batch."""
    run(rank, world, folder, timeout_ms, lambda m: kf.optim.SGD(m.parameters(), lr=0.1),
        micro=2)


class Branches(nn.Module):
    """`extra` is used on odd ranks only, `never` on no rank."""

    def __init__(self):
        super().__init__()
        kf.manual_seed(3)
        self.lin, self.extra, self.never = nn.Linear(8, 6), nn.Linear(6, 6), nn.Linear(2, 2)

    def forward(self, x, use_extra):
        h = self.lin(x)
        return (h * h).sum() + ((self.extra(h) ** 2).sum() if use_extra else 0.0)


def ddp_unused_parameters(rank, world, folder, timeout_ms):
    """Parameters without a gradient on some ranks (or on all): the step does not hang, their
    buckets are reduced after backward with zeros for the missing gradients; the gradients are
    the mean of the ranks' own, and a parameter no rank used gets zeros. Twice, so that the
    second step starts from a clean state."""
    from distributed_worker import join
    join(rank, world, folder, timeout_ms)
    model = DistributedDataParallel(Branches(), bucket_cap_mb=1 / 1024)
    x, _ = batch()
    shard = GLOBAL_BATCH // world
    for _ in range(2):
        for p in model.parameters():
            p.grad = None
        model(kf.asarray(x[rank * shard:(rank + 1) * shard]), rank % 2 == 1).backward()
        got = [np.asarray(p.grad) for p in model.module.parameters()]
    single = Branches()
    total = sum(single(kf.asarray(x[r * shard:(r + 1) * shard]), r % 2 == 1) for r in range(world))
    (total / world).backward()
    for p, g in zip(single.parameters(), got):
        want = np.zeros(p.shape, np.float32) if p.grad is None else np.asarray(p.grad)
        np.testing.assert_allclose(g, want, rtol=2e-5, atol=2e-5)
    dist.destroy_process_group()


CASES = {f.__name__: f for f in (ddp_sgd, ddp_adamw_small_buckets, ddp_no_sync,
                                 ddp_unused_parameters)}
