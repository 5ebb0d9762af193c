"""kf.linalg against numpy: every function of the array API's linalg extension, plus eig,
eigvals and lstsq, on float32, float64, complex64 and complex128, batched (empty batches and
empty matrices included). The decompositions are checked by their identities (Q @ R == A,
U @ diag(S) @ Vh == A, A @ V == V @ diag(w)) and their values against numpy; singular,
non-positive-definite and non-finite inputs must raise, naming the batch index.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import kernforge as kf

settings.register_profile("kernforge-linalg", max_examples=25, deadline=None)
settings.load_profile("kernforge-linalg")

DTYPES = ["float32", "float64", "complex64", "complex128"]
SHAPES = [(4, 4), (3, 5, 5), (2, 0, 3, 3), (1, 1), (0, 0)]

# The ops of the registry these tests compare with numpy (test_ops_numpy_rest.py's coverage check).
COMPARED = {"linalg_cholesky", "linalg_inv", "linalg_solve", "linalg_det", "linalg_slogdet",
            "linalg_eigh", "linalg_eigvalsh", "linalg_eig", "linalg_eigvals", "linalg_qr",
            "linalg_svd", "linalg_svdvals", "linalg_lstsq", "diagonal"}


def tol(dtype):
    return dict(rtol=2e-3, atol=2e-3) if dtype in ("float32", "complex64") else \
        dict(rtol=1e-9, atol=1e-9)


def random(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def well_conditioned(shape, dtype, seed=0):
    """Random square matrices plus n on the diagonal: far from singular."""
    a = random(shape, dtype, seed)
    n = shape[-1]
    return (a + n * np.eye(n, dtype=dtype)).astype(dtype)


def hermitian_pd(shape, dtype, seed=0):
    a = random(shape, dtype, seed)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def close(t, expected, dtype, what=""):
    expected = np.asarray(expected)
    assert tuple(t.shape) == expected.shape, (what, t.shape, expected.shape)
    np.testing.assert_allclose(t.numpy(), expected, err_msg=what, **tol(dtype))


def H(a):
    return np.conj(np.swapaxes(a, -1, -2))


def identities(q):
    """The identities that Q^H Q of orthonormal columns q [..., m, c] must be."""
    c = q.shape[-1]
    return np.broadcast_to(np.eye(c), q.shape[:-2] + (c, c))


def real_name(dtype):
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dtype, shape, upper):
    a = hermitian_pd(shape, dtype)
    got = kf.linalg.cholesky(kf.asarray(a), upper=upper)
    assert got.dtype.name == dtype
    want = np.linalg.cholesky(a) if a.size else a
    close(got, H(want) if upper else want, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_inv_det_slogdet(dtype, shape):
    a = well_conditioned(shape, dtype)
    x = kf.asarray(a)
    close(kf.linalg.inv(x), np.linalg.inv(a) if a.size else a, dtype, "inv")
    close(kf.linalg.det(x), np.linalg.det(a), dtype, "det")
    sign, logabs = kf.linalg.slogdet(x)
    want_sign, want_logabs = np.linalg.slogdet(a)
    assert sign.dtype.name == dtype and logabs.dtype.name == real_name(dtype)
    close(sign, want_sign, dtype, "sign")
    close(logabs, want_logabs, dtype, "logabsdet")
    assert kf.linalg.slogdet(x).logabsdet is not None  # a namedtuple


def test_det_and_slogdet_of_singular_matrices_are_zero_and_minus_inf():
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]]])
    assert np.all(kf.linalg.det(kf.asarray(a)).numpy() == 0)
    sign, logabs = kf.linalg.slogdet(kf.asarray(a))
    assert np.all(sign.numpy() == 0) and np.all(logabs.numpy() == -np.inf)


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_with_matrices_vectors_and_broadcast_batches(dtype):
    a = well_conditioned((2, 1, 3, 3), dtype)
    b = random((4, 3, 2), dtype, seed=1)
    got = kf.linalg.solve(kf.asarray(a), kf.asarray(b))
    close(got, np.linalg.solve(a, b), dtype)
    v = random((3,), dtype, seed=2)
    got = kf.linalg.solve(kf.asarray(a), kf.asarray(v))
    assert tuple(got.shape) == (2, 1, 3)
    close(got, np.linalg.solve(a, v[..., None])[..., 0], dtype)


def test_solve_promotes_its_operands():
    a = well_conditioned((3, 3), "float32")
    b = random((3, 1), "float64")
    got = kf.linalg.solve(kf.asarray(a), kf.asarray(b))
    assert got.dtype == kf.float64
    close(got, np.linalg.solve(a.astype("float64"), b), "float64")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_eigh_and_eigvalsh(dtype, shape):
    a = hermitian_pd(shape, dtype)
    w, v = kf.linalg.eigh(kf.asarray(a))
    assert w.dtype.name == real_name(dtype) and v.dtype.name == dtype
    close(w, np.linalg.eigvalsh(a) if a.size else np.zeros(shape[:-1]), dtype, "eigenvalues")
    vn = v.numpy()
    close(kf.asarray(a @ vn), vn * w.numpy()[..., None, :], dtype, "A V = V diag(w)")
    close(kf.linalg.eigvalsh(kf.asarray(a)), w.numpy(), dtype, "eigvalsh")
    assert kf.linalg.eigh(kf.asarray(a)).eigenvectors is not None


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (0, 2, 2)])
def test_eig_and_eigvals(dtype, shape):
    a = random(shape, dtype)
    w, v = kf.linalg.eig(kf.asarray(a))
    cplx = "complex64" if dtype in ("float32", "complex64") else "complex128"
    assert w.dtype.name == cplx and v.dtype.name == cplx
    wn, vn = w.numpy(), v.numpy()
    close(kf.asarray(a.astype(cplx) @ vn), vn * wn[..., None, :], cplx, "A V = V diag(w)")
    close(kf.asarray(np.linalg.norm(vn, axis=-2)), np.ones(shape[:-1]), cplx, "unit vectors")
    want = np.sort_complex(np.linalg.eigvals(a).reshape(-1)) if a.size else np.zeros(0)
    close(kf.asarray(np.sort_complex(kf.linalg.eigvals(kf.asarray(a)).numpy().reshape(-1))),
          want, cplx, "eigvals")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 5, 5), (0, 3, 2), (3, 0)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_and_svdvals(dtype, shape, full):
    a = random(shape, dtype)
    u, s, vh = kf.linalg.svd(kf.asarray(a), full_matrices=full)
    k = min(shape[-2:])
    m, n = shape[-2:]
    assert tuple(u.shape) == shape[:-2] + ((m, m) if full else (m, k))
    assert tuple(vh.shape) == shape[:-2] + ((n, n) if full else (k, n))
    assert s.dtype.name == real_name(dtype)
    close(s, np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(shape[:-2] + (k,)),
          dtype, "S")
    un, sn, vhn = u.numpy(), s.numpy(), vh.numpy()
    close(kf.asarray(un[..., :, :k] * sn[..., None, :] @ vhn[..., :k, :]), a, dtype, "U S Vh")
    close(kf.asarray(H(un) @ un), identities(un), dtype, "U^H U")
    close(kf.linalg.svdvals(kf.asarray(a)), sn, dtype, "svdvals")
    assert kf.linalg.svd(kf.asarray(a)).Vh is not None


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 5, 5), (0, 3, 2), (2, 0)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dtype, shape, mode):
    a = random(shape, dtype)
    q, r = kf.linalg.qr(kf.asarray(a), mode=mode)
    m, n = shape[-2:]
    k = m if mode == "complete" else min(m, n)
    assert tuple(q.shape) == shape[:-2] + (m, k) and tuple(r.shape) == shape[:-2] + (k, n)
    qn, rn = q.numpy(), r.numpy()
    close(kf.asarray(qn @ rn), a, dtype, "Q R")
    close(kf.asarray(H(qn) @ qn), identities(qn), dtype, "Q^H Q")
    assert np.all(np.tril(rn, -1) == 0)
    assert kf.linalg.qr(kf.asarray(a)).R is not None
    with pytest.raises(ValueError, match="mode must be 'reduced' or 'complete'"):
        kf.linalg.qr(kf.asarray(a), mode="r")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m,n,k", [(6, 3, 2), (3, 6, 1), (4, 4, 3)])
def test_lstsq(dtype, m, n, k):
    a, b = random((m, n), dtype), random((m, k), dtype, seed=1)
    sol, res, rank, sv = kf.linalg.lstsq(kf.asarray(a), kf.asarray(b))
    want = np.linalg.lstsq(a, b, rcond=None)
    close(sol, want[0], dtype, "solution")
    assert int(rank.item()) == want[2] and rank.dtype == kf.int64
    close(sv, want[3], dtype, "singular values")
    if m > n:
        close(res, want[1], dtype, "residuals")
    else:
        assert tuple(res.shape) == (0,)


@pytest.mark.parametrize("dtype", DTYPES)
def test_pinv_and_matrix_rank(dtype):
    a = random((3, 5, 4), dtype)
    a[1] = a[1][:, :1] @ a[1][:1, :]  # rank 1
    rtol = max(a.shape[-2:]) * np.finfo(real_name(dtype)).eps  # the standard's default
    close(kf.linalg.pinv(kf.asarray(a)), np.linalg.pinv(a, rtol=rtol), dtype, "pinv")
    rank = kf.linalg.matrix_rank(kf.asarray(a))
    assert rank.dtype == kf.int64
    assert rank.numpy().tolist() == np.linalg.matrix_rank(a).tolist() == [4, 1, 4]


@pytest.mark.parametrize("rtol", [3.402823466385289e38, 1e300, 0.0])
def test_pinv_and_matrix_rank_take_an_rtol_beyond_float32s_range(rtol):
    """A float rtol is a 0-dim array of x's real dtype (the standard): one beyond float32's
    range is inf there (every singular value cut), not an error."""
    a = kf.asarray(random((2, 3, 3), "float32"))
    rank = kf.linalg.matrix_rank(a, rtol=rtol).numpy().tolist()
    assert rank == ([3, 3] if rtol == 0.0 else [0, 0])
    inverse = kf.linalg.pinv(a, rtol=rtol)
    assert inverse.dtype == kf.float32
    if rtol:
        assert np.all(inverse.numpy() == 0)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(dtype, ord, keepdims):
    a = random((2, 3, 4), dtype)
    got = kf.linalg.matrix_norm(kf.asarray(a), ord=ord, keepdims=keepdims)
    want = np.linalg.norm(a, ord=ord, axis=(-2, -1), keepdims=keepdims)
    assert got.dtype.name == real_name(dtype)
    close(got, want, dtype)


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (2, 0, 0)])
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
def test_matrix_norm_of_empty_matrices(shape, ord):
    """Matrices without singular values, column sums or row sums: the largest of none is 0, as
    in numpy 2; the smallest of none is a clear error naming ord and the shape, where numpy's
    is a reduction's."""
    a = np.zeros(shape)
    try:
        want = np.linalg.norm(a, ord=ord, axis=(-2, -1))
    except ValueError:
        with pytest.raises(ValueError, match=rf"ord={ord!r} of matrices of shape .* have none"):
            kf.linalg.matrix_norm(kf.asarray(a), ord=ord)
        return
    for keepdims in (False, True):
        got = kf.linalg.matrix_norm(kf.asarray(a), ord=ord, keepdims=keepdims)
        close(got, want[..., None, None] if keepdims else want, "float64")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", [2, 1, 0, math.inf, -math.inf, 3, 0.5])
