"""``Module``: a tree of modules holding parameters, as PyTorch's torch.nn.Module.

A parameter is a leaf tensor that requires grad (``Parameter(t)`` makes one from t's values);
assigning one to a module's attribute registers it, as assigning a module registers a child.
``parameters()``, ``named_parameters()``, ``state_dict()``, ``load_state_dict()``, ``train()``
and ``eval()`` walk the tree."""

from collections import namedtuple

from .. import _C

_IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


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
        """Every parameter by its dotted name, detached (in the order named_parameters gives:
        save it with kernforge.save_file)."""
        return {name: p.detach() for name, p in self.named_parameters()}

    def load_state_dict(self, state_dict, strict=True):
        """Copies state_dict's tensors into the parameters of the same names (converted to each
        parameter's dtype and device). With strict, missing and unexpected keys raise
        RuntimeError listing them all, as PyTorch's does; a shape mismatch raises always.
        Returns ``(missing_keys, unexpected_keys)``."""
        own = dict(self.named_parameters())
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = [f"size mismatch for {k}: copying a tensor of shape {tuple(v.shape)}, the "
                  f"parameter in this module has shape {tuple(own[k].shape)}"
                  for k, v in state_dict.items()
                  if k in own and tuple(v.shape) != tuple(own[k].shape)]
        if strict and missing:
            errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(map(repr, missing)))
        if strict and unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: " +
                          ", ".join(map(repr, unexpected)))
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" +
                               "\n\t".join(errors))
        from .._grad_mode import no_grad
        with no_grad():
            for name, p in own.items():
                if name in state_dict:
                    p.copy_(state_dict[name])
        return _IncompatibleKeys(missing, unexpected)

    def __repr__(self):
        inner = "".join(f"\n  ({n}): " + repr(m).replace("\n", "\n  ")
                        for n, m in self._modules.items())
        return f"{type(self).__name__}({self.extra_repr()}{inner}{chr(10) if inner else ''})"

    def extra_repr(self):
        return ""
