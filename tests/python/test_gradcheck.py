"""Every op with a backward formula in dispatcher/derivatives.yaml, checked in float64 against
central finite differences through the Python surface, on cpu and on opencl where it is there.
The table's coverage is derived from that file: an op given a formula without a case here fails
the coverage test, and an op whose formulas take complex dtypes (no `real_only`) without a
complex case (COMPLEX_CASES) fails the complex one. The composites a transformer trains through
(COMPOSITES) are checked the same way: their gradients come from their decompositions'
formulas."""

import pathlib

import numpy as np
import pytest
import yaml

import kernforge as kf

ops = kf.ops
A = np.array([[0.3, -0.7, 1.2], [0.9, -1.5, 0.4]])
B = np.array([[1.1, 0.6, -0.8], [0.5, 1.4, -0.2]])
P = np.abs(A) + 0.2             # positive
U = np.clip(A, -0.8, 0.8) * 0.9  # inside (-1, 1)
G = np.abs(A) + 1.2             # above 1
# zeros: one in a row, two in another (prod and cumprod are multilinear: central differences
# are exact there)
ZEROS = np.array([[0.3, 0.0, 1.2, 0.5], [0.0, -1.5, 0.0, 0.4], [0.9, 1.1, -0.7, 0.6]])
# Matrices for linalg: M a batch of two well-conditioned 3x3 (one with a negative determinant),
# SPD a batch of two symmetric positive-definite ones with distinct eigenvalues, TALL and WIDE
# full-rank rectangles with distinct singular values.
M = np.array([[[2.0, 0.3, -0.5], [0.4, 1.5, 0.2], [-0.3, 0.6, 1.8]],
              [[0.2, 1.7, 0.4], [1.3, -0.1, 0.5], [0.3, 0.6, -1.4]]])
SPD = np.einsum("bij,bkj->bik", M, M) + np.eye(3)
TALL = np.array([[1.0, 0.2, -0.4], [0.3, -1.2, 0.5], [0.7, 0.4, 1.6], [-0.5, 0.9, 0.1]])
WIDE = TALL.T[:, :3].copy() + np.array([[0.0, 0.1, 0.0], [0.2, 0.0, 0.0], [0.0, 0.0, -0.3]])
WIDE = np.concatenate([WIDE, np.array([[0.4], [-0.6], [0.25]])], axis=1)  # 3x4


def unary(name, data=A):
    return name, [data], lambda x: getattr(ops, name)(x)


def eigh_invariant(x):
    # the eigenvalues and the squared eigenvectors: both free of the vectors' signs
    values, vectors = ops.linalg_eigh(x)
    return vectors * vectors + ops.unsqueeze(values, -2)


def svd_invariant(x, full_matrices=False):
    # (U * U) @ (Vh * Vh) + U diag(S^3) Vh: each free of the singular vectors' signs
    u, s, vh = ops.linalg_svd(x, full_matrices)
    return ops.matmul(u * u, vh * vh) + ops.matmul(u * ops.unsqueeze(s * s * s, -2), vh)


def qr_product(x, complete=False):
    q, r = ops.linalg_qr(x, complete)
    return ops.matmul(q, r * r)


