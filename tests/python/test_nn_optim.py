"""kernforge.nn and kernforge.optim: modules and their parameters, the losses against numpy,
and small models that must train."""

import numpy as np
import pytest

import kernforge as kf
from kernforge import nn
from kernforge.nn import functional as F

# The ops whose numpy comparison is here (test_ops_numpy_rest.py's coverage check reads it).
COMPARED = {"one_hot", "nll_loss", "index_add_", "scatter_add_"}


def test_one_hot_and_nll_loss_against_numpy():
    t = kf.asarray([2, 0, 1, 2])
    np.testing.assert_array_equal(kf.one_hot(t, 4).numpy(), np.eye(4, dtype=np.int64)[[2, 0, 1, 2]])
    assert kf.one_hot(t).shape == (4, 3)
    logits = np.array([[0.5, -1.0, 2.0], [1.0, 0.2, -0.3], [0.0, 0.0, 0.0], [3.0, 1.0, 2.0]],
                      dtype=np.float32)
    lp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    want = -lp[np.arange(4), [2, 0, 1, 2]]
    got = F.cross_entropy(kf.asarray(logits), t, reduction="none")
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    np.testing.assert_allclose(F.cross_entropy(kf.asarray(logits), t).item(), want.mean(),
                               rtol=1e-5)
    np.testing.assert_allclose(F.nll_loss(kf.asarray(lp), t, "sum").item(), want.sum(), rtol=1e-5)
    with pytest.raises(IndexError, match="outside"):
        kf.one_hot(kf.asarray([0, 5]), 3)
    with pytest.raises(IndexError, match="outside"):
        F.cross_entropy(kf.asarray(logits), kf.asarray([0, 1, 2, 3]))
    with pytest.raises(ValueError, match="reduction"):
        F.mse_loss(kf.ones((2,)), kf.ones((2,)), reduction="avg")


def test_cross_entropy_gradient_is_softmax_minus_one_hot():
    logits = kf.asarray([[0.5, -1.0, 2.0], [1.0, 0.2, -0.3]], dtype=kf.float64, requires_grad=True)
    t = kf.asarray([2, 0])
    F.cross_entropy(logits, t).backward()
    p = np.exp(logits.detach().numpy())
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(logits.grad.numpy(), (p - np.eye(3)[[2, 0]]) / 2, rtol=1e-10)


def test_modules_register_parameters_and_state_dicts_round_trip():
    kf.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.LayerNorm(8), nn.Dropout(0.1),
                          nn.Linear(8, 2, bias=False))
    names = [n for n, _ in model.named_parameters()]
    assert names == ["0.weight", "0.bias", "2.weight", "2.bias", "4.weight"]
    assert all(p.requires_grad and p.is_leaf for p in model.parameters())
    state = model.state_dict()
    other = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.LayerNorm(8), nn.Dropout(0.1),
                          nn.Linear(8, 2, bias=False))
    other.load_state_dict(state)
    x = kf.randn((3, 4))
    model.eval(), other.eval()
    np.testing.assert_array_equal(model(x).numpy(), other(x).numpy())
    with pytest.raises(RuntimeError, match="Missing key"):
        other.load_state_dict({})
    assert "Linear(in_features=4, out_features=8, bias=True)" in repr(model)


def test_dropout_scales_what_it_keeps_and_is_off_in_eval():
    kf.manual_seed(1)
    d = nn.Dropout(0.5)
    y = d(kf.ones((10000,)))
    kept = y.numpy()
    assert set(np.unique(kept)) <= {0.0, 2.0} and 0.45 < (kept > 0).mean() < 0.55
    d.eval()
    assert d(kf.ones((3,))).tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("make", [lambda ps: kf.optim.SGD(ps, lr=0.1, momentum=0.9),
                                  lambda ps: kf.optim.AdamW(ps, lr=0.05, weight_decay=0.0)])
def test_an_mlp_learns_a_synthetic_classification(make):
    kf.manual_seed(0)
    x = kf.randn((256, 2))
    y = (x[:, 0] * x[:, 1] > 0).to(dtype=kf.int64)  # XOR of the signs: needs a hidden layer
    model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = make(model.parameters())
    for _ in range(300):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    assert loss.item() < 0.2
    accuracy = (model(x).argmax(1) == y).to(dtype=kf.float32).mean().item()
    assert accuracy > 0.95