@pytest.mark.parametrize("axis", [None, -1, (0, 2)])
def test_vector_norm(dtype, ord, axis):
    a = random((2, 3, 4), dtype)
    got = kf.linalg.vector_norm(kf.asarray(a), axis=axis, ord=ord)
    flat = a.reshape(-1) if axis is None else a
    want = np.linalg.norm(flat, ord=ord) if axis is None else \
        np.linalg.norm(a, ord=ord, axis=axis) if isinstance(axis, int) else \
        np.linalg.norm(np.moveaxis(a, axis, (-2, -1)).reshape(3, -1), ord=ord, axis=-1)
    close(got, want, dtype)


@pytest.mark.parametrize("ord", [3, 0.5, 100, -1, -2.5, -100])
def test_vector_norm_of_p_neither_overflows_nor_underflows(ord):
    """A p-norm is scaled by the largest |x| (the smallest for p < 0): 1e10 ** 100 overflows
    float32 and float64, the norm does not; zeros and infs give the norm itself."""
    for values in ([1e10, 2e10], [1e-10, 3e-10], [0.0, 3.0], [0.0, 0.0], [math.inf, 1.0]):
        a = np.array(values)
        want = np.sum(np.abs(a / np.max(a)) ** ord) ** (1 / ord) * np.max(a) if ord > 0 and \
            np.max(a) not in (0, math.inf) else np.linalg.norm(a, ord=ord)
        if ord < 0 and 0 < np.min(a) < math.inf:
            m = np.min(a)
            want = np.sum((a / m) ** ord) ** (1 / ord) * m
        close(kf.linalg.vector_norm(kf.asarray(a), ord=ord), want, "float64", str(values))


