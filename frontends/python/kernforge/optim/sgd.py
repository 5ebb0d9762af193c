"""Stochastic gradient descent with momentum, Nesterov momentum and weight decay (PyTorch's
SGD), one fused op (``fused_sgd``) per step over the list of parameters."""

from .optimizer import Optimizer


def _ops():
    import kernforge
    return kernforge


class SGD(Optimizer):
    def __init__(self, params, lr, momentum=0.0, weight_decay=0.0, dampening=0.0,
                 nesterov=False):
        if lr < 0 or momentum < 0 or weight_decay < 0:
            raise ValueError(f"SGD: lr ({lr}), momentum ({momentum}) and weight_decay "
                             f"({weight_decay}) must not be negative")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("SGD: Nesterov momentum needs a momentum above 0 and no dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, weight_decay=weight_decay,
                                      dampening=dampening, nesterov=nesterov))

    def _update(self, params, grads, states):
        kf = _ops()
        d = self.defaults
        hyper = dict(lr=d["lr"], momentum=d["momentum"], dampening=d["dampening"],
                     weight_decay=d["weight_decay"], nesterov=d["nesterov"])
        if not d["momentum"]:
            kf.ops.fused_sgd(params, grads, [], first_step=False, **hyper)
            return
        # A parameter's first step sets its buffer to the gradient; the others update it.
        groups = {first: [i for i, s in enumerate(states) if ("momentum" not in s) == first]
                  for first in (True, False)}
        for first, idx in groups.items():
            if not idx:
                continue
            for i in idx:
                states[i].setdefault("momentum", kf.zeros_like(params[i]))
            kf.ops.fused_sgd([params[i] for i in idx], [grads[i] for i in idx],
                             [states[i]["momentum"] for i in idx], first_step=first, **hyper)
