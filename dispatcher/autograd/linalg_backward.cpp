// The backward formulas of the linear algebra ops (helpers declared in derivatives.yaml), for
// real dtypes and batched over the leading dims, written in kf::ops calls so that a double
// backward differentiates through them. Note [Linalg gradients]:
// - an op that reads only the lower triangle of a symmetric input (cholesky, eigh, eigvalsh)
//   gets the gradient of what it computes: G, valid for symmetric perturbations, folded onto the
//   lower triangle (entry (i, j), i > j, gets G_ij + G_ji; the upper triangle none);
// - eigh and svd divide by the gaps between eigenvalues (squared singular values): where two
//   coincide, the gradient of the vectors is not finite, that of the values alone is;
// - eig and eigvals (complex results, Note [Complex gradients]): the formula for a
//   diagonalisable matrix with distinct eigenvalues, A = V diag(L) V^-1, whose eigenvectors
//   are unit columns with a free phase each: only functions free of those phases have a
//   gradient, and the formula is the one that holds for them; a real A takes its real part;
// - solve, slogdet and lstsq invert or solve with the input: at a singular (rank-deficient)
//   matrix the backward fails as that solve does; det takes the cofactors from an SVD there.
#include <array>
#include <optional>

#include "core/error.hpp"
#include "core_ops.hpp"
#include "dispatch/tensor_moves.hpp"
#include "formula_helpers.hpp"

