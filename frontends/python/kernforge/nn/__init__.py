"""Neural network building blocks over kernforge's autograd (docs/autograd.md): ``Module`` and
``Parameter`` (module.py), the layers (layers.py), ``functional`` (the losses and
activations as functions) and ``parallel`` (DistributedDataParallel)."""

from . import functional, parallel
from .layers import GELU, Dropout, Embedding, LayerNorm, Linear, ReLU, RMSNorm, Sequential, SiLU
from .module import Module, Parameter

__all__ = ["Module", "Parameter", "Linear", "Embedding", "LayerNorm", "RMSNorm", "Dropout",
           "Sequential", "ReLU", "GELU", "SiLU", "functional"]
