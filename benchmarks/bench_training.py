"""Autograd's speed beside PyTorch's in one process (run it under the interpreter that has
torch: Debian's python3-torch is /usr/bin/python3's):

    PYTHONPATH=build/release/python /usr/bin/python3 benchmarks/bench_training.py

- Recording overhead: `w + w` on 4x4 float32 where w requires grad, minus `a + a` where it does
  not, per call (best of 5 timeit loops), in kernforge and in torch.
- One training step (zero_grad, forward, cross-entropy, backward, AdamW) of the MLP 784-512-512-10
  on a batch of 64, float32, each framework's own nn and optim; medians of 30 steps after 5
  warm-up steps, interleaved.
Prints a Markdown table; no figure here is a pass/fail test.
"""

import statistics
import time
import timeit


def per_call(stmt, env, n=100000):
    return min(timeit.repeat(stmt, globals=env, number=n, repeat=5)) / n * 1e9


def recording(kf, torch):
    env = {"a": kf.ones((4, 4)), "w": kf.ones((4, 4), requires_grad=True)}
    rows = {"kernforge": (per_call("a + a", env), per_call("w + w", env))}
    if torch is not None:
        tenv = {"a": torch.ones(4, 4), "w": torch.ones(4, 4, requires_grad=True)}
        rows["torch"] = (per_call("a + a", tenv), per_call("w + w", tenv))
    return rows


def kf_step(kf):
    from kernforge import nn
    from kernforge.nn import functional as F
    kf.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                          nn.Linear(512, 10))
    opt = kf.optim.AdamW(model.parameters(), lr=1e-3)
    x, y = kf.randn((64, 784)), kf.asarray([i % 10 for i in range(64)])

    def step():
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    return step


def torch_step(torch):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 10))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x, y = torch.randn(64, 784), torch.tensor([i % 10 for i in range(64)])

    def step():
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return step


def training(kf, torch):
    steps = {"kernforge": kf_step(kf)}
    if torch is not None:
        steps["torch"] = torch_step(torch)
    times = {k: [] for k in steps}
    for _ in range(5):
        for s in steps.values():
            s()
    for _ in range(30):
        for name, s in steps.items():
            t0 = time.perf_counter()
            s()
            times[name].append((time.perf_counter() - t0) * 1e3)
    return {k: statistics.median(v) for k, v in times.items()}


def main():
    import kernforge as kf
    try:
        import torch
        torch.set_num_threads(kf.get_num_threads())
    except ImportError:
        torch = None
    rec = recording(kf, torch)
    print("| framework | a + a (ns) | w + w (ns) | recording (ns) |")
    print("|---|---:|---:|---:|")
    for name, (plain, grad) in rec.items():
        print(f"| {name} | {plain:.0f} | {grad:.0f} | {grad - plain:.0f} |")
    step = training(kf, torch)
    print()
    print("| framework | MLP 784-512-512-10, batch 64: one AdamW step (ms) |")
    print("|---|---:|")
    for name, ms in step.items():
        print(f"| {name} | {ms:.2f} |")


if __name__ == "__main__":
    main()
