"""Autograd's speed beside PyTorch's in one process (run it under the interpreter that has
torch: Debian's python3-torch is /usr/bin/python3's):

    PYTHONPATH=build/release/python /usr/bin/python3 benchmarks/bench_training.py

- Recording overhead: `w + w` on 4x4 float32 where w requires grad, minus `a + a` where it does
  not, per call (best of 5 timeit loops), in kernforge and in torch.
- One training step (zero_grad, forward, cross-entropy, backward, AdamW) of the MLP 784-512-512-10
  on a batch of 64, float32, each framework's own nn and optim; medians of 30 steps after 5
  warm-up steps, interleaved.
- AdamW.step alone on the MLP's parameters with fixed gradients: kernforge's fused op per
  parameter list, the same update as in-place ops per parameter from Python, torch's default
  (a loop over the parameters in 1.13) and torch's foreach=True.
- The same for examples/python/train_transformer.py's model (the two-block decoder of
  examples/transformer) on 16 windows of 32 characters of its text, and the identical model in
  torch with the same weights and batch (torch 1.13 has no scaled_dot_product_attention or
  RMSNorm: both written out). Both frameworks get kernforge's thread count
  (KERNFORGE_NUM_THREADS=1 for one thread).
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


def kf_transformer_step(kf):
    """examples/python/train_transformer.py's model and a batch of its text's windows."""
    import importlib.util
    import pathlib
    import random
    path = pathlib.Path(__file__).resolve().parent.parent / "examples/python/train_transformer.py"
    spec = importlib.util.spec_from_file_location("train_transformer", path)
    ex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ex)
    with open(ex.TEXT, encoding="utf-8") as f:
        text = f.read()
    chars = sorted(set(text))
    ids = [chars.index(c) for c in text]
    kf.manual_seed(0)
    model = ex.CharTransformer(len(chars))
    opt = kf.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    x, y = ex.windows(ids, random.Random(0))
    y = y.reshape((-1,))

    def step():
        opt.zero_grad()
        ex.F.cross_entropy(model(x).reshape((-1, len(chars))), y).backward()
        opt.step()
    return step, model, (x, y)


def torch_transformer(torch, vocab, d=64, heads=4, hidden=128):
    """The same model in torch 1.13 (no scaled_dot_product_attention, no RMSNorm there: both
    written out), with the parameters named as the kernforge one's."""
    nn, F = torch.nn, torch.nn.functional

    class RMSNorm(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(d))

        def forward(self, x):
            return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * self.weight

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.wq, self.wk, self.wv, self.wo = (nn.Linear(d, d, bias=False) for _ in range(4))

        def forward(self, x):
            b, t, _ = x.shape
            q, k, v = (w(x).reshape(b, t, heads, d // heads).permute(0, 2, 1, 3)
                       for w in (self.wq, self.wk, self.wv))
            s = q @ k.transpose(-2, -1) * (1 / (d // heads) ** 0.5)
            s = s.masked_fill(torch.ones(t, t, dtype=torch.bool).triu(1), float("-inf"))
            return self.wo((s.softmax(-1) @ v).permute(0, 2, 1, 3).reshape(b, t, d))

    class Block(nn.Module):
        def __init__(self, swiglu):
            super().__init__()
            self.norm1, self.attn, self.norm2 = RMSNorm(), Attention(), RMSNorm()
            self.w_in = nn.Linear(d, hidden, bias=False)
            self.w_gate = nn.Linear(d, hidden, bias=False) if swiglu else None
            self.w_out = nn.Linear(hidden, d, bias=False)

        def forward(self, x):
            x = x + self.attn(self.norm1(x))
            h = self.norm2(x)
            up = self.w_in(h)
            act = F.silu(self.w_gate(h)) * up if self.w_gate is not None else F.gelu(up)
            return x + self.w_out(act)

    class CharTransformer(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, d)
            self.block1, self.block2, self.norm = Block(False), Block(True), RMSNorm()

        def forward(self, tokens):
            x = self.block2(self.block1(self.embed(tokens)))
            return self.norm(x) @ self.embed.weight.T
    return CharTransformer()


def torch_transformer_step(torch, kf_model, batch):
    """The torch twin with the kernforge model's weights, on the same batch."""
    import numpy as np
    vocab = kf_model.embed.num_embeddings
    model = torch_transformer(torch, vocab)
    model.load_state_dict({k: torch.from_numpy(np.from_dlpack(v).copy())
                           for k, v in kf_model.state_dict().items()})
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    x, y = (torch.from_numpy(np.from_dlpack(t).copy()) for t in batch)

    def step():
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x).reshape(-1, vocab), y).backward()
        opt.step()
    return step


MLP_SHAPES = [(512, 784), (512,), (512, 512), (512,), (10, 512), (10,)]


def kf_adamw_steps(kf):
    """AdamW.step alone on the MLP's parameters (669,706 float32) with fixed gradients: the
    fused op per parameter list, and the same update as in-place ops per parameter from Python
    (what kernforge did before the fused op)."""
    def params():
        ps = [kf.randn(s).requires_grad_(True) for s in MLP_SHAPES]
        for p in ps:
            p.grad = kf.randn(p.shape)
        return ps
    fused = kf.optim.AdamW(params(), lr=1e-3)
    ps, state = params(), {}

    def ops_loop():
        with kf.no_grad():
            for p in ps:
                g = p.grad
                m, v, t = state.setdefault(id(p), [kf.zeros_like(p), kf.zeros_like(p), 0])
                state[id(p)][2] = t = t + 1
                p.mul_(1 - 1e-3 * 1e-2)
                m.mul_(0.9).add_(g, alpha=0.1)
                v.mul_(0.999).add_(g * g, alpha=0.001)
                denom = (v * (1 / (1 - 0.999 ** t))).sqrt() + 1e-8
                p.add_(m / denom, alpha=-1e-3 / (1 - 0.9 ** t))
    return {"kernforge fused": fused.step, "kernforge ops per parameter": ops_loop}


def torch_adamw_steps(torch):
    def optimizer(**kwargs):
        ps = [torch.randn(s, requires_grad=True) for s in MLP_SHAPES]
        for p in ps:
            p.grad = torch.randn(p.shape)
        return torch.optim.AdamW(ps, lr=1e-3, **kwargs).step
    return {"torch": optimizer(), "torch foreach": optimizer(foreach=True)}


def timed(steps):
    """Median milliseconds of each step, after 5 warm-up steps, 30 interleaved runs."""
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


def training(kf, torch):
    steps = {"kernforge": kf_step(kf)}
    if torch is not None:
        steps["torch"] = torch_step(torch)
    mlp = timed(steps)
    kf_t, model, batch = kf_transformer_step(kf)
    steps = {"kernforge": kf_t}
    if torch is not None:
        steps["torch"] = torch_transformer_step(torch, model, batch)
    return mlp, timed(steps)


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
    mlp, block = training(kf, torch)
    print()
    print("| framework | MLP 784-512-512-10, batch 64 (ms) | transformer, 16 x 32 characters (ms) |")
    print("|---|---:|---:|")
    for name in mlp:
        print(f"| {name} | {mlp[name]:.2f} | {block[name]:.2f} |")
    if "torch" in mlp:
        print(f"| kernforge / torch | {mlp['kernforge'] / mlp['torch']:.2f} | "
              f"{block['kernforge'] / block['torch']:.2f} |")
    steps = kf_adamw_steps(kf)
    if torch is not None:
        steps.update(torch_adamw_steps(torch))
    adamw = timed(steps)
    print()
    print("| AdamW.step of the MLP's parameters | ms |")
    print("|---|---:|")
    for name, ms in adamw.items():
        print(f"| {name} | {ms:.3f} |")


if __name__ == "__main__":
    main()