# name: (inputs, f(*tensors) -> tensor). Ops whose gradient is zero almost everywhere (floor,
# round, ...) are checked away from their jumps.
CASES = {name: (inputs, f) for name, inputs, f in [
    unary("abs"), unary("acos", U), unary("acosh", G), unary("asin", U), unary("asinh"),
    unary("atan"), unary("atanh", U), unary("ceil", A + 0.25), unary("cos"), unary("cosh"),
    unary("erf"), unary("exp"), unary("expm1"), unary("floor", A + 0.25), unary("log", P),
    unary("log10", P), unary("log1p", P), unary("log2", P), unary("neg"), unary("reciprocal", P),
    unary("relu"), unary("round", A + 0.13), unary("rsqrt", P), unary("sigmoid"), unary("sign"),
    unary("silu"), unary("sin"), unary("sinh"), unary("sqrt", P), unary("square"),
    unary("tan", U), unary("tanh"), unary("trunc", A + 0.25),
    ("gelu", [A], lambda x: ops.gelu(x, approximate=True)),
    ("add", [A, B[0]], lambda x, y: ops.add(x, y, alpha=2.5)),
    ("sub", [A, B], lambda x, y: ops.sub(x, y, alpha=0.5)),
    ("mul", [A, B], lambda x, y: x * y), ("div", [A, B], lambda x, y: x / y),
    ("pow", [P, B], lambda x, y: ops.pow(x, y)),
    ("maximum", [A, B], ops.maximum), ("minimum", [A, B], ops.minimum),
    ("atan2", [A, B], ops.atan2), ("hypot", [A, B], ops.hypot),
    ("logaddexp", [A, B], ops.logaddexp),
    ("remainder", [A * 3 + 0.05, P], ops.remainder),
    ("clamp", [A], lambda x: ops.clamp(x, -0.5, 1.0)),
    ("where", [A, B], lambda x, y: ops.where(x > y, x, y)),
    ("sum", [A], lambda x: ops.sum(x, [1])), ("mean", [A], lambda x: ops.mean(x)),
    ("var", [A], lambda x: ops.var(x, [0], keepdim=True)),
    ("std", [A], lambda x: ops.std(x, [1])),
    ("amax", [A], lambda x: ops.amax(x, [1])), ("amin", [A], lambda x: ops.amin(x, [0])),
    ("softmax", [A], lambda x: ops.softmax(x, 1)),
    ("log_softmax", [A], lambda x: ops.log_softmax(x, 0)),
    ("logsumexp", [A], lambda x: ops.logsumexp(x, [1])),
    ("cumsum", [A], lambda x: ops.cumsum(x, 1)),
    ("mm", [A, B.T], ops.mm),
    ("bmm", [A[None], B.T[None]], ops.bmm),
    ("to_dtype", [A], lambda x: ops.to_dtype(x, kf.float32).to(dtype=kf.float64)),
    ("flip", [A], lambda x: ops.flip(x, [1])),
    # composites whose decomposition writes into an output (cat, stack) and records
    ("cat", [A, B[:, :2]], lambda x, y: ops.cat([x, y * 2, x], 1)),
    ("stack", [A, B], lambda x, y: ops.stack([x, ops.to_dtype(y, kf.float32), x], 1)),
    ("index_select", [A], lambda x: ops.index_select(x, 1, kf.asarray([2, 0, 2]))),
    ("index_add_", [A, B[:, :2]],
     lambda x, s: ops.index_add_(x * 1, 1, kf.asarray([1, 1]), s, alpha=2.0)),
    ("copysign", [A, B], ops.copysign),
    ("prod", [ZEROS], lambda x: ops.prod(x, [1]) + ops.prod(x[2:], keepdim=True)),
    ("cumprod", [ZEROS], lambda x: ops.cumprod(x, 1)),
    ("gather", [A], lambda x: ops.gather(x, 1, kf.asarray([[0, 0, 2], [1, 2, 1]]))),
    ("scatter_add_", [A, B],
     lambda x, s: ops.scatter_add_(x * 1, 1, kf.asarray([[2, 2], [0, 1]]), s)),
    ("index_copy_", [A, B],
     lambda x, s: ops.index_copy_(x * 1, 1, kf.asarray([2, 0, 2]), s)),
    ("masked_select_static", [A], lambda x: ops.masked_select_static(x, x > 0, size=5)),
    ("copy_", [A, B[0]], lambda x, s: ops.copy_(x * 1, s)),
    ("fill_", [A], lambda x: ops.fill_(x * 1, 2.0) * x),
    ("reshape", [A], lambda x: ops.reshape(x, [3, 2])),
    ("view", [A], lambda x: ops.view(x, [6])),
    ("flatten", [A], lambda x: ops.flatten(x)),
    ("squeeze", [A[None]], lambda x: ops.squeeze(x, [0])),
    ("unsqueeze", [A], lambda x: ops.unsqueeze(x, 1)),
    ("transpose", [A], lambda x: ops.transpose(x, 0, 1)),
    ("permute", [A[None]], lambda x: ops.permute(x, [2, 0, 1])),
    ("expand", [B[:1]], lambda x: ops.expand(x, [4, 3])),
    ("select", [A], lambda x: ops.select(x, 1, -1)),
    ("slice", [A], lambda x: ops.slice(x, 1, 0, None, 2)),
    ("diagonal", [A], lambda x: ops.diagonal(x)),
    ("sort", [A], lambda x: ops.sort(x, 1)),
    ("sort (descending, dim 0)", [B], lambda x: ops.sort(x, 0, descending=True)),
    ("linalg_cholesky", [SPD], ops.linalg_cholesky),
    ("linalg_cholesky (upper)", [SPD[0]], lambda x: ops.linalg_cholesky(x, upper=True)),
    ("linalg_inv", [M], ops.linalg_inv),
    ("linalg_solve", [M, TALL[:3, :2]], ops.linalg_solve),
    ("linalg_solve (vector rhs)", [M, TALL[0]], ops.linalg_solve),
    ("linalg_det", [M], ops.linalg_det),
    # singular: rank 2 (the cofactors) and rank 1 (no cofactor survives) in one batch
    ("linalg_det (singular)", [np.stack([np.outer([1.0, 2.0, -1.0], [0.5, 1.0, 3.0])
                                         + np.outer([0.0, 1.0, 1.0], [2.0, -1.0, 0.5]),
                                         np.outer([1.0, -2.0, 0.5], [0.3, 1.0, 2.0])])],
     ops.linalg_det),
    ("linalg_slogdet", [M], lambda x: ops.linalg_slogdet(x)[1]),
    ("linalg_eigh", [SPD], eigh_invariant),
    ("linalg_eigh (values only)", [SPD[0]], lambda x: ops.linalg_eigh(x)[0]),
    ("linalg_eigvalsh", [SPD], ops.linalg_eigvalsh),
    ("linalg_svd", [TALL], svd_invariant),
    ("linalg_svd (wide, batched)", [np.stack([WIDE, WIDE * 0.5 + 0.1])], svd_invariant),
    ("linalg_svd (square, full_matrices)", [M], lambda x: svd_invariant(x, True)),
    ("linalg_svd (S only)", [WIDE], lambda x: ops.linalg_svd(x, True)[1]),
    ("linalg_svd (U only, wide)", [WIDE], lambda x: ops.linalg_svd(x, False)[0] ** 2),
    ("linalg_svd (Vh only, tall)", [TALL], lambda x: ops.linalg_svd(x, False)[2] ** 2),
    ("linalg_svdvals", [TALL], ops.linalg_svdvals),
    ("linalg_qr", [TALL], qr_product),
    ("linalg_qr (wide)", [WIDE], qr_product),
    ("linalg_qr (square, complete)", [M], lambda x: qr_product(x, True)),
    ("linalg_qr (Q only, wide)", [WIDE], lambda x: ops.linalg_qr(x)[0]),
    ("linalg_lstsq", [TALL, TALL[:, :2] * 0.7 + 0.1],
     lambda a, b: ops.linalg_lstsq(a, b)[0]),
    ("linalg_lstsq (wide, vector rhs)", [WIDE, TALL[:3, 0]],
     lambda a, b: ops.linalg_lstsq(a, b)[0]),
]}


