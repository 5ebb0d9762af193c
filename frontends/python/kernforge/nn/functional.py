"""Losses and activations as functions of tensors; every one is made of ops that autograd
differentiates."""

from .. import _C

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction must be 'none', 'mean' or 'sum', not {reduction!r}")
    return _REDUCTIONS[reduction]


def _ops():
    import kernforge
    return kernforge.ops


def relu(x):
    return _ops().relu(x)


def gelu(x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', not {approximate!r}")
    return _ops().gelu(x, approximate=approximate == "tanh")


def silu(x):
    """x * sigmoid(x) (the swish)."""
    return _ops().silu(x)


def softmax(x, dim):
    return _ops().softmax(x, dim)


def log_softmax(x, dim):
    return _ops().log_softmax(x, dim)


def linear(x, weight, bias=None):
    return _ops().linear(x, weight, bias)


def embedding(indices, weight):
    """The rows of weight at the integer indices: shape indices.shape + [weight.shape[1]]."""
    return _ops().embedding(weight, indices)


def dropout(x, p=0.5, training=True):
    """Zeroes each element with probability p while training and scales the rest by 1 / (1 - p)."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability must be in [0, 1], not {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return x * 0
    keep = _ops().rand_like(x) >= p
    return x * keep.to(dtype=x.dtype) * (1.0 / (1.0 - p))


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    return _ops().layer_norm(x, list(normalized_shape), weight, bias, eps)


def rms_norm(x, normalized_shape, weight=None, eps=None):
    """x / sqrt(mean(x * x) + eps) over the trailing normalized_shape dims, times weight; eps
    None: the machine epsilon of x's compute type."""
    return _ops().rms_norm(x, list(normalized_shape), weight, eps)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None):
    """softmax(query @ key^T * scale + mask) @ value over the last two dims ([..., L, E] with
    [..., S, E] and [..., S, Ev]); is_causal hides key j from query i when j > i."""
    return _ops().scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal,
                                               scale=scale)


def one_hot(x, num_classes=-1):
    return _ops().one_hot(x, num_classes)


def nll_loss(log_probs, target, reduction="mean"):
    """The negative log likelihood of log_probs [N, C] at the class indices target [N]."""
    return _ops().nll_loss(log_probs, target, _reduction(reduction))


def cross_entropy(logits, target, reduction="mean"):
    """nll_loss of log_softmax(logits) over the classes (dim 1): logits [N, C], target [N]."""
    return nll_loss(log_softmax(logits, 1), target, reduction)


def mse_loss(input, target, reduction="mean"):  # noqa: A002 - PyTorch's argument name
    d = input - target
    err = d * d
    r = _reduction(reduction)
    return err if r == 0 else (err.mean() if r == 1 else err.sum())


__all__ = ["relu", "gelu", "silu", "softmax", "log_softmax", "linear", "embedding", "dropout",
           "layer_norm", "rms_norm", "scaled_dot_product_attention", "one_hot", "nll_loss", "cross_entropy", "mse_loss"]
_ = _C  # the extension is loaded before any of these run
