// Meta functions of the matrix decompositions and solvers (linalg_cholesky ... linalg_lstsq):
// every input is a stack of matrices [..., m, n] of float32, float64, complex64 or complex128,
// the dtypes LAPACK computes in; the outputs' shapes follow from the input shapes alone (never
// from the values: lstsq's residuals are [..., k] whenever m > n).
#include <initializer_list>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

/// The dtypes the decompositions take; anything else is an error that says what to convert to.
void require_lapack_dtype(const char* op, kf_dtype_t d) {
  if (d == KF_FLOAT32 || d == KF_FLOAT64 || d == KF_COMPLEX64 || d == KF_COMPLEX128) return;
  fail(KF_INVALID_ARGUMENT,
       "{}: {} input is not supported; the decompositions compute in float32, float64, "
       "complex64 or complex128: convert it first (to_dtype)", op, dtype_name(d));
}

/// The real dtype of the same precision (float32 for complex64).
kf_dtype_t real_of(kf_dtype_t d) { return is_complex_dtype(d) ? complex_part_dtype(d) : d; }

/// The complex dtype of the same precision (complex64 for float32).
kf_dtype_t complex_of(kf_dtype_t d) {
  return d == KF_FLOAT32 || d == KF_COMPLEX64 ? KF_COMPLEX64 : KF_COMPLEX128;
}

void require_matrices(const char* op, const TensorImpl& t) {
  if (t.ndim < 2) {
    fail(KF_INVALID_ARGUMENT, "{}: the input must be a matrix or a stack of matrices "
         "[..., m, n], got shape {}", op, shape_string(t.shape, t.ndim));
  }
  require_lapack_dtype(op, t.dtype);
}

void require_square(const char* op, const TensorImpl& t) {
  require_matrices(op, t);
  if (t.shape[t.ndim - 1] != t.shape[t.ndim - 2]) {
    fail(KF_INVALID_ARGUMENT, "{}: the matrices must be square [..., n, n], got shape {}", op,
         shape_string(t.shape, t.ndim));
  }
}

/// out = the batch dims of t followed by `tail` (count entries).
void batch_and(const TensorImpl& t, std::initializer_list<int64_t> tail, OutputMeta& out) {
  out.ndim = t.ndim - 2;
  for (int32_t i = 0; i < out.ndim; ++i) out.shape[i] = t.shape[i];
  for (int64_t s : tail) out.shape[out.ndim++] = s;
}

/// One compute dtype for the op, which the kernel reads its input in.
void computes_in(MetaResult& m, kf_dtype_t d) {
  m.compute_dtype = d;
  m.convert_mask = 0;
}

/// The batch dims of a (all but its last two) and of b (all but its last `b_matrix` dims),
/// broadcast, then `tail`.
void broadcast_batch(const char* op, const TensorImpl& a, const TensorImpl& b, int32_t b_matrix,
                     std::initializer_list<int64_t> tail, OutputMeta& out) {
  TensorImpl batch_a{}, batch_b{};
  batch_a.ndim = a.ndim - 2;
  batch_b.ndim = b.ndim - b_matrix;
  for (int32_t i = 0; i < batch_a.ndim; ++i) batch_a.shape[i] = a.shape[i];
  for (int32_t i = 0; i < batch_b.ndim; ++i) batch_b.shape[i] = b.shape[i];
  out.ndim = 0;
  broadcast_into(op, out, batch_a);
  broadcast_into(op, out, batch_b);
  for (int64_t s : tail) out.shape[out.ndim++] = s;
}

/// The common dtype of a system's two sides (the standard's promotion), checked for LAPACK.
kf_dtype_t system_dtype(const char* op, const TensorImpl& a, const TensorImpl& b) {
  const kf_dtype_t d = promote(a.dtype, b.dtype);
  require_lapack_dtype(op, d);
  return d;
}

/// Right-hand sides b of a system with n rows: [..., n, k], or [n] (one column).
void require_rhs(const char* op, const TensorImpl& a, const TensorImpl& b, int64_t n) {
  const bool vector = b.ndim == 1;
  if (b.ndim == 0 || (vector ? b.shape[0] : b.shape[b.ndim - 2]) != n) {
    fail(KF_INVALID_ARGUMENT, "{}: the right-hand side must be [..., {}, k] or [{}] for a "
         "left-hand side of shape {}, got shape {}", op, n, n, shape_string(a.shape, a.ndim),
         shape_string(b.shape, b.ndim));
  }
}

}  // namespace

void linalg_square(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_square(a.name(), x);
  same_shape(x, m.out[0]);
  m.out[0].dtype = x.dtype;
  computes_in(m, x.dtype);
}

