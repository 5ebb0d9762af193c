"""``ReduceOp``: how all_reduce and reduce_scatter combine, torch.distributed's names over the C
ABI's kf_reduce_op_t values (read from the extension, never written here)."""

import enum

from .. import _C

# The C ABI names "prod"; torch.distributed spells it PRODUCT.
_SPELLING = {"prod": "PRODUCT"}

ReduceOp = enum.IntEnum("ReduceOp", {_SPELLING.get(name, name.upper()): value
                                     for name, value in _C.REDUCE_OPS.items()},
                        module=__name__)
ReduceOp.__doc__ = ("SUM, PRODUCT, MIN, MAX and AVG (the sum divided by the world size; "
                    "integers divide toward zero).")
