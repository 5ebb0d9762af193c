"""The layers: Linear, Embedding, LayerNorm, RMSNorm, Dropout, Sequential and the activations,
as PyTorch's."""

import math

from . import functional as F
from .module import Module, Parameter


def _uniform(shape, bound):
    """Values uniform in [-bound, bound) (PyTorch's default init of Linear)."""
    import kernforge as kf
    return kf.rand(list(shape)) * (2 * bound) - bound


class Linear(Module):
    """y = x @ weight.T + bias, weight [out_features, in_features]."""

    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = 1 / math.sqrt(in_features) if in_features else 0.0
        self.weight = Parameter(_uniform((out_features, in_features), bound))
        self.bias = Parameter(_uniform((out_features,), bound)) if bias else None

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Embedding(Module):
    """Rows of a [num_embeddings, embedding_dim] table picked by integer indices; weights from
    a standard normal (PyTorch's init)."""

    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        import kernforge as kf
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.weight = Parameter(kf.randn((num_embeddings, embedding_dim)))

    def forward(self, indices):
        return F.embedding(indices, self.weight)

    def extra_repr(self):
        return f"{self.num_embeddings}, {self.embedding_dim}"


class LayerNorm(Module):
    """Normalises over the trailing normalized_shape dims, then scales and shifts."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True):
        super().__init__()
        import kernforge as kf
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
            normalized_shape)
        self.normalized_shape, self.eps = shape, eps
        self.weight = Parameter(kf.ones(shape)) if elementwise_affine else None
        self.bias = Parameter(kf.zeros(shape)) if elementwise_affine else None

    def forward(self, x):
        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}"


class RMSNorm(Module):
    """Divides by the root mean square over the trailing normalized_shape dims, then scales
    (PyTorch's RMSNorm; eps None: the machine epsilon of the input's compute type)."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True):
        super().__init__()
        import kernforge as kf
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
            normalized_shape)
        self.normalized_shape, self.eps = shape, eps
        self.weight = Parameter(kf.ones(shape)) if elementwise_affine else None

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}"


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"dropout probability must be in [0, 1], not {p}")
        self.p = p

    def forward(self, x):
        return F.dropout(x, self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}"


class ReLU(Module):
    def forward(self, x):
        return F.relu(x)


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, x):
        return F.gelu(x, self.approximate)


class SiLU(Module):
    def forward(self, x):
        return F.silu(x)


class Sequential(Module):
    """Runs its modules in order, each on the last one's output."""

    def __init__(self, *modules):
        super().__init__()
        for i, m in enumerate(modules):
            setattr(self, str(i), m)

    def forward(self, x):
        for m in self._modules.values():
            x = m(x)
        return x

    def __len__(self):
        return len(self._modules)

    def __getitem__(self, i):
        return list(self._modules.values())[i]
