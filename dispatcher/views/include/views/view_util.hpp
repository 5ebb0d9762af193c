// Shape and stride arithmetic for the view ops (computed in the core, never kernels).
#pragma once

#include <cstdint>

#include "dispatch/call_args.hpp"
#include "kernforge/kernforge.h"
#include "tensor/tensor_impl.hpp"

namespace kf::views {

/// Resolves one -1 in `shape` for `numel` elements; throws naming the op and shapes (also when
/// the product of the known sizes does not fit in int64).
void infer_size(const char* op, const int64_t* shape, int32_t ndim, int64_t numel,
                int64_t* out);

/// Strides that view `t` as `shape` without copying, or false when none exist (PyTorch's
/// computeStride rule: merged dims must be contiguous with each other) or would not fit in
/// int64.
bool view_strides(const TensorImpl& t, const int64_t* shape, int32_t ndim, int64_t* strides);

/// Writes a new view of `base` to *out; the layout is checked (Note [Layout rules]) and errors
/// name `op`.
void emit_view(const char* op, const TensorImpl& base, const int64_t* shape, const int64_t* strides,
               int32_t ndim, int64_t offset, TensorRef* out);

/// Wraps dim for a tensor of `ndim` dims (a 0-dim tensor accepts -1 and 0).
int32_t wrap(const char* op, int64_t dim, int32_t ndim);

}  // namespace kf::views
