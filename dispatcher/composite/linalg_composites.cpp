// Composite linear algebra: matmul (NumPy semantics over mm/bmm and views), linear and addmm
// (over mm, mul and add). All have a meta rule (meta/linalg_meta.cpp), so a backend kernel may
// override them; the checks of shapes, dtypes and scalars happen there, before these run.
#include <vector>

#include "core/scalar_conversion.hpp"
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "meta/meta_util.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {
namespace {

std::vector<int64_t> dims(const TensorImpl& t, int32_t from, int32_t to) {
  return std::vector<int64_t>(t.shape + from, t.shape + to);
}

// Broadcast batched product of a (.., n, k) and b (.., k, m), both at least 2-D.
TensorRef batched(TensorImpl& a, TensorImpl& b) {
  OutputMeta batch{};
  TensorImpl batch_a{}, batch_b{};
  batch_a.ndim = a.ndim - 2;
  batch_b.ndim = b.ndim - 2;
  for (int32_t i = 0; i < batch_a.ndim; ++i) batch_a.shape[i] = a.shape[i];
  for (int32_t i = 0; i < batch_b.ndim; ++i) batch_b.shape[i] = b.shape[i];
  meta::broadcast_into("matmul", batch, batch_a);
  meta::broadcast_into("matmul", batch, batch_b);
  int64_t nb = 1;
  for (int32_t i = 0; i < batch.ndim; ++i) nb *= batch.shape[i];
  std::vector<int64_t> full(batch.shape, batch.shape + batch.ndim);
  auto expand_to = [&](TensorImpl& t, int64_t r, int64_t c) {
    std::vector<int64_t> s = full;
    s.push_back(r);
    s.push_back(c);
    TensorRef e = ops::expand(t, s);
    return ops::reshape(*e, {nb, r, c});
  };
  TensorRef a3 = expand_to(a, a.shape[a.ndim - 2], a.shape[a.ndim - 1]);
  TensorRef b3 = expand_to(b, b.shape[b.ndim - 2], b.shape[b.ndim - 1]);
  TensorRef r = ops::bmm(*a3, *b3);
  full.push_back(a.shape[a.ndim - 2]);
  full.push_back(b.shape[b.ndim - 1]);
  return ops::reshape(*r, full);
}

TensorRef matmul_impl(TensorImpl& a, TensorImpl& b) {
  if (a.ndim == 2 && b.ndim == 2) return ops::mm(a, b);
  if (a.ndim == 1 && b.ndim == 1) {  // dot product: (1, k) @ (k, 1), then a 0-dim result
    TensorRef a2 = ops::reshape(a, {1, a.shape[0]});
    TensorRef b2 = ops::reshape(b, {b.shape[0], 1});
    TensorRef r = ops::mm(*a2, *b2);
    return ops::reshape(*r, IntListView());
  }
  if (a.ndim == 1) {  // (k) @ (.., k, m): treat a as (1, k), drop the 1 afterwards
    TensorRef a2 = ops::reshape(a, {1, a.shape[0]});
    TensorRef r = matmul_impl(*a2, b);
    return ops::squeeze(*r, {-2});
  }
  if (b.ndim == 1) {  // (.., n, k) @ (k): treat b as (k, 1), drop the 1 afterwards
    TensorRef b2 = ops::reshape(b, {b.shape[0], 1});
    TensorRef r = matmul_impl(a, *b2);
    return ops::squeeze(*r, {-1});
  }
  if (b.ndim == 2) {  // (.., n, k) @ (k, m): one mm over the folded leading dims
    // The folded size spelled out: -1 cannot be inferred when k is 0.
    int64_t rows = 1;
    for (int32_t i = 0; i < a.ndim - 1; ++i) rows *= a.shape[i];
    TensorRef a2 = ops::reshape(a, {rows, a.shape[a.ndim - 1]});
    TensorRef r = ops::mm(*a2, b);
    std::vector<int64_t> shape = dims(a, 0, a.ndim - 1);
    shape.push_back(b.shape[1]);
    return ops::reshape(*r, shape);
  }
  return batched(a, b);
}

bool scalar_is(const kf_scalar_t& s, double v) {
  return (s.tag != KF_SCALAR_COMPLEX128 || s.v.c128.im == 0.0) && scalar_as_double(s) == v;
}

}  // namespace

void matmul(const CallArgs& a, TensorRef* outs) { outs[0] = matmul_impl(a.tensor(0), a.tensor(1)); }

void linear(const CallArgs& a, TensorRef* outs) {
  TensorImpl& w = a.tensor(1);
  TensorRef wt = w.ndim == 1 ? (retain(&w), TensorRef(&w)) : ops::transpose(w, -1, -2);
  TensorRef y = matmul_impl(a.tensor(0), *wt);
  if (TensorImpl* bias = a.optional_tensor(2)) y = ops::add(*y, *bias);
  outs[0] = std::move(y);
}

// Note [addmm without a kernel]
// beta * self + alpha * (mat1 @ mat2) as add(beta * self, product, alpha): add applies alpha in
// its compute type (float for the 16-bit floats, wrapping integers), and broadcasts self to
// [n, m]. beta is a 0-dim tensor of self's dtype (so an integer addmm stays integer). As in
// PyTorch, beta == 0 never reads self: its NaN and inf do not reach the result. alpha == 0
// still multiplies the product (0 * inf is NaN).
void addmm(const CallArgs& a, TensorRef* outs) {
  TensorImpl &self = a.tensor(0), &mat1 = a.tensor(1), &mat2 = a.tensor(2);
  const kf_scalar_t beta = a.scalar(3), alpha = a.scalar(4);
  TensorRef prod = ops::mm(mat1, mat2);
  if (scalar_is(beta, 0)) {
    if (scalar_is(alpha, 1)) {
      outs[0] = std::move(prod);
      return;
    }
    TensorRef zero = ops::zeros_like(*prod);
    outs[0] = ops::add(*zero, *prod, alpha);
    return;
  }
  TensorRef scaled;
  if (scalar_is(beta, 1)) {
    retain(&self);
    scaled = TensorRef(&self);
  } else {
    TensorRef b = ops::full(IntListView(), beta, self.dtype, self.device);
    scaled = ops::mul(self, *b);
  }
  outs[0] = ops::add(*scaled, *prod, alpha);
}

}  // namespace kf::composite