namespace kf::autograd::helpers {
namespace {

int64_t rows(const TensorImpl& t) { return t.shape[t.ndim - 2]; }
int64_t cols(const TensorImpl& t) { return t.shape[t.ndim - 1]; }

TensorRef mT(TensorImpl& t) { return ops::transpose(t, -2, -1); }
TensorRef mH(TensorImpl& t) { return conjugate(*mT(t)); }
TensorRef mm(TensorImpl& a, TensorImpl& b) { return ops::matmul(a, b); }
TensorRef sum_or(TensorRef a, TensorRef b) { return a ? ops::add(*a, *b) : std::move(b); }

TensorRef identity(int64_t n, const TensorImpl& like) {
  return ops::eye(n, std::nullopt, like.dtype, like.device);
}

// [n, n]: 1 below the diagonal, `diag` on it, 0 above.
TensorRef lower_mask(int64_t n, const TensorImpl& like, double diag) {
  TensorRef i = ops::arange(kf_scalar_i64(0), kf_scalar_i64(n), kf_scalar_i64(1), KF_INT64,
                            like.device);
  TensorRef below = ops::to_dtype(*ops::gt(*ops::unsqueeze(*i, 1), *ops::unsqueeze(*i, 0)),
                                  like.dtype);
  return ops::add(*below, *identity(n, like), kf_scalar_f64(diag));
}

// [..., k] -> [..., k, k] with v on the diagonal.
TensorRef diag_embed(TensorImpl& v) {
  return ops::mul(*ops::unsqueeze(v, -1), *identity(cols(v), v));
}

// U diag(s) Vh for U [..., m, k], s [..., k], Vh [..., k, n].
TensorRef scaled_product(TensorImpl& u, TensorImpl& s, TensorImpl& vh) {
  return mm(*ops::mul(u, *ops::unsqueeze(s, -2)), vh);
}

// G (a gradient valid for symmetric perturbations) as the gradient of the lower triangle.
TensorRef fold_lower(TensorImpl& g) {
  return ops::mul(*ops::add(g, *mT(g)), *lower_mask(cols(g), g, 0.5));
}

// [..., k, k]: X - X^T.
TensorRef skew(TensorImpl& x) { return ops::sub(x, *mT(x)); }

// The gradient of A = Q R, Q [..., m, n] and R [..., n, n] (m >= n): (gQ + Q copyltu(M)) R^-T
// with M = R gR^T - gQ^T Q and copyltu(M) M's lower triangle mirrored onto its upper one.
TensorRef qr_tall_backward(TensorImpl* gq, TensorImpl* gr, TensorImpl& q, TensorImpl& r) {
  TensorRef m;
  if (gr != nullptr) m = mm(r, *mT(*gr));
  if (gq != nullptr) m = m ? ops::sub(*m, *mm(*mT(*gq), q)) : ops::neg(*mm(*mT(*gq), q));
  TensorRef half = ops::mul(*m, *lower_mask(cols(r), r, 0.5));
  TensorRef b = mm(q, *ops::add(*half, *mT(*half)));
  if (gq != nullptr) b = ops::add(*gq, *b);
  return mT(*ops::linalg_solve(r, *mT(*b)));
}

// Columns [from, to) of the identity [n, n] as rows: [to - from, n], to place a block of
// columns into a wider matrix by a product.
TensorRef identity_rows(int64_t n, int64_t from, int64_t to, const TensorImpl& like) {
  return ops::slice(*identity(n, like), 0, from, to);
}

struct Rhs {
  bool vector;  // other was 1-D: its gradient and the solution's are columns made vectors
  TensorRef b, g, x;
};

TensorRef column(TensorImpl& t, bool vector) {
  if (vector) return ops::unsqueeze(t, -1);
  retain(&t);
  return TensorRef(&t);
}

TensorRef uncolumn(TensorRef t, bool vector) {
  static const int64_t last[] = {-1};
  if (!vector) return t;
  return ops::squeeze(*t, IntListView(last, 1));
}

}  // namespace

TensorRef cholesky_backward(TensorImpl& grad, TensorImpl& result, bool upper) {
  TensorRef l = upper ? mT(result) : column(result, false);
  TensorRef gl = upper ? mT(grad) : column(grad, false);
  const int64_t n = cols(*l);
  TensorRef phi = ops::mul(*mm(*mT(*l), *gl), *lower_mask(n, *l, 0.5));
  TensorRef inv = ops::linalg_inv(*l);
  TensorRef s = mm(*mT(*inv), *mm(*phi, *inv));
  return fold_lower(*s);
}

TensorRef solve_backward_other(TensorImpl& grad, TensorImpl& self, TensorImpl& other) {
  const bool vector = other.ndim == 1;
  return uncolumn(ops::linalg_solve(*mT(self), *column(grad, vector)), vector);
}

TensorRef solve_backward_self(TensorImpl& grad, TensorImpl& self, TensorImpl& other,
                              TensorImpl& result) {
  const bool vector = other.ndim == 1;
  TensorRef gb = ops::linalg_solve(*mT(self), *column(grad, vector));
  return ops::neg(*mm(*gb, *mT(*column(result, vector))));
}

namespace {

// The cofactor matrix of A, det(A) A^-T, without an inverse: with A = U diag(s) Vh it is
// det(U) det(Vh) U diag(p) Vh, p_i the product of the singular values but s_i.
TensorRef cofactors(TensorImpl& self) {
  std::array<TensorRef, 3> usv = ops::linalg_svd(self, false);
  TensorRef eye = identity(cols(*usv[1]), *usv[1]);
  TensorRef others = ops::add(*ops::mul(*ops::unsqueeze(*usv[1], -2),
                                        *affine(*eye, kf_scalar_f64(-1), kf_scalar_f64(1))),
                              *eye);
  static const int64_t last[] = {-1};
  TensorRef p = ops::prod(*others, IntListView(last, 1));
  TensorRef sign = ops::mul(*ops::linalg_det(*usv[0]), *ops::linalg_det(*usv[2]));
  TensorRef c = scaled_product(*usv[0], *p, *usv[2]);
  return ops::mul(*ops::unsqueeze(*ops::unsqueeze(*sign, -1), -1), *c);
}

}  // namespace

// grad * det(A) * A^-T; where a matrix of the batch is singular (det 0), grad * its cofactors
// for the whole batch (an SVD instead of an inverse).
TensorRef det_backward(TensorImpl& grad, TensorImpl& self, TensorImpl& result) {
  const TensorRef zeros = ops::count_nonzero(*ops::eq(result, *ops::zeros_like(result)));
  if (tensor_item(*zeros).v.i64 > 0) {
    return ops::mul(*ops::unsqueeze(*ops::unsqueeze(grad, -1), -1), *cofactors(self));
  }
  TensorRef scale = ops::unsqueeze(*ops::unsqueeze(*ops::mul(grad, result), -1), -1);
  return ops::mul(*scale, *mT(*ops::linalg_inv(self)));
}

// V (diag(gL) + F o (V^T gV)) V^T with F_ij = 1 / (L_j - L_i) off the diagonal, 0 on it.
TensorRef eigh_backward(TensorImpl* grad_values, TensorImpl* grad_vectors, TensorImpl& values,
                        TensorImpl& vectors) {
  TensorRef inner;
  if (grad_values != nullptr) inner = diag_embed(*grad_values);
  if (grad_vectors != nullptr) {
    TensorRef eye = identity(cols(values), values);
    TensorRef gaps = ops::sub(*ops::unsqueeze(values, -2), *ops::unsqueeze(values, -1));
    TensorRef f = ops::div(*affine(*eye, kf_scalar_f64(-1), kf_scalar_f64(1)),
                           *ops::add(*gaps, *eye));
    inner = sum_or(std::move(inner), ops::mul(*f, *mm(*mT(vectors), *grad_vectors)));
  }
  return fold_lower(*mm(vectors, *mm(*inner, *mT(vectors))));
}

TensorRef eigvalsh_backward(TensorImpl& grad, TensorImpl& self) {
  std::array<TensorRef, 2> lv = ops::linalg_eigh(self);
  return fold_lower(*scaled_product(*lv[1], grad, *mT(*lv[1])));
}

// Q [..., m, k], R [..., k, n]. A wide A = Q [R1 R2] is X1 = Q R1 (square) and Y = Q R2.
TensorRef qr_backward(TensorImpl* grad_q, TensorImpl* grad_r, TensorImpl& q, TensorImpl& r,
                      bool complete) {
  const int64_t m = rows(q), n = cols(r);
  if (complete && m > n) {
    fail(KF_UNIMPLEMENTED, "autograd: linalg_qr: with complete=True and more rows ({}) than "
         "columns ({}), Q's last {} columns are not determined by the input and have no "
         "gradient; call linalg_qr with complete=False", m, n, m - n);
  }
  if (m >= n) return qr_tall_backward(grad_q, grad_r, q, r);
  TensorRef r1 = ops::slice(r, -1, 0, m), r2 = ops::slice(r, -1, m, std::nullopt);
  TensorRef gr1, gy, gq = grad_q != nullptr ? column(*grad_q, false) : TensorRef();
  if (grad_r != nullptr) {
    gr1 = ops::slice(*grad_r, -1, 0, m);
    TensorRef gr2 = ops::slice(*grad_r, -1, m, std::nullopt);
    gy = mm(q, *gr2);
    TensorRef extra = mm(*mm(q, *r2), *mT(*gr2));
    gq = grad_q != nullptr ? ops::add(*grad_q, *extra) : std::move(extra);
  }
  TensorRef gx1 = qr_tall_backward(gq.get(), gr1.get(), q, *r1);
  TensorRef ga = mm(*gx1, *identity_rows(n, 0, m, q));
  if (gy) ga = ops::add(*ga, *mm(*gy, *identity_rows(n, m, n, q)));
  return ga;
}

// For full_matrices=False: the k x k core, from the skew parts of U^T gU and Vh gVh^T divided
// by the gaps of the squared singular values, then the parts of gU (gVh) outside U's (Vh's)
// span when m > k (n > k).
TensorRef svd_backward(TensorImpl* grad_u, TensorImpl* grad_s, TensorImpl* grad_vh,
                       TensorImpl& u_full, TensorImpl& s, TensorImpl& vh_full,
                       bool full_matrices) {
  const int64_t m = rows(u_full), n = cols(vh_full), k = cols(s);
  const bool vectors = grad_u != nullptr || grad_vh != nullptr;
  if (full_matrices && m != n && vectors) {
    fail(KF_UNIMPLEMENTED, "autograd: linalg_svd: with full_matrices=True and a non-square "
         "input ({}x{}), the extra columns of U or Vh are not determined by the input and U's "
         "or Vh's gradient is not defined; call linalg_svd with full_matrices=False", m, n);
  }
  TensorRef u = ops::slice(u_full, -1, 0, k), vh = ops::slice(vh_full, -2, 0, k);
  if (!vectors) return scaled_product(*u, *grad_s, *vh);
  TensorRef s2 = ops::mul(s, s);
  TensorRef gaps = ops::add(*ops::sub(*ops::unsqueeze(*s2, -2), *ops::unsqueeze(*s2, -1)),
                            *identity(k, s));
  TensorRef core;
  if (grad_u != nullptr) core = ops::mul(*skew(*mm(*mT(*u), *grad_u)), *ops::unsqueeze(s, -2));
  if (grad_vh != nullptr) {
    core = sum_or(std::move(core),
                  ops::mul(*ops::unsqueeze(s, -1), *skew(*mm(*vh, *mT(*grad_vh)))));
  }
  TensorRef ga = ops::div(*core, *gaps);
  if (grad_s != nullptr) ga = ops::add(*ga, *diag_embed(*grad_s));
  if (m > k && grad_u != nullptr) {
    TensorRef gu_sinv = ops::div(*grad_u, *ops::unsqueeze(s, -2));
    TensorRef outside = ops::sub(*gu_sinv, *mm(*u, *mm(*mT(*u), *gu_sinv)));
    return mm(*ops::add(*mm(*u, *ga), *outside), *vh);
  }
  if (n > k && grad_vh != nullptr) {
    TensorRef sinv_gvh = ops::div(*grad_vh, *ops::unsqueeze(s, -1));
    TensorRef outside = ops::sub(*sinv_gvh, *mm(*mm(*sinv_gvh, *mT(*vh)), *vh));
    return mm(*u, *ops::add(*mm(*ga, *vh), *outside));
  }
  return mm(*mm(*u, *ga), *vh);
}

TensorRef svdvals_backward(TensorImpl& grad, TensorImpl& self) {
  std::array<TensorRef, 3> usv = ops::linalg_svd(self, false);
  return scaled_product(*usv[0], grad, *usv[2]);
}

// The minimum-norm least-squares solution X of A X ~ B for a full-rank A [..., m, n]:
// m >= n, X = (A^T A)^-1 A^T B: with Z = (A^T A)^-1 gX, gA = (B - A X) Z^T - A Z X^T, gB = A Z;
// m < n, X = A^T W, W = (A A^T)^-1 B: with Y = (A A^T)^-1 A gX, gA = W gX^T - Y X^T - W Y^T A,
// gB = Y.
TensorRef lstsq_backward_self(TensorImpl& grad, TensorImpl& self, TensorImpl& other,
                              TensorImpl& solution) {
  const bool vector = other.ndim == 1;
  TensorRef g = column(grad, vector), b = column(other, vector), x = column(solution, vector);
  if (rows(self) >= cols(self)) {
    TensorRef z = ops::linalg_solve(*mm(*mT(self), self), *g);
    TensorRef residual = ops::sub(*b, *mm(self, *x));
    return ops::sub(*mm(*residual, *mT(*z)), *mm(*mm(self, *z), *mT(*x)));
  }
  TensorRef gram = mm(self, *mT(self));
  TensorRef w = ops::linalg_solve(*gram, *b);
  TensorRef y = ops::linalg_solve(*gram, *mm(self, *g));
  TensorRef ga = ops::sub(*mm(*w, *mT(*g)), *mm(*y, *mT(*x)));
  return ops::sub(*ga, *mm(*mm(*w, *mT(*y)), self));
}

TensorRef lstsq_backward_other(TensorImpl& grad, TensorImpl& self, TensorImpl& other) {
  const bool vector = other.ndim == 1;
  TensorRef g = column(grad, vector);
  if (rows(self) >= cols(self)) {
    return uncolumn(mm(self, *ops::linalg_solve(*mm(*mT(self), self), *g)), vector);
  }
  return uncolumn(ops::linalg_solve(*mm(self, *mT(self)), *mm(self, *g)), vector);
}

// V^-H (diag(gL) + (V^H gV - V^H V diag(Re diag(V^H gV))) / conj(E)) V^H, E_ij = L_j - L_i
// off the diagonal (whose entries the quotient leaves out); the second term removes the
// part of gV along each column's own phase and norm, which the unit-norm gauge fixes.
TensorRef eig_backward(TensorImpl* grad_values, TensorImpl* grad_vectors, TensorImpl& values,
                       TensorImpl& vectors) {
  TensorRef vh = mH(vectors);
  TensorRef inner;
  if (grad_values != nullptr) inner = diag_embed(*grad_values);
  if (grad_vectors != nullptr) {
    TensorRef vhgv = mm(*vh, *grad_vectors);
    TensorRef norm_part = ops::real(*ops::diagonal(*vhgv, 0, -2, -1));
    TensorRef free = ops::sub(*vhgv, *mm(*vh, *ops::mul(vectors, *ops::unsqueeze(*norm_part, -2))));
    TensorRef lc = conjugate(values);
    TensorRef eye = identity(cols(values), values);
    TensorRef gaps = ops::sub(*ops::unsqueeze(*lc, -2), *ops::unsqueeze(*lc, -1));
    TensorRef off = ops::div(*affine(*eye, kf_scalar_f64(-1), kf_scalar_f64(1)),
                             *ops::add(*gaps, *eye));
    inner = sum_or(std::move(inner), ops::mul(*free, *off));
  }
  return ops::linalg_solve(*vh, *mm(*inner, *vh));
}

TensorRef eigvals_backward(TensorImpl& grad, TensorImpl& self) {
  std::array<TensorRef, 2> lv = ops::linalg_eig(self);
  TensorRef vh = mH(*lv[1]);
  return ops::linalg_solve(*vh, *mm(*diag_embed(grad), *vh));
}

}  // namespace kf::autograd::helpers