Q = np.array([[[0.2, -0.4], [0.7, 0.1], [-0.3, 0.5]], [[0.6, 0.3], [-0.8, 0.2], [0.1, -0.9]]])
K = Q[::-1] * 0.8 + 0.1
V = np.arange(12.0).reshape(2, 3, 2) / 10 - 0.5

# Composites (no entry in derivatives.yaml): name -> (inputs, f).
COMPOSITES = {
    "rms_norm": ([A, B[0]], lambda x, w: ops.rms_norm(x, [3], w, 1e-6)),
    "layer_norm": ([A, B[0], B[1]], lambda x, w, b: ops.layer_norm(x, [3], w, b, 1e-5)),
    "scaled_dot_product_attention": (
        [Q, K, V], lambda q, k, v: ops.scaled_dot_product_attention(q, k, v, is_causal=True)),
    "linear": ([A, B, B[0, :2]], lambda x, w, b: ops.linear(x, w, b)),
    "embedding": ([B.T], lambda w: ops.embedding(w, kf.asarray([[2, 0], [1, 2]]))),
    "cross_entropy": ([A], lambda x: kf.nn.functional.cross_entropy(x, kf.asarray([2, 0]))),
}

ROUGH = {"to_dtype", "stack"}  # the cases that go through float32


def weighted(f, arrays):
    out = f(*[kf.asarray(a) for a in arrays]).to(dtype=kf.float64).numpy()
    w = 0.5 + 0.25 * (np.arange(out.size) % 5).reshape(out.shape)
    return float((out * w).sum()), w


