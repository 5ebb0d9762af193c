// operands.hpp — the strided operands of one elementwise launch, as a plain struct that the
// host side (g++) fills from kernel views and the kernels (nvcc) take by value.
//
// make_operands coalesces dimensions first: two neighbouring dims merge when every operand
// steps over them as one (stride[d] == stride[d+1] * shape[d+1]), and dims of size 1 go, so a
// contiguous tensor of any rank is one dim and the kernels' offset loops stay short. Operand 0
// is the output by convention; every operand has the output's shape (pointwise inputs arrive
// broadcast, with zero strides).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "kernforge/plugin.h"

namespace kf::cuda {

constexpr int kMaxOperands = 4;

struct Operands {
  int32_t count = 0;     // operands used, output first
  int32_t ndim = 0;      // after coalescing; 0 for one element
  int64_t numel = 0;
  bool contiguous = true;  // every operand dense row-major over the same shape
  int64_t shape[KF_MAX_NDIM] = {};
  int64_t strides[kMaxOperands][KF_MAX_NDIM] = {};  // in elements
  void* data[kMaxOperands] = {};
};

/// The operands of `views` (the output first, all of its shape), coalesced. Throws
/// kf::plugin::KernelError for more than kMaxOperands views or a shape that differs.
Operands make_operands(std::initializer_list<const kf_tensor_view_t*> views);

/// Whether `v` is dense row-major (its strides are those of its shape; size-1 dims ignored).
bool is_contiguous(const kf_tensor_view_t& v);

}  // namespace kf::cuda