def test_optimizers_refuse_what_is_not_a_parameter():
    with pytest.raises(ValueError, match="empty"):
        kf.optim.SGD([], lr=0.1)
    with pytest.raises(ValueError, match="leaves that require grad"):
        kf.optim.AdamW([kf.ones((2,))])
    with pytest.raises(ValueError, match="negative"):
        kf.optim.SGD([kf.ones((2,), requires_grad=True)], lr=-1)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16", "complex64"])
def test_index_add_against_numpy(dtype):
    base = np.arange(12).reshape(3, 4).astype(dtype)
    src = (np.arange(8).reshape(2, 4) + 1).astype(dtype)
    idx = np.array([2, 2])  # a position named twice gets both
    want = base.copy()
    np.add.at(want, idx, src * 3)
    got = kf.asarray(base)
    got.index_add_(0, kf.asarray(idx), kf.asarray(src), alpha=3)
    np.testing.assert_array_equal(got.numpy(), want)
    col = kf.asarray(base)
    col.index_add_(1, kf.asarray([3, 0, 3]), kf.asarray(np.ones((3, 3), dtype=dtype)))
    want = base.copy()
    np.add.at(want, (slice(None), [3, 0, 3]), 1)
    np.testing.assert_array_equal(col.numpy(), want)
    with pytest.raises(ValueError, match="bool"):
        kf.zeros((2,), dtype=kf.bool).index_add_(0, kf.asarray([0]), kf.ones((1,), dtype=kf.bool))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "float16", "complex128"])
def test_scatter_add_against_numpy(dtype):
    base = np.arange(12).reshape(3, 4).astype(dtype)
    src = (np.arange(15).reshape(3, 5) % 4 + 1).astype(dtype)
    idx = np.array([[2, 0, 2], [1, 1, 3]])  # smaller than src; repeats add up
    want = base.copy()
    for i, j in np.ndindex(idx.shape):  # dim 1: want[i][idx[i][j]] += src[i][j]
        want[i, idx[i, j]] += src[i, j]
    got = kf.asarray(base)
    got.scatter_add_(1, kf.asarray(idx), kf.asarray(src))
    np.testing.assert_array_equal(got.numpy(), want)
    rows = kf.asarray(base)
    rows.scatter_add_(0, kf.asarray(idx[:, :2]), kf.asarray(src))  # dim 0
    want = base.copy()
    for i, j in np.ndindex(2, 2):
        want[idx[i, j], j] += src[i, j]
    np.testing.assert_array_equal(rows.numpy(), want)


def test_scatter_add_errors_leave_self_alone():
    x = kf.zeros((2, 3))
    with pytest.raises(ValueError, match=r"index 3 \(at position 1 of index\) is out of range"):
        x.scatter_add_(1, kf.asarray([[0, 3]]), kf.ones((1, 2)))
    assert float(x.sum()) == 0
    with pytest.raises(ValueError, match="index must be int64"):
        x.scatter_add_(1, kf.asarray([[0]], dtype=kf.int32), kf.ones((1, 1)))
    with pytest.raises(ValueError, match="no larger than src"):
        x.scatter_add_(1, kf.asarray([[0, 1]]), kf.ones((1, 1)))
    with pytest.raises(ValueError, match="bool"):
        kf.zeros((2,), dtype=kf.bool).scatter_add_(0, kf.asarray([0]), kf.ones((1,), dtype=kf.bool))


def test_gradients_where_inputs_are_zero():
    # prod and cumprod are exact at zeros: one zero passes the product of the others, two pass 0.
    x = kf.asarray([[2.0, 0.0, 3.0], [0.0, 5.0, 0.0]], dtype=kf.float64, requires_grad=True)
    kf.ops.prod(x, [1]).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 6, 0], [0, 0, 0]])
    y = kf.asarray([2.0, 0.0, 3.0, 4.0], dtype=kf.float64, requires_grad=True)
    kf.ops.cumprod(y, 0).sum().backward()
    # out = [2, 0, 0, 0]: d/dy0 = 1, d/dy1 = 2 + 2*3 + 2*3*4 = 32, later entries 0.
    np.testing.assert_array_equal(y.grad.numpy(), [1, 32, 0, 0])
    z = kf.asarray([-1.5, 0.0, 2.0], dtype=kf.float64, requires_grad=True)
    kf.ops.copysign(z, kf.asarray([1.0, -1.0, -1.0], dtype=kf.float64)).sum().backward()
    np.testing.assert_array_equal(z.grad.numpy(), [-1, 0, -1])