void linalg_solve(const CallArgs& a, MetaResult& m) {
  const TensorImpl &x = a.tensor(0), &b = a.tensor(1);
  require_square(a.name(), x);
  const int64_t n = x.shape[x.ndim - 1];
  require_rhs(a.name(), x, b, n);
  if (b.ndim == 1) {
    batch_and(x, {n}, m.out[0]);
  } else {
    broadcast_batch(a.name(), x, b, 2, {n, b.shape[b.ndim - 1]}, m.out[0]);
  }
  m.out[0].dtype = system_dtype(a.name(), x, b);
  computes_in(m, m.out[0].dtype);
  m.convert_mask = 0x3;
}

void linalg_det(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_square(a.name(), x);
  batch_and(x, {}, m.out[0]);
  m.out[0].dtype = x.dtype;
  computes_in(m, x.dtype);
}

void linalg_slogdet(const CallArgs& a, MetaResult& m) {
  linalg_det(a, m);
  m.out[1] = m.out[0];
  m.out[1].dtype = real_of(m.out[0].dtype);
}

void linalg_eigvalsh(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_square(a.name(), x);
  batch_and(x, {x.shape[x.ndim - 1]}, m.out[0]);
  m.out[0].dtype = real_of(x.dtype);
  computes_in(m, x.dtype);
}

void linalg_eigh(const CallArgs& a, MetaResult& m) {
  linalg_eigvalsh(a, m);
  const TensorImpl& x = a.tensor(0);
  same_shape(x, m.out[1]);
  m.out[1].dtype = x.dtype;
}

void linalg_eigvals(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_square(a.name(), x);
  batch_and(x, {x.shape[x.ndim - 1]}, m.out[0]);
  m.out[0].dtype = complex_of(x.dtype);
  computes_in(m, x.dtype);
}

void linalg_eig(const CallArgs& a, MetaResult& m) {
  linalg_eigvals(a, m);
  const TensorImpl& x = a.tensor(0);
  same_shape(x, m.out[1]);
  m.out[1].dtype = complex_of(x.dtype);
}

void linalg_qr(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_matrices(a.name(), x);
  const int64_t rows = x.shape[x.ndim - 2], cols = x.shape[x.ndim - 1];
  const int64_t k = a.bool_arg(1) ? rows : (rows < cols ? rows : cols);
  batch_and(x, {rows, k}, m.out[0]);
  batch_and(x, {k, cols}, m.out[1]);
  m.out[0].dtype = m.out[1].dtype = x.dtype;
  computes_in(m, x.dtype);
}

void linalg_svdvals(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_matrices(a.name(), x);
  const int64_t rows = x.shape[x.ndim - 2], cols = x.shape[x.ndim - 1];
  batch_and(x, {rows < cols ? rows : cols}, m.out[0]);
  m.out[0].dtype = real_of(x.dtype);
  computes_in(m, x.dtype);
}

void linalg_svd(const CallArgs& a, MetaResult& m) {
  const TensorImpl& x = a.tensor(0);
  require_matrices(a.name(), x);
  const int64_t rows = x.shape[x.ndim - 2], cols = x.shape[x.ndim - 1];
  const int64_t k = rows < cols ? rows : cols;
  const bool full = a.bool_arg(1);
  batch_and(x, {rows, full ? rows : k}, m.out[0]);
  batch_and(x, {k}, m.out[1]);
  batch_and(x, {full ? cols : k, cols}, m.out[2]);
  m.out[0].dtype = m.out[2].dtype = x.dtype;
  m.out[1].dtype = real_of(x.dtype);
  computes_in(m, x.dtype);
}

void linalg_lstsq(const CallArgs& a, MetaResult& m) {
  const TensorImpl &x = a.tensor(0), &b = a.tensor(1);
  require_matrices(a.name(), x);
  const int64_t rows = x.shape[x.ndim - 2], cols = x.shape[x.ndim - 1];
  require_rhs(a.name(), x, b, rows);
  const kf_dtype_t d = system_dtype(a.name(), x, b);
  if (!a.none(2) && !(a.float_arg(2) == a.float_arg(2))) {
    fail(KF_INVALID_ARGUMENT, "{}: rcond must be a number, got nan", a.name());
  }
  const int64_t k = b.ndim == 1 ? 1 : b.shape[b.ndim - 1];
  if (b.ndim == 1) {
    batch_and(x, {cols}, m.out[0]);
  } else {
    broadcast_batch(a.name(), x, b, 2, {cols, k}, m.out[0]);
  }
  OutputMeta batch = m.out[0];
  batch.ndim -= b.ndim == 1 ? 1 : 2;
  m.out[1] = batch;
  if (rows > cols) {
    m.out[1].shape[m.out[1].ndim++] = k;
  } else {
    m.out[1].ndim = 1;
    m.out[1].shape[0] = 0;
  }
  m.out[2] = batch;
  m.out[3] = batch;
  m.out[3].shape[m.out[3].ndim++] = rows < cols ? rows : cols;
  m.out[0].dtype = d;
  m.out[1].dtype = m.out[3].dtype = real_of(d);
  m.out[2].dtype = KF_INT64;
  computes_in(m, d);
  m.convert_mask = 0x3;
}

}  // namespace kf::meta
