// Note [Merged layouts]: kernels decode a row-major index into offsets with one division per
// dimension, so fewer dimensions are faster: size-1 dimensions carry nothing, and two
// neighbours d, d+1 fold into one when, for every operand, stride[d] == stride[d+1] *
// shape[d+1]. A dense row-major tensor folds into one dimension of stride 1: the _contig
// kernels then index directly.
#include "layout.hpp"

#include <cstring>

namespace kf::clk {
namespace {

/// Copies the non-1 dimensions of the operands into `out`.
void drop_unit_dims(const kf_tensor_view_t* const* views, int32_t n, KernelLayout& out) {
  const kf_tensor_view_t& first = *views[0];
  out.ndim = 0;
  for (int32_t d = 0; d < first.ndim; ++d) {
    if (first.shape[d] == 1) continue;
    out.shape[out.ndim] = first.shape[d];
    for (int32_t k = 0; k < n; ++k) out.stride[k][out.ndim] = views[k]->strides[d];
    ++out.ndim;
  }
}

/// Folds neighbours, innermost first: the folded dimensions are built in reverse in `r`.
void fold(KernelLayout& l, int32_t n) {
  KernelLayout r;
  std::memset(&r, 0, sizeof r);
  int32_t m = 0;
  for (int32_t d = l.ndim - 1; d >= 0; --d) {
    bool folds = m > 0;
    for (int32_t k = 0; folds && k < n; ++k) {
      folds = l.stride[k][d] == r.stride[k][m - 1] * r.shape[m - 1];
    }
    if (folds) {
      r.shape[m - 1] *= l.shape[d];
      continue;
    }
    r.shape[m] = l.shape[d];
    for (int32_t k = 0; k < n; ++k) r.stride[k][m] = l.stride[k][d];
    ++m;
  }
  for (int32_t i = 0; i < m; ++i) {
    l.shape[i] = r.shape[m - 1 - i];
    for (int32_t k = 0; k < n; ++k) l.stride[k][i] = r.stride[k][m - 1 - i];
  }
  l.ndim = m;
}

}  // namespace

KernelLayout merged_layout(const kf_tensor_view_t* const* views, int32_t n, bool* contiguous) {
  KernelLayout l;
  std::memset(&l, 0, sizeof l);
  drop_unit_dims(views, n, l);
  if (l.ndim > 1) fold(l, n);
  bool dense = l.ndim <= 1;
  for (int32_t k = 0; dense && k < n && l.ndim == 1; ++k) dense = l.stride[k][0] == 1;
  if (contiguous != nullptr) *contiguous = dense;
  return l;
}

}  // namespace kf::clk