def test_vector_norm_takes_an_ord_whose_inverse_float32_cannot_hold():
    """1 / ord beyond float32's range is inf there, not an error (the standard's ord is any
    float); float64 holds it, and the norm of one nonzero value is that value."""
    got = kf.linalg.vector_norm(kf.asarray([0.0, 2.0], dtype=kf.float32), ord=3.6e-231)
    assert got.dtype == kf.float32
    assert got.item() == 2.0  # ord itself, which float32 rounds to 0 (0 ** 0 would count the 0)
    assert kf.linalg.vector_norm(kf.asarray(0.0), ord=3.6e-231).item() == 0.0
    x = kf.asarray([0.0, 2.0], dtype=kf.float64)
    assert kf.linalg.vector_norm(x, ord=3.6e-231).item() == 2.0


@pytest.mark.parametrize("n", [-2, -1, 0, 1, 2, 3, 6])
def test_matrix_power(n):
    a = well_conditioned((2, 3, 3), "float64")
    close(kf.linalg.matrix_power(kf.asarray(a), n), np.linalg.matrix_power(a, n), "float64")


@pytest.mark.parametrize("offset", [-2, -1, 0, 1, 3, 7])
def test_diagonal_and_trace(offset):
    a = random((2, 3, 4), "float64")
    got = kf.linalg.diagonal(kf.asarray(a), offset=offset)
    close(got, np.diagonal(a, offset=offset, axis1=-2, axis2=-1), "float64")
    close(kf.linalg.trace(kf.asarray(a), offset=offset),
          np.trace(a, offset=offset, axis1=-2, axis2=-1), "float64")
    t = kf.asarray(a)
    view = kf.ops.diagonal(t, offset, 1, 2)
    view.fill_(7.0)  # a view: writes reach the base
    assert np.all(np.diagonal(t.numpy(), offset=offset, axis1=1, axis2=2) == 7.0)


