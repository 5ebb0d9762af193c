"""``Optimizer``: the parameters, per-parameter state, zero_grad and the step's frame."""

from .._grad_mode import no_grad


class Optimizer:
    def __init__(self, params, defaults):
        self.params = list(params)
        if not self.params:
            raise ValueError("the optimizer got an empty parameter list")
        for p in self.params:
            if not (p.is_leaf and p.requires_grad):
                raise ValueError("an optimizer updates leaves that require grad (parameters)")
        self.defaults = dict(defaults)
        self.state = {}  # id(parameter) -> its state

    def zero_grad(self, set_to_none=True):
        """Clears every parameter's gradient."""
        for p in self.params:
            p.grad = None

    def step(self):
        """One update of every parameter that has a gradient."""
        with no_grad():
            for p in self.params:
                g = p.grad
                if g is not None:
                    self._update(p, g, self.state.setdefault(id(p), {}))

    def _update(self, p, g, state):
        raise NotImplementedError
