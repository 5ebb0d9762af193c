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

/// A view's dims, strides and the storage offset of its element [0, ..., 0]: what the view ops
/// compute, one step at a time (slice, select and unsqueeze each take one step; the basic index
/// takes all of a key's steps and makes one view).
struct Layout {
  int64_t shape[KF_MAX_NDIM];
  int64_t strides[KF_MAX_NDIM];
  int32_t ndim = 0;
  int64_t offset = 0;
  size_t itemsize = 0;
  explicit Layout(const TensorImpl& t);
};

/// select's step: dim d (wrapped) at `index` (negative counts from the end), which is removed;
/// KF_OUT_OF_RANGE "<op>: index i is out of range for dim d of size n".
void take_index(const char* op, Layout& l, int32_t d, int64_t index);
/// The same, naming dim `shown` in its message (a basic key names the dim of the tensor).
void take_index(const char* op, Layout& l, int32_t d, int64_t index, int32_t shown);

/// slice's step along dim d (wrapped), with Python's defaults (NULL start or end) and clamping
/// of start and end; step 0 is KF_INVALID_ARGUMENT "<op>: slice step cannot be zero".
void take_slice(const char* op, Layout& l, int32_t d, const int64_t* start, const int64_t* end,
                int64_t step);

/// unsqueeze's step: a dim of size 1 inserted at d (wrapped for ndim + 1 dims).
void insert_dim(const char* op, Layout& l, int32_t d);

/// emit_view of a layout.
void emit_layout(const char* op, const TensorImpl& base, const Layout& l, TensorRef* out);

/// Wraps dim for a tensor of `ndim` dims (a 0-dim tensor accepts -1 and 0).
int32_t wrap(const char* op, int64_t dim, int32_t ndim);

}  // namespace kf::views
