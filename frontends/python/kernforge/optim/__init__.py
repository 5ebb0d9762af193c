"""Optimizers over kernforge's autograd: ``SGD`` (with momentum) and ``AdamW``, as PyTorch's.
Each step updates the parameters in place under no_grad from their ``.grad``."""

from .adamw import AdamW
from .optimizer import Optimizer, state_from_tensors, state_to_tensors
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "AdamW", "state_to_tensors", "state_from_tensors"]