def test_index_copy_gradient_skips_overwritten_entries():
    x = kf.zeros((4,), dtype=kf.float64, requires_grad=True)
    s = kf.asarray([1.0, 2.0, 3.0], dtype=kf.float64, requires_grad=True)
    out = kf.ops.index_copy_(x * 1, 0, kf.asarray([1, 3, 1]), s)
    (out * kf.asarray([1.0, 10.0, 100.0, 1000.0], dtype=kf.float64)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1, 0, 100, 0])
    np.testing.assert_array_equal(s.grad.numpy(), [0, 1000, 10])  # entry 0 was overwritten


def test_embedding_trains_through_index_select():
    kf.manual_seed(0)
    emb = nn.Embedding(5, 3)
    idx = kf.asarray([[1, 1], [4, 0]])
    out = emb(idx)
    assert out.shape == (2, 2, 3)
    np.testing.assert_array_equal(out.detach().numpy(), emb.weight.detach().numpy()[[[1, 1], [4, 0]]])
    (out * kf.asarray([1.0, 2.0, 3.0])).sum().backward()
    want = np.zeros((5, 3), dtype=np.float32)
    np.add.at(want, [1, 1, 4, 0], [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(emb.weight.grad.numpy(), want)


def test_rms_norm_silu_and_causal_attention_against_numpy():
    kf.manual_seed(0)
    x = np.random.default_rng(0).standard_normal((2, 5, 8)).astype(np.float32)
    norm = nn.RMSNorm(8, eps=1e-6)
    assert [n for n, _ in norm.named_parameters()] == ["weight"]
    with kf.no_grad():
        norm.weight.mul_(kf.arange(1, 9, dtype=kf.float32))
    want = x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * np.arange(1, 9)
    np.testing.assert_allclose(norm(kf.asarray(x)).detach().numpy(), want, rtol=1e-5, atol=1e-6)
    assert nn.RMSNorm((5, 8), elementwise_affine=False).parameters() == []
    np.testing.assert_allclose(nn.SiLU()(kf.asarray(x)).numpy(), x / (1 + np.exp(-x)), rtol=1e-5,
                               atol=1e-6)
    q, k, v = x, x[:, ::-1] * 0.5, x * 2 - 1
    s = q @ k.transpose(0, 2, 1) / np.sqrt(8)
    s = np.where(np.triu(np.ones((5, 5), dtype=bool), 1), -np.inf, s)
    p = np.exp(s - s.max(-1, keepdims=True))
    want = (p / p.sum(-1, keepdims=True)) @ v
    got = F.scaled_dot_product_attention(*(kf.asarray(np.ascontiguousarray(t)) for t in (q, k, v)),
                                         is_causal=True)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_a_tiny_causal_transformer_block_learns_to_copy():
    """Next-token prediction of a repeating sequence through embedding, RMSNorm, causal
    attention, a SwiGLU MLP and a tied projection: the loss must fall well below log(vocab)."""
    kf.manual_seed(0)
    emb, norm, wqkv = nn.Embedding(6, 16), nn.RMSNorm(16), nn.Linear(16, 48, bias=False)
    w_gate, w_up, w_down = (nn.Linear(16, 32, bias=False), nn.Linear(16, 32, bias=False),
                            nn.Linear(32, 16, bias=False))
    params = [p for m in (emb, norm, wqkv, w_gate, w_up, w_down) for p in m.parameters()]
    opt = kf.optim.AdamW(params, lr=1e-2)
    tokens = kf.asarray([[i % 6 for i in range(j, j + 12)] for j in range(4)])

    def loss_of():
        h = emb(tokens)
        q, k, v = (t.reshape((4, 12, 2, 8)).permute((0, 2, 1, 3))
                   for t in (wqkv(norm(h))[..., i * 16:(i + 1) * 16] for i in range(3)))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        h = h + a.permute((0, 2, 1, 3)).reshape((4, 12, 16))
        g = norm(h)
        h = h + w_down(F.silu(w_gate(g)) * w_up(g))
        logits = (h @ emb.weight.T)[:, :-1].reshape((-1, 6))
        return F.cross_entropy(logits, tokens[:, 1:].reshape((-1,)))
    first = loss_of().item()
    for _ in range(60):
        opt.zero_grad()
        loss = loss_of()
        loss.backward()
        opt.step()
    assert loss.item() < 0.2 < first