def devices():
    """cpu, and opencl where a device is there (PoCL on the CPU in CI): on opencl the forward
    and the formulas run on the device, natively where the backend has the op and through the
    CPU fallback where it has not."""
    found = ["cpu"]
    for b in kf.backends():
        if b["device_type"] == "opencl" and b["device_count"] > 0:
            found.append("opencl:0")
    return found


def on_device(device, monkeypatch):
    """Every kf.asarray of the test (the cases' own index tensors included) on device."""
    made = kf.asarray

    def asarray(obj, *args, **kwargs):
        kwargs.setdefault("device", device)
        return made(obj, *args, **kwargs)

    monkeypatch.setattr(kf, "asarray", asarray)


@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("name", sorted(CASES) + sorted(COMPOSITES))
def test_gradient_matches_finite_differences(name, device, monkeypatch):
    on_device(device, monkeypatch)
    inputs, f = {**CASES, **COMPOSITES}[name]
    arrays = [np.array(a, dtype=np.float64) for a in inputs]
    _, w = weighted(f, arrays)
    xs = [kf.asarray(a, requires_grad=True) for a in arrays]
    out = f(*xs)
    grads = kf.autograd.grad(out, xs, grad_outputs=kf.asarray(w))
    for i, (a, g) in enumerate(zip(arrays, grads)):
        numeric = np.zeros_like(a)
        for j in np.ndindex(a.shape):
            up, down = [b.copy() for b in arrays], [b.copy() for b in arrays]
            up[i][j] += 1e-6
            down[i][j] -= 1e-6
            numeric[j] = (weighted(f, up)[0] - weighted(f, down)[0]) / 2e-6
        # Through float32 a difference of 2e-6 keeps about one digit.
        rtol = 0.1 if name in ROUGH else 1e-5
        np.testing.assert_allclose(g.numpy(), numeric, rtol=rtol, atol=1e-6,
                                   err_msg=f"{name}: input {i}")


def test_every_op_with_a_formula_has_a_case():
    path = pathlib.Path(__file__).resolve().parents[2] / "dispatcher" / "derivatives.yaml"
    entries = yaml.safe_load(path.read_text())["derivatives"]
    with_formulas = {e["op"] for e in entries
                     if not e.get("non_differentiable") and "not_yet" not in e}
    checked = set(CASES) | {name.split(" ")[0] for name in COMPLEX_CASES}
    missing = sorted(with_formulas - checked)
    assert not missing, f"ops with a backward formula but no gradient check: {missing}"


