"""Grad mode (per thread, on by default): ``kf.no_grad()``, ``kf.enable_grad()`` and
``kf.set_grad_enabled(mode)``, each a context manager and a function decorator, as PyTorch's."""

import functools

from . import _C


def is_grad_enabled():
    """Whether this thread records ops for autograd."""
    return _C._is_grad_enabled()


class _GradMode:
    """Sets grad mode for a with block and restores it after; as a decorator, around every call
    of the function (nested and reentrant uses restore in order)."""

    def __init__(self, mode):
        self._mode = bool(mode)
        self._previous = []

    def __enter__(self):
        self._previous.append(_C._set_grad_enabled(self._mode))
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._previous.pop())
        return False

    def __call__(self, fn):
        mode = self._mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with _GradMode(mode):
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):  # noqa: N801 - PyTorch's name
    """Records nothing inside: results do not require grad (inference, optimizer updates)."""

    def __init__(self):
        super().__init__(False)


class enable_grad(_GradMode):  # noqa: N801 - PyTorch's name
    """Records inside, even within no_grad."""

    def __init__(self):
        super().__init__(True)


class set_grad_enabled(_GradMode):  # noqa: N801 - PyTorch's name
    """Sets grad mode to `mode` right away (so it also works as a plain call); as a with block,
    restores the mode before it at the end."""

    def __init__(self, mode):
        super().__init__(mode)
        self._before = _C._set_grad_enabled(self._mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._before)
        return False