def test_trace_of_integers_keeps_the_standards_dtype():
    a = np.arange(9, dtype=np.int32).reshape(3, 3)
    got = kf.linalg.trace(kf.asarray(a))
    assert got.item() == 12 and got.dtype == kf.sum(kf.asarray(a)).dtype


@pytest.mark.parametrize("left, right", [("uint8", "uint16"), ("int8", "float64"),
                                         ("float32", "float64"), ("float32", "complex128")])
def test_matmul_promotes_its_operands(left, right):
    """kf.matmul and kf.linalg.matmul follow the standard's type promotion (kf.ops.matmul,
    PyTorch's, takes one dtype)."""
    a = (np.arange(6) % 4).reshape(2, 3).astype(left)
    b = (np.arange(12) % 5).reshape(2, 3, 2).astype(right)
    for matmul in (kf.matmul, kf.linalg.matmul):
        got = matmul(kf.asarray(a), kf.asarray(b))
        assert got.dtype == kf.result_type(kf.asarray(a), kf.asarray(b))
        np.testing.assert_allclose(got.numpy(), a @ b)


@pytest.mark.parametrize("left, right", [((0, 0, 0), (0,)), ((2, 3, 0), (0,)), ((3, 2, 0), (0, 4)),
                                         ((0, 2, 0), (0, 3)), ((0,), (2, 0, 3)),
                                         ((2, 1, 1, 0), (3, 0, 4)), ((0,), (0,))])
