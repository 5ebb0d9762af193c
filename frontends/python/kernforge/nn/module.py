"""``Module``: a tree of modules holding parameters, as PyTorch's torch.nn.Module.

A parameter is a leaf tensor that requires grad (``Parameter(t)`` makes one from t's values);
assigning one to a module's attribute registers it, as assigning a module registers a child.
``parameters()``, ``named_parameters()``, ``state_dict()``, ``load_state_dict()``, ``train()``
and ``eval()`` walk the tree."""

from .. import _C


def Parameter(data, requires_grad=True):  # noqa: N802 - PyTorch's spelling
    """A leaf holding data's values (not sharing its history) that requires grad."""
    p = data.detach().clone() if not data.is_leaf or data.requires_grad else data.detach()
    p.requires_grad = requires_grad
    return p


def _is_parameter(value):
    return isinstance(value, _C.Tensor) and value.is_leaf and value.requires_grad


class Module:
    """The base of every layer: forward() computes, __call__ runs it."""

    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        params, modules = self.__dict__.get("_parameters"), self.__dict__.get("_modules")
        if params is None:
            raise AttributeError("Module.__init__() must run before attributes are assigned")
        params.pop(name, None)
        modules.pop(name, None)
        if _is_parameter(value):
            params[name] = value
        elif isinstance(value, Module):
            modules[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        for table in ("_parameters", "_modules"):
            found = self.__dict__.get(table, {})
            if name in found:
                return found[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def named_modules(self, prefix=""):
        yield prefix, self
        for name, m in self._modules.items():
            yield from m.named_modules(f"{prefix}{name}.")

    def named_parameters(self):
        for prefix, m in self.named_modules():
            for name, p in m._parameters.items():
                yield prefix + name, p

    def parameters(self):
        return [p for _, p in self.named_parameters()]

    def children(self):
        return list(self._modules.values())

    def train(self, mode=True):
        for _, m in self.named_modules():
            object.__setattr__(m, "training", bool(mode))
        return self

    def eval(self):
        return self.train(False)

    def zero_grad(self):
        for p in self.parameters():
            p.grad = None

    def state_dict(self):
        """Every parameter by its dotted name, detached."""
        return {name: p.detach() for name, p in self.named_parameters()}

    def load_state_dict(self, state):
        """Copies state's tensors into the parameters of the same names (shapes must match);
        KeyError names what is missing or unexpected."""
        own = dict(self.named_parameters())
        missing, unexpected = sorted(set(own) - set(state)), sorted(set(state) - set(own))
        if missing or unexpected:
            raise KeyError(f"load_state_dict: missing {missing}, unexpected {unexpected}")
        from .._grad_mode import no_grad
        with no_grad():
            for name, p in own.items():
                value = state[name]
                if tuple(value.shape) != tuple(p.shape):
                    raise ValueError(f"load_state_dict: {name} has shape {tuple(value.shape)}, "
                                     f"the parameter {tuple(p.shape)}")
                p.copy_(value)

    def __repr__(self):
        inner = "".join(f"\n  ({n}): " + repr(m).replace("\n", "\n  ")
                        for n, m in self._modules.items())
        return f"{type(self).__name__}({self.extra_repr()}{inner}{chr(10) if inner else ''})"

    def extra_repr(self):
        return ""
