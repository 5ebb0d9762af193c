"""The rest of the registry against numpy (test_ops_numpy.py has the arithmetic, comparisons,
the common unary ops and the reductions), and the check that every op of the registry is
compared with numpy in one of the files (test_elementwise_numpy.py and test_sort_search_numpy.py
too).

Shapes and values are drawn by Hypothesis where the op takes any shape; numpy computes the
expected values in float64, so the tolerance is the op's float32 rounding."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import kernforge as kf

settings.register_profile("kernforge-rest", max_examples=40, deadline=None)
settings.load_profile("kernforge-rest")

F32 = dict(rtol=2e-5, atol=2e-6)


def floats(shape, lo=-8, hi=8):
    lo, hi = float(np.float32(lo)), float(np.float32(hi))  # bounds a float32 can hold
    return hnp.arrays(np.float32, shape, elements=st.floats(lo, hi, width=32))


def shapes(min_dims=1, max_dims=3):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=5)


def close(t, expected, **tol):
    np.testing.assert_allclose(t.numpy().astype(np.float64), np.asarray(expected, np.float64),
                               **(tol or F32))


def softmax_ref(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


_erf = np.vectorize(math.erf)

UNARY = {  # op: (numpy reference in float64, domain (lo, hi))
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.1, 8)),
    "reciprocal": (lambda x: 1 / x, (0.1, 8)),
    "erf": (_erf, (-4, 4)),
    "silu": (lambda x: x / (1 + np.exp(-x)), (-8, 8)),
    "gelu": (lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), (-8, 8)),
    "sign": (np.sign, (-8, 8)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@given(data=st.data())
def test_more_unary_ops(name, data):
    ref, (lo, hi) = UNARY[name]
    a = data.draw(floats(data.draw(shapes(0)), lo, hi))
    close(getattr(kf, name)(kf.asarray(a)), ref(a.astype(np.float64)))


def test_gelu_tanh_approximation_and_round():
    a = np.linspace(-5, 5, 101, dtype=np.float32)
    x = a.astype(np.float64)
    approx = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    close(kf.gelu(kf.asarray(a), approximate=True), approx)
    b = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.25, 2.675], np.float32)
    close(kf.round(kf.asarray(b)), np.round(b.astype(np.float64)))  # half to even, as numpy
    close(kf.asarray(b).round(decimals=1), np.round(b, 1), rtol=1e-6, atol=1e-6)


@given(data=st.data())
def test_pow_clamp_and_logical(data):
    shape = data.draw(shapes())
    a = data.draw(floats(shape, 0.1, 4))
    e = data.draw(floats(shape, -2, 2))
    close(kf.pow(kf.asarray(a), kf.asarray(e)), np.power(a.astype(np.float64), e))
    c = data.draw(floats(shape))
    close(kf.clamp(kf.asarray(c), min=-1.0, max=2.0), np.clip(c, -1, 2))
    close(kf.clamp(kf.asarray(c), min=0.5), np.maximum(c, 0.5))
    p, q = c > 0, e > 0
    assert kf.logical_and(kf.asarray(p), kf.asarray(q)).tolist() == np.logical_and(p, q).tolist()
    assert kf.logical_or(kf.asarray(p), kf.asarray(q)).tolist() == np.logical_or(p, q).tolist()
    w = kf.where(kf.asarray(p), kf.asarray(c), kf.asarray(e))
    close(w, np.where(p, c, e))


@given(data=st.data())
def test_softmax_family_and_cumsum(data):
    shape = data.draw(shapes())
    a = data.draw(floats(shape))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = a.astype(np.float64)
    close(kf.softmax(kf.asarray(a), axis), softmax_ref(x, axis))
    close(kf.log_softmax(kf.asarray(a), axis), np.log(softmax_ref(x, axis)), rtol=2e-5, atol=2e-5)
    m = x.max(axis=axis, keepdims=True)
    lse = (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))).squeeze(axis)
    close(kf.logsumexp(kf.asarray(a), [axis]), lse)
    close(kf.cumsum(kf.asarray(a), axis), np.cumsum(x, axis=axis), rtol=2e-5, atol=1e-4)


@given(data=st.data())
def test_extrema_and_truth_reductions(data):
    shape = data.draw(shapes())
    a = data.draw(floats(shape))
    axis = data.draw(st.integers(0, len(shape) - 1))
    t = kf.asarray(a)
    assert kf.argmax(t, axis=axis).tolist() == np.argmax(a, axis=axis).tolist()
    assert kf.argmin(t, axis=axis).tolist() == np.argmin(a, axis=axis).tolist()
    close(kf.amax(t, [axis]), np.amax(a, axis=axis))
    close(kf.amin(t, [axis]), np.amin(a, axis=axis))
    b = a > 0
    assert kf.all(kf.asarray(b), axis=axis).tolist() == np.all(b, axis=axis).tolist()
    assert kf.any(kf.asarray(b), axis=axis).tolist() == np.any(b, axis=axis).tolist()


@given(m=st.integers(1, 5), k=st.integers(1, 5), n=st.integers(1, 5), batch=st.integers(1, 3),
       data=st.data())
def test_products(m, k, n, batch, data):
    a, b = data.draw(floats((m, k))), data.draw(floats((k, n)))
    c = data.draw(floats((m, n)))
    x, y = a.astype(np.float64), b.astype(np.float64)
    close(kf.mm(kf.asarray(a), kf.asarray(b)), x @ y, rtol=1e-4, atol=1e-4)
    close(kf.addmm(kf.asarray(c), kf.asarray(a), kf.asarray(b), beta=0.5, alpha=2.0),
          0.5 * c + 2 * (x @ y), rtol=1e-4, atol=1e-4)
    w, bias = data.draw(floats((n, k))), data.draw(floats((n,)))
    close(kf.linear(kf.asarray(a), kf.asarray(w), kf.asarray(bias)), x @ w.T + bias,
          rtol=1e-4, atol=1e-4)
    p, q = data.draw(floats((batch, m, k))), data.draw(floats((batch, k, n)))
    close(kf.bmm(kf.asarray(p), kf.asarray(q)), p.astype(np.float64) @ q, rtol=1e-4, atol=1e-4)


def test_norms_and_attention():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 6, 8)).astype(np.float32)
    w, b = rng.standard_normal(8).astype(np.float32), rng.standard_normal(8).astype(np.float32)
    x = a.astype(np.float64)
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    close(kf.layer_norm(kf.asarray(a), [8], kf.asarray(w), kf.asarray(b), 1e-5),
          (x - mean) / np.sqrt(var + 1e-5) * w + b, rtol=1e-4, atol=1e-5)
    close(kf.rms_norm(kf.asarray(a), [8], kf.asarray(w), 1e-6),
          x / np.sqrt((x ** 2).mean(-1, keepdims=True) + 1e-6) * w, rtol=1e-4, atol=1e-5)
    q, k, v = (rng.standard_normal((2, 5, 4)).astype(np.float32) for _ in range(3))
    s = q.astype(np.float64) @ k.transpose(0, 2, 1) / math.sqrt(4)
    close(kf.scaled_dot_product_attention(kf.asarray(q), kf.asarray(k), kf.asarray(v)),
          softmax_ref(s, -1) @ v, rtol=1e-4, atol=1e-5)
    causal = np.where(np.tril(np.ones((5, 5), bool)), s, -np.inf)
    close(kf.scaled_dot_product_attention(kf.asarray(q), kf.asarray(k), kf.asarray(v),
                                          is_causal=True), softmax_ref(causal, -1) @ v,
          rtol=1e-4, atol=1e-5)


@given(data=st.data())
def test_joining_and_indexing(data):
    shape = data.draw(shapes(2, 3))
    a, b = data.draw(floats(shape)), data.draw(floats(shape))
    axis = data.draw(st.integers(0, len(shape) - 1))
    close(kf.concat([kf.asarray(a), kf.asarray(b)], axis=axis), np.concatenate([a, b], axis))
    close(kf.stack([kf.asarray(a), kf.asarray(b)], axis=axis), np.stack([a, b], axis))
    close(kf.cat([kf.asarray(a), kf.asarray(b)], axis), np.concatenate([a, b], axis))
    idx = data.draw(hnp.arrays(np.int64, (4,), elements=st.integers(0, shape[axis] - 1)))
    close(kf.index_select(kf.asarray(a), axis, kf.asarray(idx)), np.take(a, idx, axis))
    gidx = data.draw(hnp.arrays(np.int64, shape, elements=st.integers(0, shape[axis] - 1)))
    close(kf.gather(kf.asarray(a), axis, kf.asarray(gidx)), np.take_along_axis(a, gidx, axis))
    table = a.reshape(shape[0], -1)  # embedding takes a 2-D weight
    close(kf.embedding(kf.asarray(table), kf.asarray(idx % shape[0])), table[idx % shape[0]])


def test_views_and_copies():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = kf.asarray(a)
    close(t.transpose(0, 2), a.transpose(2, 1, 0))
    close(t.permute(2, 0, 1), a.transpose(2, 0, 1))
    close(t.reshape(4, 6), a.reshape(4, 6))
    close(t.view(6, 4), a.reshape(6, 4))
    close(t.flatten(1), a.reshape(2, 12))
    close(t.slice(2, 1, 4, 2), a[:, :, 1:4:2])
    close(t.select(1, 2), a[:, 2])
    close(t.unsqueeze(0), a[None])
    close(kf.asarray(a[:1]).squeeze(0), a[0])
    close(kf.asarray(a[:, :1]).expand(2, 5, 4), np.broadcast_to(a[:, :1], (2, 5, 4)))
    close(t.transpose(0, 2).contiguous(), np.ascontiguousarray(a.transpose(2, 1, 0)))
    close(t.clone(), a)
    assert t.to_dtype(kf.int32).tolist() == a.astype(np.int32).tolist()
    z = kf.zeros_like(t)
    z.copy_(t)
    close(z, a)
    z.fill_(3.5)
    close(z, np.full_like(a, 3.5))


def test_creation():
    close(kf.full((2, 3), 1.5), np.full((2, 3), 1.5))
    close(kf.zeros(4), np.zeros(4))
    close(kf.ones((2, 2)), np.ones((2, 2)))
    close(kf.arange(1, 10, 3, dtype=kf.float32), np.arange(1, 10, 3))
    close(kf.linspace(0, 1, 7), np.linspace(0, 1, 7))
    close(kf.eye(3, 4), np.eye(3, 4))
    like = kf.ones((2, 3), dtype=kf.float64)
    assert kf.empty((2, 3)).shape == (2, 3) and kf.empty_like(like).shape == (2, 3)
    close(kf.full_like(like, 2.0), np.full((2, 3), 2.0))
    close(kf.ones_like(like), np.ones((2, 3)))
    kf.manual_seed(7)
    r, n = kf.rand(2000), kf.randn(2000)
    kf.manual_seed(7)
    assert kf.rand(2000).tolist() == r.tolist()  # the seed decides the stream
    assert 0 <= r.numpy().min() and r.numpy().max() < 1 and abs(r.numpy().mean() - 0.5) < 0.03
    assert abs(n.numpy().mean()) < 0.1 and abs(n.numpy().std() - 1) < 0.1
    assert kf.rand_like(like).shape == (2, 3) and kf.randn_like(like).dtype is kf.float64


# Ops whose numpy comparison is in test_ops_numpy.py (as operators or namespace functions).
COMPARED_THERE = {"add", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge", "maximum",
                  "minimum", "exp", "log", "sqrt", "sin", "cos", "tanh", "abs", "neg", "floor",
                  "ceil", "relu", "sigmoid", "sum", "mean", "prod", "var", "std", "matmul"}
COMPARED_HERE = set(UNARY) | {
    "round", "gelu", "pow", "clamp", "logical_and", "logical_or", "where", "softmax",
    "log_softmax", "logsumexp", "cumsum", "argmax", "argmin", "amax", "amin", "all", "any",
    "mm", "addmm", "linear", "bmm", "layer_norm", "rms_norm", "scaled_dot_product_attention",
    "concat", "cat", "stack", "index_select", "gather", "embedding", "transpose", "permute",
    "reshape", "view", "flatten", "slice", "select", "unsqueeze", "squeeze", "expand",
    "contiguous", "clone", "to_dtype", "copy_", "fill_", "full", "zeros", "ones", "arange",
    "linspace", "eye", "empty", "empty_like", "full_like", "ones_like", "zeros_like", "rand",
    "randn", "rand_like", "randn_like"}


def compared_in_other_files():
    """The COMPARED sets of the other test files that keep one (found by reading them, so that
    a new file's set counts without being listed here)."""
    import importlib
    import pathlib
    names = set()
    for f in sorted(pathlib.Path(__file__).parent.glob("test_*.py")):
        if f.name != pathlib.Path(__file__).name and "\nCOMPARED = " in f.read_text():
            names |= importlib.import_module(f.stem).COMPARED
    return names


def test_every_op_of_the_registry_is_compared_with_numpy():
    ops = {n for n in vars(kf.ops) if callable(getattr(kf.ops, n))}
    missing = sorted(ops - COMPARED_THERE - COMPARED_HERE - compared_in_other_files())
    assert not missing, f"ops without a numpy comparison in tests/python: {missing}"


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "var", "std", "all",
                                  "any"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_over_no_axes(name, keepdims):
    """axis=() reduces over no axis: the values themselves, in the reduction's dtype."""
    a = np.array([[1.5, -2.0], [0.0, 4.0]], dtype=np.float32)
    if name in ("sum", "prod", "max", "min", "all", "any"):
        a = a.astype(np.int32)
    got = getattr(kf, name)(kf.asarray(a), axis=(), keepdims=keepdims)
    want = getattr(np, name)(a, axis=(), keepdims=keepdims)
    assert got.dtype.name == want.dtype.name
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
