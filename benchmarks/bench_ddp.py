"""The step overhead of DistributedDataParallel (not a test): 2 ranks (--world) on loopback,
meeting through file://, each on one thread (KERNFORGE_NUM_THREADS=1), run

    PYTHONPATH=build/release/python python3 benchmarks/bench_ddp.py [--world 2] [--torch]
        [--bucket-cap-mb 25]

- single: one training step (zero_grad, forward, cross-entropy, backward, AdamW) of the MLP
  784-512-512-10 on a batch of 64 float32 samples, without DDP, on every rank at once (the
  machine as loaded as in the DDP step);
- DDP: the same step, the model wrapped in DistributedDataParallel (the gradients, 669,706
  float32, in buckets of --bucket-cap-mb: one bucket at the default 25 MiB, whose all-reduce
  can start only once backward has made every gradient; with 1, four buckets, each started
  during backward as soon as its gradients are in, the earlier ones overlapping the rest of
  backward);
- DDP, every bucket after backward: the same, the gradient hooks removed, so that every
  bucket's all-reduce starts once backward has returned (kernforge before C ABI 2.9; the
  figure the overlap is measured against, in the same run);
- all-reduce: the average over the ranks of one float32 tensor of the gradients' size, alone,
  as DDP takes it (kernforge: div_ by the world size, then all_reduce SUM; torch: all_reduce
  SUM, then div_).
Medians of 30 steps after 5 warm-up steps, all of them interleaved (kernforge's and torch's
too, so that a change of the machine's load falls on both); rank 0 prints a Markdown table with
DDP / single and (DDP - all-reduce) / single: the second is the step's overhead beyond the
communication (the issue's bound is 1.2). --torch adds the same three figures for torch's
DistributedDataParallel on its gloo group (run under the interpreter that has torch:
/usr/bin/python3 here). No figure here is a pass/fail test.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

WARMUP, STEPS = 5, 30


def medians_ms(fns, barrier):
    """{name: median ms} of the functions, run in turn (interleaved: a change of the machine's
    load between them falls on all of them), every rank starting each run together."""
    times = {name: [] for name in fns}
    for i in range(WARMUP + STEPS):
        for name, fn in fns.items():
            barrier()
            t0 = time.perf_counter()
            fn()
            if i >= WARMUP:
                times[name].append((time.perf_counter() - t0) * 1e3)
    return {name: statistics.median(t) for name, t in times.items()}


def kf_steps(rank, world, folder, bucket_cap_mb):
    """kernforge's three functions, and its barrier."""
    import datetime

    import kernforge as kf
    import kernforge.distributed as dist
    from kernforge import nn
    from kernforge.nn import functional as F
    from kernforge.nn.parallel import DistributedDataParallel
    dist.init_process_group("gloo", "file://" + folder, rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=120))

    def step_of(wrap):
        kf.manual_seed(0)
        model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                              nn.Linear(512, 10))
        model = wrap(model)
        opt = kf.optim.AdamW(model.parameters(), lr=1e-3)
        x, y = kf.randn((64, 784)), kf.asarray([i % 10 for i in range(64)])

        def step():
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
        return step, model
    single, model = step_of(lambda m: m)
    ddp, _ = step_of(lambda m: DistributedDataParallel(m, bucket_cap_mb=bucket_cap_mb))

    def late(m):  # the hooks removed: every bucket starts after backward, as before 2.9
        d = DistributedDataParallel(m, bucket_cap_mb=bucket_cap_mb)
        for h in d._hook_handles:
            h.remove()
        return d
    ddp_late, _ = step_of(late)
    grads = kf.zeros((sum(p.numel() for p in model.parameters()),))

    def all_reduce():  # what DDP does with a bucket
        grads.div_(world)
        dist.all_reduce(grads)
    return {"single": single, "ddp": ddp, "all-reduce": all_reduce,
            "ddp-late": ddp_late}, dist.barrier


def torch_steps(rank, world, folder, bucket_cap_mb):
    """torch's three functions."""
    import datetime

    import torch
    import torch.distributed as dist
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{folder}/torch_store", rank=rank,
                            world_size=world, timeout=datetime.timedelta(seconds=120))

    def step_of(wrap):
        torch.manual_seed(0)
        model = wrap(torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(),
                                         torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                         torch.nn.Linear(512, 10)))
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        x, y = torch.randn(64, 784), torch.tensor([i % 10 for i in range(64)])

        def step():
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        return step, model
    single, model = step_of(lambda m: m)
    ddp, _ = step_of(lambda m: torch.nn.parallel.DistributedDataParallel(
        m, bucket_cap_mb=bucket_cap_mb))
    grads = torch.zeros(sum(p.numel() for p in model.parameters()))

    def all_reduce():
        dist.all_reduce(grads)
        grads.div_(world)
    return {"single": single, "ddp": ddp, "all-reduce": all_reduce}


def table(rows, world):
    out = [f"| {world} ranks, 1 thread each | single step (ms) | DDP step (ms) | "
           "all-reduce of the gradients (ms) | DDP / single | (DDP - all-reduce) / single |",
           "|---|---|---|---|---|---|"]
    for name, f in rows:
        s, d, a = f["single"], f["ddp"], f["all-reduce"]
        out.append(f"| {name} | {s:.2f} | {d:.2f} | {a:.2f} | {d / s:.2f} | {(d - a) / s:.2f} |")
        if "ddp-late" in f:
            d = f["ddp-late"]
            out.append(f"| {name}, every bucket after backward | {s:.2f} | {d:.2f} | {a:.2f} | "
                       f"{d / s:.2f} | {(d - a) / s:.2f} |")
    return "\n".join(out)


def rank_main(args):
    steps, barrier = kf_steps(args.rank, args.world, args.folder, args.bucket_cap_mb)
    fns = {("kernforge", k): f for k, f in steps.items()}
    if args.torch:
        fns.update({("torch 1.13", k): f
                    for k, f in torch_steps(args.rank, args.world, args.folder,
                                            args.bucket_cap_mb).items()})
    figures = medians_ms(fns, barrier)
    if args.rank == 0:
        names = dict.fromkeys(name for name, _ in fns)
        print(table([(n, {k: figures[(n, k)] for k in steps if (n, k) in figures})
                     for n in names], args.world))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--world", type=int, default=2)
    p.add_argument("--torch", action="store_true")
    p.add_argument("--bucket-cap-mb", type=float, default=25)
    p.add_argument("--rank", type=int, help=argparse.SUPPRESS)
    p.add_argument("--folder", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.rank is not None:
        return rank_main(args)
    env = dict(os.environ, GLOO_SOCKET_IFNAME="lo", KERNFORGE_NUM_THREADS="1",
               OMP_NUM_THREADS="1")
    with tempfile.TemporaryDirectory(prefix="kf-bench-ddp-") as folder:
        extra = (["--torch"] if args.torch else []) + ["--bucket-cap-mb",
                                                       str(args.bucket_cap_mb)]
        procs = [subprocess.Popen([sys.executable, __file__, "--world", str(args.world),
                                   "--rank", str(r), "--folder", folder] + extra, env=env)
                 for r in range(args.world)]
        return max(p.wait() for p in procs)


if __name__ == "__main__":
    sys.exit(main())
