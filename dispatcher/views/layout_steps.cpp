// The steps of the indexing views (select, slice, unsqueeze) on a Layout, shared by those ops
// and by the basic index, which takes all of a key's steps and then makes one view.
#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "views/view_util.hpp"

namespace kf::views {
namespace {

// The storage offset of index `i` along dim d of l.
int64_t offset_at(const char* op, const Layout& l, int32_t d, int64_t i) {
  int64_t step = 0, offset = 0;
  if (!checked_mul(i, l.strides[d], &step) || !checked_add(l.offset, step, &offset)) {
    fail(KF_INVALID_ARGUMENT, "{}: index {} of dim {} of the tensor of shape {} and strides {} "
         "is at an offset beyond 2^63-1", op, i, d, shape_string(l.shape, l.ndim),
         shape_string(l.strides, l.ndim));
  }
  return offset;
}

// Python's start and end of a slice along a dim of `size`, and its length: clamped to
// [0, size] for a positive step, to [-1, size - 1] for a negative one (-1: before element 0).
struct SliceBounds {
  int64_t start = 0, length = 0;
};

SliceBounds slice_bounds(const int64_t* start_arg, const int64_t* end_arg, int64_t size,
                         int64_t step) {
  const bool up = step > 0;
  int64_t start = start_arg == nullptr ? (up ? 0 : size - 1) : *start_arg;
  int64_t end = end_arg == nullptr ? (up ? size : -1) : *end_arg;
  if (start_arg != nullptr && start < 0) start += size;
  if (end_arg != nullptr && end < 0) end += size;
  const int64_t lo = up ? 0 : -1, hi = up ? size : size - 1;
  start = start < lo ? lo : (start > hi ? hi : start);
  end = end < lo ? lo : (end > hi ? hi : end);
  // The bounds lie in [-1, size], so the differences cannot overflow, nor -step be needed.
  if (up) return {start, end > start ? (end - start - 1) / step + 1 : 0};
  return {start, start > end ? (end - start + 1) / step + 1 : 0};
}

}  // namespace

Layout::Layout(const TensorImpl& t)
    : ndim(t.ndim), offset(t.offset), itemsize(kf::itemsize(t.dtype)) {
  for (int32_t i = 0; i < t.ndim; ++i) {
    shape[i] = t.shape[i];
    strides[i] = t.strides[i];
  }
}

void take_index(const char* op, Layout& l, int32_t d, int64_t index) {
  take_index(op, l, d, index, d);
}

void take_index(const char* op, Layout& l, int32_t d, int64_t index, int32_t shown) {
  const int64_t size = l.shape[d];
  if (index < -size || index >= size) {
    fail(KF_OUT_OF_RANGE, "{}: index {} is out of range for dim {} of size {}", op, index, shown,
         size);
  }
  l.offset = offset_at(op, l, d, index < 0 ? index + size : index);
  for (int32_t i = d + 1; i < l.ndim; ++i) {
    l.shape[i - 1] = l.shape[i];
    l.strides[i - 1] = l.strides[i];
  }
  --l.ndim;
}

// A negative step makes a view of negative stride (Note [Views of negative stride]).
// An empty result keeps the input's offset: its start may lie past either end of the dim
// (before element 0 of a dim of negative stride, or past the last of one of huge stride), and
// an offset moved there could be negative or beyond 2^63-1 bytes. Keeping it makes every step
// of a basic index a valid view, so the key applied whole and one item at a time agree.
void take_slice(const char* op, Layout& l, int32_t d, const int64_t* start, const int64_t* end,
                int64_t step) {
  if (step == 0) fail(KF_INVALID_ARGUMENT, "{}: slice step cannot be zero", op);
  const SliceBounds b = slice_bounds(start, end, l.shape[d], step);
  if (b.length > 0) l.offset = offset_at(op, l, d, b.start);
  // The stride times step (PyTorch's) can overflow, in elements or in bytes, but only for a
  // result of at most one element, whose stride does not matter: the input's own is kept then,
  // and so it is for any result of at most one element (no negative stride on a dim that walks
  // nowhere). With two or more, it lies within the input's reach.
  int64_t stride = 0, bytes = 0;
  if (b.length > 1 && checked_mul(l.strides[d], step, &stride) &&
      checked_mul(stride, static_cast<int64_t>(l.itemsize), &bytes)) {
    l.strides[d] = stride;
  }
  l.shape[d] = b.length;
}

void insert_dim(const char* op, Layout& l, int32_t d) {
  if (l.ndim >= KF_MAX_NDIM) {
    fail(KF_INVALID_ARGUMENT, "{}: the result would have more than {} dims", op, KF_MAX_NDIM);
  }
  for (int32_t i = l.ndim; i > d; --i) {
    l.shape[i] = l.shape[i - 1];
    l.strides[i] = l.strides[i - 1];
  }
  // Any stride suits a size-1 dim; PyTorch's, unless it would not fit.
  if (d >= l.ndim || !checked_mul(l.shape[d + 1], l.strides[d + 1], &l.strides[d])) {
    l.strides[d] = 1;
  }
  l.shape[d] = 1;
  ++l.ndim;
}

void emit_layout(const char* op, const TensorImpl& base, const Layout& l, TensorRef* out) {
  emit_view(op, base, l.shape, l.strides, l.ndim, l.offset, out);
}

}  // namespace kf::views
