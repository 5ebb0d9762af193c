"""Stochastic gradient descent with momentum and weight decay (PyTorch's SGD, not Nesterov)."""

from .optimizer import Optimizer


class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0, weight_decay=0.0, dampening=0.0):
        if lr < 0 or momentum < 0 or weight_decay < 0:
            raise ValueError(f"SGD: lr ({lr}), momentum ({momentum}) and weight_decay "
                             f"({weight_decay}) must not be negative")
        super().__init__(params, dict(lr=lr, momentum=momentum, weight_decay=weight_decay,
                                      dampening=dampening))

    def _update(self, p, g, state):
        d = self.defaults
        if d["weight_decay"]:
            g = g + p * d["weight_decay"]
        if d["momentum"]:
            buf = state.get("momentum")
            if buf is None:
                buf = state["momentum"] = g.clone()
            else:
                buf.mul_(d["momentum"]).add_(g, alpha=1 - d["dampening"])
            g = buf
        p.add_(g, alpha=-d["lr"])