def test_matmul_of_an_empty_inner_dim_is_zeros(left, right):
    """k = 0: the products are sums of nothing (numpy's zeros), batched or not."""
    a, b = np.ones(left, "float32"), np.ones(right, "float32")
    got = kf.matmul(kf.asarray(a), kf.asarray(b))
    np.testing.assert_array_equal(got.numpy(), a @ b)
    assert tuple(got.shape) == (a @ b).shape


def test_cross_and_outer():
    a, b = random((4, 3), "float64"), random((2, 1, 3), "float64", seed=1)
    close(kf.linalg.cross(kf.asarray(a), kf.asarray(b)), np.cross(a, b), "float64")
    c, d = random((3, 2), "float64"), random((3, 5), "float64")
    close(kf.linalg.cross(kf.asarray(c), kf.asarray(d[:, :2]), axis=-2),
          np.cross(c, d[:, :2], axis=0), "float64")
    x, y = random((3,), "complex64"), random((4,), "complex64", seed=1)
    close(kf.linalg.outer(kf.asarray(x), kf.asarray(y)), np.outer(x, y), "complex64")
    with pytest.raises(ValueError, match="size 3 along axis -1"):
        kf.linalg.cross(kf.asarray(random((2,), "float64")), kf.asarray(random((2,), "float64")))


def test_a_singular_matrix_is_an_error_naming_its_batch_index():
    a = np.stack([np.eye(3), np.ones((3, 3)), np.eye(3)])
    with pytest.raises(ValueError, match=r"linalg_inv: the matrix at batch index 1 is singular"):
        kf.linalg.inv(kf.asarray(a))
    with pytest.raises(ValueError, match=r"linalg_solve: the matrix at batch index 1 is singular"):
        kf.linalg.solve(kf.asarray(a), kf.asarray(np.ones(3)))


def test_cholesky_of_a_matrix_that_is_not_positive_definite_names_the_minor():
    a = np.stack([np.eye(3), np.diag([1.0, -1.0, 1.0])])
    with pytest.raises(ValueError, match=r"batch index 1 is not positive-definite \(its leading "
                                         r"minor of order 2"):
        kf.linalg.cholesky(kf.asarray(a))


@pytest.mark.parametrize("name", ["eigh", "eigvalsh", "svd", "svdvals", "eig", "eigvals"])
def test_non_finite_input_to_an_iterative_decomposition_is_an_error(name):
    a = np.stack([np.eye(2), np.array([[1.0, np.nan], [np.nan, 1.0]])])
    with pytest.raises(ValueError, match=r"batch index 1 holds a NaN or an infinity"):
        getattr(kf.linalg, name)(kf.asarray(a))


@pytest.mark.parametrize("dtype", ["int32", "float16", "bool"])
def test_dtypes_lapack_lacks_say_what_to_convert_to(dtype):
    with pytest.raises(ValueError, match=f"{dtype} input is not supported.*float32, float64"):
        kf.linalg.inv(kf.astype(kf.asarray(np.eye(2)), getattr(kf, dtype)))


def test_shapes_that_are_not_matrices_say_so():
    with pytest.raises(ValueError, match="must be square"):
        kf.linalg.det(kf.ones((2, 3)))
    with pytest.raises(ValueError, match="matrix or a stack of matrices"):
        kf.linalg.svdvals(kf.ones((3,)))
    with pytest.raises(ValueError, match=r"right-hand side must be \[\.\.\., 3, k\] or \[3\]"):
        kf.linalg.solve(kf.eye(3), kf.ones((2,)))


@given(st.integers(1, 6), st.integers(0, 3), st.sampled_from(DTYPES), st.integers(0, 2**31))
def test_solve_and_inv_agree_with_numpy_on_random_batches(n, batch, dtype, seed):
    a = well_conditioned((batch, n, n), dtype, seed)
    b = random((batch, n, 2), dtype, seed + 1)
    close(kf.linalg.solve(kf.asarray(a), kf.asarray(b)), np.linalg.solve(a, b), dtype)
    close(kf.linalg.inv(kf.asarray(a)), np.linalg.inv(a) if a.size else a, dtype)
