"""Adam with decoupled weight decay (Loshchilov and Hutter; PyTorch's AdamW)."""

from .optimizer import Optimizer


class AdamW(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        b1, b2 = betas
        if lr < 0 or eps < 0 or weight_decay < 0 or not (0 <= b1 < 1 and 0 <= b2 < 1):
            raise ValueError(f"AdamW: lr {lr}, betas {betas}, eps {eps} and weight_decay "
                             f"{weight_decay} must be non-negative, betas below 1")
        super().__init__(params, dict(lr=lr, b1=b1, b2=b2, eps=eps, weight_decay=weight_decay))

    def _update(self, p, g, state):
        d = self.defaults
        if not state:
            state["step"] = 0
            state["m"] = g * 0
            state["v"] = g * 0
        state["step"] += 1
        t, m, v = state["step"], state["m"], state["v"]
        if d["weight_decay"]:
            p.mul_(1 - d["lr"] * d["weight_decay"])
        m.mul_(d["b1"]).add_(g, alpha=1 - d["b1"])
        v.mul_(d["b2"]).add_(g * g, alpha=1 - d["b2"])
        c1, c2 = 1 - d["b1"] ** t, 1 - d["b2"] ** t
        denom = (v * (1 / c2)).sqrt() + d["eps"]
        p.add_(m / denom, alpha=-d["lr"] / c1)
