// operands.cpp — make_operands: the views of a launch, checked and coalesced (operands.hpp).
#include "operands.hpp"

#include <string>

#include "kernforge/plugin.hpp"

namespace kf::cuda {

bool is_contiguous(const kf_tensor_view_t& v) {
  int64_t expected = 1;
  for (int32_t d = v.ndim - 1; d >= 0; --d) {
    if (v.shape[d] == 1) continue;
    if (v.strides[d] != expected) return false;
    expected *= v.shape[d];
  }
  return true;
}

namespace {

void require_same_shape(const kf_tensor_view_t& out, const kf_tensor_view_t& v, size_t k) {
  bool same = v.ndim == out.ndim;
  for (int32_t d = 0; same && d < out.ndim; ++d) same = v.shape[d] == out.shape[d];
  if (!same) {
    throw kf::plugin::KernelError(KF_INTERNAL, "operand " + std::to_string(k) +
                                                   " does not have the output's shape");
  }
}

}  // namespace

Operands make_operands(std::initializer_list<const kf_tensor_view_t*> views) {
  if (views.size() == 0 || views.size() > static_cast<size_t>(kMaxOperands)) {
    throw kf::plugin::KernelError(KF_INTERNAL, "an elementwise launch takes 1 to 4 operands");
  }
  Operands p;
  const kf_tensor_view_t& out = **views.begin();
  p.count = static_cast<int32_t>(views.size());
  p.numel = out.numel;
  size_t k = 0;
  for (const kf_tensor_view_t* v : views) {
    require_same_shape(out, *v, k);
    p.data[k] = v->data;
    p.contiguous = p.contiguous && is_contiguous(*v);
    ++k;
  }
  // Keep the dims of size > 1, merging each into the previous kept one when every operand
  // steps over the pair as one.
  int32_t n = 0;
  for (int32_t d = 0; d < out.ndim; ++d) {
    if (out.shape[d] == 1) continue;
    bool merge = n > 0;
    k = 0;
    for (const kf_tensor_view_t* v : views) {
      merge = merge && p.strides[k][n - 1] == v->strides[d] * out.shape[d];
      ++k;
    }
    k = 0;
    if (merge) {
      p.shape[n - 1] *= out.shape[d];
      for (const kf_tensor_view_t* v : views) p.strides[k++][n - 1] = v->strides[d];
    } else {
      p.shape[n] = out.shape[d];
      for (const kf_tensor_view_t* v : views) p.strides[k++][n] = v->strides[d];
      ++n;
    }
  }
  p.ndim = n;
  return p;
}

}  // namespace kf::cuda