# Double backward: d/dx <grad_x f(x), v>, through formulas that record under create_graph,
# against central differences of the first gradient (itself checked above).
SECOND_ORDER = {
    "linalg_inv": (M[0], ops.linalg_inv),
    "linalg_det": (M, ops.linalg_det),
    "linalg_cholesky": (SPD[1], ops.linalg_cholesky),
    "linalg_eigh": (SPD[0], eigh_invariant),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_double_backward_matches_finite_differences(name):
    a, f = np.array(SECOND_ORDER[name][0]), SECOND_ORDER[name][1]
    _, w = weighted(f, [a])
    v = kf.asarray(0.3 + 0.1 * (np.arange(a.size) % 7).reshape(a.shape))

    def first(arr, create_graph):
        x = kf.asarray(arr, requires_grad=True)
        (g,) = kf.autograd.grad(f(x), [x], grad_outputs=kf.asarray(w),
                                create_graph=create_graph)
        return x, (g * v).sum()

    x, h = first(a, True)
    (analytic,) = kf.autograd.grad(h, [x])
    numeric = np.zeros_like(a)
    for j in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[j] += 1e-6
        down[j] -= 1e-6
        numeric[j] = (first(up, False)[1].item() - first(down, False)[1].item()) / 2e-6
    np.testing.assert_allclose(analytic.numpy(), numeric, rtol=1e-5, atol=1e-6, err_msg=name)


# ------------------------------------------------------------------ complex inputs and outputs
# With PyTorch's convention (Note [Complex gradients] in derivatives.yaml) the gradient of a
# complex input of a real loss L is dL/d(Re z) + i dL/d(Im z). The loss here is
# L = sum(w * real(out)) + sum(v * imag(out)) (for a real out, sum(w * out)), whose gradient with
# respect to out is w + i v; each input's real and imaginary parts are perturbed separately.
Z = A + 1j * B                  # complex, away from the branch cuts of the inverse functions
ZS = 0.5 * A + 0.3j * B         # small: inside the unit disc
ZM = M + 1j * np.array([[[0.1, -0.2, 0.3], [0.2, 0.1, -0.1], [0.0, 0.3, 0.2]]] * 2)
SIG = np.array([0.3, -0.7, 1.2, 0.5, 0.8, -0.4])  # a real signal of 6 points
ZSIG = SIG + 1j * np.array([0.2, 0.5, -0.3, 0.9, -0.6, 0.1])


def cunary(name, data=Z):
    return name, [data], lambda x: getattr(ops, name)(x)


def eig_invariant(x):
    # |V|^2 and V's first row times the conjugate of its second, times the eigenvalues: both
    # free of each eigenvector's phase
    values, vectors = ops.linalg_eig(x)
    rows = ops.select(vectors, -2, 0) * ops.conj(ops.select(vectors, -2, 1)) * values
    return ops.unsqueeze(rows, -2) + ops.abs(vectors) ** 2


COMPLEX_CASES = {name: (inputs, f) for name, inputs, f in [
    cunary("abs"), cunary("acos", ZS), cunary("acosh"), cunary("asin", ZS), cunary("asinh", ZS),
    cunary("atan", ZS), cunary("atanh", ZS), cunary("cos"), cunary("cosh"), cunary("exp"),
    cunary("expm1"), cunary("log"), cunary("log10"), cunary("log1p"), cunary("log2"),
    cunary("neg"), cunary("round", Z + (0.13 + 0.13j)), cunary("sigmoid"),
    cunary("sin"), cunary("sinh"), cunary("sqrt"), cunary("square"), cunary("tan", ZS),
    cunary("tanh", ZS), cunary("conj"), cunary("real"), cunary("imag"),
    ("conj (real input)", [A], lambda x: ops.conj(x) * (1 + 2j)),
    ("real (real input)", [A], ops.real),
    ("imag (real input)", [A], lambda x: ops.imag(x) + x),
    ("add", [Z, B[0] * 1j], lambda x, y: ops.add(x, y, alpha=0.5 - 2j)),
    ("add (real and complex)", [A, Z], lambda x, y: x + y),
    ("sub", [Z, Z[:, :1] * 0.5], lambda x, y: ops.sub(x, y, alpha=1.5j)),
    ("mul", [Z, Z[::-1]], lambda x, y: x * y),
    ("mul (real and complex)", [A, Z], lambda x, y: x * y),
    ("div", [Z, Z[::-1] + 0.5], lambda x, y: x / y),
    ("pow", [Z + 1.5, 0.5 * Z[::-1]], ops.pow),
    ("where", [Z, Z[::-1]], lambda x, y: ops.where(kf.asarray(A > B), x, y)),
    ("sum", [Z], lambda x: ops.sum(x, [1])), ("mean", [Z], lambda x: ops.mean(x, [0])),
    ("cumsum", [Z], lambda x: ops.cumsum(x, 1)),
    ("mm", [Z, Z.T[:, ::-1] * 0.5], ops.mm),
    ("bmm", [Z[None], Z.T[None] * 1j], ops.bmm),
    ("matmul", [ZM, Z.T], ops.matmul),
    ("linalg_inv", [ZM], ops.linalg_inv),
    ("linalg_eig", [ZM], eig_invariant),
    ("linalg_eig (real input)", [M], eig_invariant),
    ("linalg_eig (values only)", [M[1]], lambda x: ops.linalg_eig(x)[0]),
    ("linalg_eigvals", [ZM], ops.linalg_eigvals),
    ("linalg_eigvals (real input)", [M], ops.linalg_eigvals),
    ("fft_c2c", [ZM], lambda x: ops.fft_c2c(x, [1, 2], True, 0.5)),
    ("fft_c2c (inverse)", [Z], lambda x: ops.fft_c2c(x, [0], False, 1.0 / 3)),
    ("fft_r2c", [SIG], lambda x: ops.fft_r2c(x, [0], 1.0)),
    ("fft_r2c (odd, 2-D)", [A], lambda x: ops.fft_r2c(x, [0, 1], 0.25)),
    ("fft_c2r", [ZSIG[:4]], lambda x: ops.fft_c2r(x, [0], 6, 1.0 / 6)),
    ("fft_c2r (odd)", [ZSIG[:3]], lambda x: ops.fft_c2r(x, [0], 5, 1.0)),
    ("fft_c2r (2-D)", [Z], lambda x: ops.fft_c2r(x, [0, 1], 4, 0.5)),
    ("fft (n= pads)", [ZSIG], lambda x: kf.fft.fft(x, n=8, norm="ortho")),
    ("rfft (n= trims)", [SIG], lambda x: kf.fft.rfft(x, n=5)),
    ("irfft (n= pads)", [ZSIG[:3]], lambda x: kf.fft.irfft(x, n=7, norm="forward")),
    ("to_dtype", [A], lambda x: ops.to_dtype(x, kf.complex128) * (1 - 1j)),
    ("cat (real and complex)", [A, Z], lambda x, y: ops.cat([y, x], 0)),
    ("to_dtype (complex to complex)", [Z], lambda x: ops.to_dtype(x, kf.complex128) * 2j),
    ("copy_", [Z, A[0]], lambda x, s: ops.copy_(x * 1, s) * kf.asarray(Z)),
    ("fill_", [Z], lambda x: ops.fill_(x * 1, 2.0) * x),
    ("flip", [Z], lambda x: ops.flip(x, [1]) * kf.asarray(Z)),
    ("prod", [Z], lambda x: ops.prod(x, [1]) + ops.prod(x[1:], keepdim=True)),
    ("prod (zeros)", [ZEROS * (1 + 0.5j)], lambda x: ops.prod(x, [1])),
    ("cumprod", [Z], lambda x: ops.cumprod(x, 0)),
    ("cumprod (zeros)", [ZEROS * (0.5 - 1j)], lambda x: ops.cumprod(x, 1)),
    ("gather", [Z], lambda x: ops.gather(x, 1, kf.asarray([[0, 0, 2], [1, 2, 1]])) * 1j),
    ("scatter_add_", [Z, Z],
     lambda x, s: ops.scatter_add_(x * 1, 1, kf.asarray([[2, 2], [0, 1]]), s) * (1 - 2j)),
    ("index_copy_", [Z, Z],
     lambda x, s: ops.index_copy_(x * 1, 1, kf.asarray([2, 0, 2]), s) * 1j),
    ("masked_select_static", [Z],
     lambda x: ops.masked_select_static(x, ops.real(x) > 0, size=5) * 1j),
    ("index_select", [Z], lambda x: ops.index_select(x, 1, kf.asarray([2, 0, 2])) * 1j),
    ("index_add_", [Z, Z[:, :2]],
     lambda x, s: ops.index_add_(x * 1, 1, kf.asarray([1, 1]), s, alpha=1 + 1j)),
    ("reshape", [Z], lambda x: ops.reshape(x, [3, 2]) * 1j),
    ("view", [Z], lambda x: ops.view(x, [6]) * 1j),
    ("flatten", [Z], lambda x: ops.flatten(x) * 1j),
    ("squeeze", [Z[None]], lambda x: ops.squeeze(x, [0]) * 1j),
    ("unsqueeze", [Z], lambda x: ops.unsqueeze(x, 1) * 1j),
    ("transpose", [Z], lambda x: ops.transpose(x, 0, 1) * 1j),
    ("permute", [Z[None]], lambda x: ops.permute(x, [2, 0, 1]) * 1j),
    ("expand", [Z[:1]], lambda x: ops.expand(x, [4, 3]) * 1j),
    ("select", [Z], lambda x: ops.select(x, 1, -1) * 1j),
    ("slice", [Z], lambda x: ops.slice(x, 1, 0, None, 2) * 1j),
    ("diagonal", [Z], lambda x: ops.diagonal(x) * 1j),
]}


def complex_loss(f, arrays):
    out = f(*[kf.asarray(a) for a in arrays]).numpy()
    w = 0.5 + 0.25 * (np.arange(out.size) % 5).reshape(out.shape)
    v = -0.3 + 0.2 * (np.arange(out.size) % 4).reshape(out.shape)
    if not np.iscomplexobj(out):
        return float((out * w).sum()), w
    return float((out.real * w).sum() + (out.imag * v).sum()), w + 1j * v


def _complex_numeric(f, arrays, i):
    def loss_at(j, step):
        moved = [b.copy() for b in arrays]
        moved[i][j] += step
        return complex_loss(f, moved)[0]

    numeric = np.zeros(arrays[i].shape, dtype=arrays[i].dtype)
    for j in np.ndindex(arrays[i].shape):
        numeric[j] = (loss_at(j, 1e-6) - loss_at(j, -1e-6)) / 2e-6
        if np.iscomplexobj(arrays[i]):
            numeric[j] += 1j * (loss_at(j, 1e-6j) - loss_at(j, -1e-6j)) / 2e-6
    return numeric


@pytest.mark.parametrize("name", sorted(COMPLEX_CASES))
def test_complex_gradient_matches_finite_differences(name):
    inputs, f = COMPLEX_CASES[name]
    arrays = [np.array(a, dtype=np.complex128 if np.iscomplexobj(a) else np.float64)
              for a in inputs]
    _, seed = complex_loss(f, arrays)
    xs = [kf.asarray(a, requires_grad=True) for a in arrays]
    grads = kf.autograd.grad(f(*xs), xs, grad_outputs=kf.asarray(seed))
    for i, (a, g) in enumerate(zip(arrays, grads)):
        assert g.dtype == xs[i].dtype, f"{name}: input {i}'s gradient is {g.dtype}"
        np.testing.assert_allclose(g.numpy(), _complex_numeric(f, arrays, i), rtol=1e-5,
                                   atol=1e-6, err_msg=f"{name}: input {i}")


def test_every_op_with_a_complex_formula_has_a_complex_case():
    path = pathlib.Path(__file__).resolve().parents[2] / "dispatcher" / "derivatives.yaml"
    entries = yaml.safe_load(path.read_text())["derivatives"]
    complex_ready = {e["op"] for e in entries if not e.get("non_differentiable")
                     and "not_yet" not in e and "real_only" not in e}
    covered = {name.split(" ")[0] for name in COMPLEX_CASES}
    missing = sorted(complex_ready - covered)
    assert not missing, f"ops with complex gradients but no complex check: {missing}"
