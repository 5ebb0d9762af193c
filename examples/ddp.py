"""Data-parallel training with kernforge.distributed and DistributedDataParallel.

The MLP 784-512-512-10 (the autograd benchmarks' model) learns a synthetic 10-class problem
(fixed seed): every step takes the next global batch of 64 samples, and each rank trains on its
shard of it (64 / world size samples); DDP averages the gradients over the ranks, so every rank
takes the step the whole batch would give. Rank 0 prints the loss of the whole batch, then trains
the same model in one process on the whole batches and checks that both runs hold the same
parameters; it exits 1 when they differ or when the loss did not fall.

    kernforge run -n 4 python examples/ddp.py     # env:// (RANK, WORLD_SIZE, MASTER_ADDR, ...)
    torchrun --nproc-per-node 4 examples/ddp.py   # the same variables
    mpirun -np 4 python examples/ddp.py           # the mpi engine, mpi:// (mpirun's ranks)
    python examples/ddp.py --nproc 4              # starts 4 copies of itself, meeting through
                                                  # file:// in a fresh folder, on loopback
    python examples/ddp.py                        # one process: a world of size 1
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

import kernforge as kf
import kernforge.distributed as dist
from kernforge import nn
from kernforge.nn import functional as F
from kernforge.nn.parallel import DistributedDataParallel

GLOBAL_BATCH, SAMPLES, CLASSES, FEATURES = 64, 1024, 10, 784


def dataset():
    """Points around 10 fixed centres in 784 dimensions, labelled by their centre."""
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((CLASSES, FEATURES)).astype(np.float32)
    y = rng.integers(0, CLASSES, size=SAMPLES)
    x = centres[y] * 0.1 + rng.standard_normal((SAMPLES, FEATURES)).astype(np.float32)
    return x, y.astype(np.int64)


def mlp():
    kf.manual_seed(0)
    return nn.Sequential(nn.Linear(FEATURES, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                         nn.Linear(512, CLASSES))


def batches(steps, rank, world):
    """Each step's shard of this rank: rows [rank * n, (rank + 1) * n) of the global batch."""
    x, y = dataset()
    n = GLOBAL_BATCH // world
    for step in range(steps):
        start = (step * GLOBAL_BATCH) % SAMPLES + rank * n
        yield kf.asarray(x[start:start + n]), kf.asarray(y[start:start + n])


def train(model, steps, rank, world, report=None):
    """AdamW steps on the shards; returns the last step's loss of this rank's shard."""
    opt = kf.optim.AdamW(model.parameters(), lr=1e-3)
    loss = None
    for step, (x, y) in enumerate(batches(steps, rank, world)):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        if report is not None:
            report(step, loss)
    return loss


def check_single_process(ddp_model, steps, first, last):
    """The same training in this process on the whole batches: the same parameters."""
    single = mlp()
    train(single, steps, 0, 1)
    worst = max(float(kf.max(kf.abs(a.detach() - b.detach())))
                for a, b in zip(ddp_model.module.parameters(), single.parameters()))
    print(f"single-process run: largest parameter difference {worst:.2e}")
    if worst > 1e-4 or not last < first:
        print("FAILED: the runs differ, or the loss did not fall", file=sys.stderr)
        return 1
    return 0


def run(steps):
    rank, world = dist.get_rank(), dist.get_world_size()
    if GLOBAL_BATCH % world:
        raise SystemExit(f"the world size {world} does not divide the global batch {GLOBAL_BATCH}")
    model = DistributedDataParallel(mlp())
    losses = []

    def report(step, loss):
        whole = loss.detach().clone()
        dist.all_reduce(whole, op=dist.ReduceOp.AVG)  # the loss of the whole batch
        losses.append(float(whole))
        if rank == 0 and (step % 10 == 0 or step == steps - 1):
            print(f"step {step:3d}  loss {losses[-1]:.4f}")
    train(model, steps, rank, world, report)
    status = 0
    if rank == 0:
        print(f"world size {world}: final loss {losses[-1]:.4f}")
        status = check_single_process(model, steps, losses[0], losses[-1])
    dist.destroy_process_group()
    return status


def spawn(nproc, argv):
    """Starts nproc copies of this program meeting through file:// in a fresh folder."""
    with tempfile.TemporaryDirectory(prefix="kf-ddp-") as folder:
        env = dict(os.environ, GLOO_SOCKET_IFNAME=os.environ.get("GLOO_SOCKET_IFNAME", "lo"))
        env.setdefault("KERNFORGE_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // nproc)))
        procs = [subprocess.Popen([sys.executable, __file__, *argv, "--rank", str(r),
                                   "--world", str(nproc), "--rendezvous", "file://" + folder],
                                  env=env) for r in range(nproc)]
        return max(p.wait() for p in procs)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nproc", type=int, default=1, help="without env://: processes to start")
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--rank", type=int, help=argparse.SUPPRESS)
    p.add_argument("--world", type=int, help=argparse.SUPPRESS)
    p.add_argument("--rendezvous", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.rendezvous is not None:  # a copy spawn() started
        dist.init_process_group("gloo", args.rendezvous, rank=args.rank, world_size=args.world)
    elif "RANK" in os.environ and "WORLD_SIZE" in os.environ:  # kernforge run, torchrun
        dist.init_process_group("gloo")  # init_method None: env://
    elif "OMPI_COMM_WORLD_RANK" in os.environ or "PMI_RANK" in os.environ:  # mpirun
        dist.init_process_group("mpi", "mpi://")
    elif args.nproc > 1:
        return spawn(args.nproc, ["--steps", str(args.steps)])
    else:
        with tempfile.TemporaryDirectory(prefix="kf-ddp-") as folder:
            dist.init_process_group("gloo", "file://" + folder, rank=0, world_size=1)
            return run(args.steps)
    return run(args.steps)


if __name__ == "__main__":
    sys.exit(main())
