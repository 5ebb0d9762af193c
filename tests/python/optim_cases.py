"""The optimizer runs test_fused_optim.py makes twice: with kernforge's optimizers, and with
torch's in a separate process (Debian's /usr/bin/python3, which has torch 1.13 and imports this
file alone). Each case is a constructor's keyword arguments; a run takes five steps of two
float64 parameters (one of them a transposed view) with fixed gradients, and gives the
parameters after each step."""

import json

import numpy as np

CASES = {
    "adamw": ("AdamW", dict(lr=0.05, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.1)),
    "adamw_plain": ("AdamW", dict(lr=0.01, weight_decay=0.0)),
    "sgd": ("SGD", dict(lr=0.1)),
    "sgd_decay": ("SGD", dict(lr=0.1, weight_decay=0.05)),
    "sgd_momentum": ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.25, weight_decay=0.01)),
    "sgd_nesterov": ("SGD", dict(lr=0.05, momentum=0.8, nesterov=True)),
}
STEPS = 5


def start():
    """Two parameters and the gradients of each step (a fixed, seeded sequence)."""
    rng = np.random.default_rng(7)
    params = [rng.standard_normal((3, 4)), rng.standard_normal((5,))]
    grads = [[rng.standard_normal(p.shape) for p in params] for _ in range(STEPS)]
    return params, grads


def run(lib, optim, name):
    """The parameters after each step, as lists."""
    cls, kwargs = CASES[name]
    params, grads = start()
    ps = [lib.asarray(params[0].T.copy(), dtype=lib.float64).T,  # a transposed view's base
          lib.asarray(params[1], dtype=lib.float64)]
    leaves = [p.requires_grad_(True) for p in ps]
    opt = getattr(optim, cls)(leaves, **kwargs)
    out = []
    for step in range(STEPS):
        for p, g in zip(leaves, grads[step]):
            p.grad = lib.asarray(g, dtype=lib.float64)
        opt.step()
        out.append([np.asarray(p.detach().numpy()).tolist() for p in leaves])
    return out


if __name__ == "__main__":
    import torch
    torch.asarray = torch.as_tensor
    print(json.dumps({name: run(torch, torch.optim, name) for name in CASES}))
