"""``Optimizer``: the parameters, per-parameter state, zero_grad, the step's frame, and
``state_dict()`` / ``load_state_dict()`` in PyTorch's layout."""

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
        """One update of every parameter that has a gradient: one fused op over the list of
        those parameters (``_update``), not an op per parameter from Python."""
        params, grads, states = [], [], []
        for p in self.params:
            if p.grad is not None:
                params.append(p)
                grads.append(p.grad)
                states.append(self.state.setdefault(id(p), {}))
        if params:
            with no_grad():
                self._update(params, grads, states)

    def _update(self, params, grads, states):
        raise NotImplementedError

    def state_dict(self):
        """PyTorch's layout: ``{"state": {index: {name: value}}, "param_groups": [group]}``,
        parameters by their index in the list; a step count is a 0-dim int64 tensor, so that
        every state value is a tensor (flatten it into a safetensors file with
        :func:`state_to_tensors`)."""
        from .. import _creation
        state = {}
        for i, p in enumerate(self.params):
            s = self.state.get(id(p))
            if s:
                state[i] = {k: (_creation.asarray(v, dtype="int64") if isinstance(v, int) else v)
                            for k, v in s.items()}
        group = dict(self.defaults, params=list(range(len(self.params))))
        return {"state": state, "param_groups": [group]}

    def load_state_dict(self, state_dict):
        """Takes the hyperparameters and per-parameter state of ``state_dict`` (from
        state_dict() of an optimizer over parameters of the same shapes, in the same order);
        ValueError names what does not match."""
        groups = state_dict["param_groups"]
        if len(groups) != 1 or len(groups[0]["params"]) != len(self.params):
            raise ValueError(f"load_state_dict: the state is of {len(groups)} group(s) with "
                             f"{[len(g['params']) for g in groups]} parameters, this optimizer "
                             f"has one group of {len(self.params)}")
        new_state = {}
        for key, s in state_dict["state"].items():
            i = int(key)
            if not 0 <= i < len(self.params):
                raise ValueError(f"load_state_dict: state for parameter {i}, but there are "
                                 f"{len(self.params)}")
            new_state[id(self.params[i])] = {k: self._state_value(i, k, v) for k, v in s.items()}
        self.defaults.update({k: v for k, v in groups[0].items() if k != "params"})
        self.state = new_state

    def _state_value(self, i, name, value):
        """A loaded state entry, as step() keeps it: an int step, a tensor of the parameter's
        shape, dtype and device otherwise."""
        if name == "step":
            return int(value.item()) if hasattr(value, "item") else int(value)
        p = self.params[i]
        if tuple(value.shape) != tuple(p.shape):
            raise ValueError(f"load_state_dict: state '{name}' of parameter {i} has shape "
                             f"{tuple(value.shape)}, the parameter {tuple(p.shape)}")
        return value.to(device=p.device, dtype=p.dtype).clone()


def state_to_tensors(state_dict):
    """A state_dict() flattened for a safetensors file: ``(tensors, metadata)`` with tensors
    named ``state.<index>.<name>`` and the param groups as JSON in metadata["param_groups"]."""
    import json
    tensors = {f"state.{i}.{k}": v for i, s in state_dict["state"].items() for k, v in s.items()}
    return tensors, {"param_groups": json.dumps(state_dict["param_groups"])}


def state_from_tensors(tensors, metadata):
    """The inverse of :func:`state_to_tensors`: a state_dict for load_state_dict."""
    import json
    state = {}
    for key, v in tensors.items():
        _, i, name = key.split(".", 2)
        state.setdefault(int(i), {})[name] = v
    return {"state": state, "param_groups": json.loads(metadata["param_groups"])}
