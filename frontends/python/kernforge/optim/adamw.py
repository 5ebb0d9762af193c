"""Adam with decoupled weight decay (Loshchilov and Hutter; PyTorch's AdamW), one fused op
(``fused_adamw``) per step over the list of parameters."""

from .optimizer import Optimizer


def _ops():
    import kernforge
    return kernforge


class AdamW(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        b1, b2 = betas
        if lr < 0 or eps < 0 or weight_decay < 0 or not (0 <= b1 < 1 and 0 <= b2 < 1):
            raise ValueError(f"AdamW: lr {lr}, betas {betas}, eps {eps} and weight_decay "
                             f"{weight_decay} must be non-negative, betas below 1")
        super().__init__(params, dict(lr=lr, b1=b1, b2=b2, eps=eps, weight_decay=weight_decay))

    def _update(self, params, grads, states):
        kf = _ops()
        for p, s in zip(params, states):
            if not s:
                s["step"] = 0
                s["m"] = kf.zeros_like(p)
                s["v"] = kf.zeros_like(p)
            s["step"] += 1
        # Parameters at one step count share a call: all of them, unless some had no gradient
        # at an earlier step.
        by_step = {}
        for i, s in enumerate(states):
            by_step.setdefault(s["step"], []).append(i)
        d = self.defaults
        for step, idx in by_step.items():
            kf.ops.fused_adamw([params[i] for i in idx], [grads[i] for i in idx],
                               [states[i]["m"] for i in idx], [states[i]["v"] for i in idx],
                               lr=d["lr"], beta1=d["b1"], beta2=d["b2"], eps=d["eps"],
                               weight_decay=d["weight_decay"], step=step)
