// Composite linear algebra: matmul (NumPy semantics over mm/bmm and views) and linear.
#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "meta/meta_util.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {
namespace {

// Takes the address of the output so that it is read after the call (argument evaluation
// order is unspecified).
TensorRef call(kf_status_t s, kf_tensor_t* out) {
  check_status(s, "");
  return TensorRef(*out);
}

TensorRef reshaped(TensorImpl& t, std::vector<int64_t> shape) {
  kf_tensor_t out = nullptr;
  return call(kf_reshape(&t, shape.data(), static_cast<int32_t>(shape.size()), &out), &out);
}

std::vector<int64_t> dims(const TensorImpl& t, int32_t from, int32_t to) {
  return std::vector<int64_t>(t.shape + from, t.shape + to);
}

// Broadcast batched product of a (.., n, k) and b (.., k, m), both at least 2-D.
TensorRef batched(TensorImpl& a, TensorImpl& b) {
  std::vector<int64_t> ba = dims(a, 0, a.ndim - 2), bb = dims(b, 0, b.ndim - 2);
  OutputMeta batch{};
  TensorImpl fake_a{}, fake_b{};
  fake_a.ndim = static_cast<int32_t>(ba.size());
  std::copy(ba.begin(), ba.end(), fake_a.shape);
  fake_b.ndim = static_cast<int32_t>(bb.size());
  std::copy(bb.begin(), bb.end(), fake_b.shape);
  meta::broadcast_into("matmul", batch, fake_a);
  meta::broadcast_into("matmul", batch, fake_b);
  int64_t nb = 1;
  for (int32_t i = 0; i < batch.ndim; ++i) nb *= batch.shape[i];
  std::vector<int64_t> full(batch.shape, batch.shape + batch.ndim);
  auto expand_to = [&](TensorImpl& t, int64_t r, int64_t c) {
    std::vector<int64_t> s = full;
    s.push_back(r);
    s.push_back(c);
    kf_tensor_t out = nullptr;
    TensorRef e = call(kf_expand(&t, s.data(), static_cast<int32_t>(s.size()), &out), &out);
    return reshaped(*e, {nb, r, c});
  };
  TensorRef a3 = expand_to(a, a.shape[a.ndim - 2], a.shape[a.ndim - 1]);
  TensorRef b3 = expand_to(b, b.shape[b.ndim - 2], b.shape[b.ndim - 1]);
  kf_tensor_t out = nullptr;
  TensorRef r = call(kf_bmm(a3.get(), b3.get(), &out), &out);
  full.push_back(a.shape[a.ndim - 2]);
  full.push_back(b.shape[b.ndim - 1]);
  return reshaped(*r, full);
}

void check_matmul_shapes(const TensorImpl& a, const TensorImpl& b) {
  if (a.ndim == 0 || b.ndim == 0) {
    fail(KF_INVALID_ARGUMENT, "matmul: both arguments need at least 1 dim, got {}-D and {}-D",
         a.ndim, b.ndim);
  }
  const int64_t k_a = a.shape[a.ndim - 1];
  const int64_t k_b = b.ndim == 1 ? b.shape[0] : b.shape[b.ndim - 2];
  if (k_a != k_b) {
    fail(KF_INVALID_ARGUMENT, "matmul: shapes {} and {} cannot be multiplied ({} != {})",
         shape_string(a.shape, a.ndim), shape_string(b.shape, b.ndim), k_a, k_b);
  }
}

TensorRef matmul_impl(TensorImpl& a, TensorImpl& b) {
  kf_tensor_t out = nullptr;
  if (a.ndim == 2 && b.ndim == 2) return call(kf_mm(&a, &b, &out), &out);
  if (a.ndim == 1 && b.ndim == 1) {  // dot product: (1, k) @ (k, 1), then a 0-dim result
    TensorRef a2 = reshaped(a, {1, a.shape[0]});
    TensorRef b2 = reshaped(b, {b.shape[0], 1});
    TensorRef r = call(kf_mm(a2.get(), b2.get(), &out), &out);
    return reshaped(*r, {});
  }
  if (a.ndim == 1) {  // (k) @ (.., k, m): treat a as (1, k), drop the 1 afterwards
    TensorRef a2 = reshaped(a, {1, a.shape[0]});
    TensorRef r = matmul_impl(*a2, b);
    const int64_t squeeze_dim = -2;
    return call(kf_squeeze(r.get(), &squeeze_dim, 1, &out), &out);
  }
  if (b.ndim == 1) {  // (.., n, k) @ (k): treat b as (k, 1), drop the 1 afterwards
    TensorRef b2 = reshaped(b, {b.shape[0], 1});
    TensorRef r = matmul_impl(a, *b2);
    const int64_t squeeze_dim = -1;
    return call(kf_squeeze(r.get(), &squeeze_dim, 1, &out), &out);
  }
  if (b.ndim == 2) {  // (.., n, k) @ (k, m): one mm over the folded leading dims
    TensorRef a2 = reshaped(a, {-1, a.shape[a.ndim - 1]});
    TensorRef r = call(kf_mm(a2.get(), &b, &out), &out);
    std::vector<int64_t> shape = dims(a, 0, a.ndim - 1);
    shape.push_back(b.shape[1]);
    return reshaped(*r, shape);
  }
  return batched(a, b);
}

}  // namespace

kf_status_t matmul(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    check_matmul_shapes(*args[0].v.tensor, *args[1].v.tensor);
    outs[0] = matmul_impl(*args[0].v.tensor, *args[1].v.tensor).take();
  });
}

kf_status_t linear(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& w = *args[1].v.tensor;
    kf_tensor_t out = nullptr;
    TensorRef wt;
    if (w.ndim == 1) {
      retain(&w);
      wt = TensorRef(&w);
    } else {
      wt = call(kf_transpose(&w, -1, -2, &out), &out);
    }
    check_matmul_shapes(*args[0].v.tensor, *wt);
    TensorRef y = matmul_impl(*args[0].v.tensor, *wt);
    if (args[2].tag == KF_VALUE_TENSOR && args[2].v.tensor != nullptr) {
      y = call(kf_add(y.get(), args[2].v.tensor, kf_scalar_i64(1), &out), &out);
    }
    outs[0] = y.take();
  });
}

}  // namespace kf::composite
