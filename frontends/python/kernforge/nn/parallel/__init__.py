"""Data-parallel training: ``DistributedDataParallel`` (distributed.py), as torch.nn.parallel's."""

from .distributed import DistributedDataParallel

__all__ = ["DistributedDataParallel"]
