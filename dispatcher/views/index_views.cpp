// Views that reorder or index dims: transpose, permute, slice, select.
#include <utility>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "views/view_util.hpp"

namespace kf::views {
namespace {

void copy_dims(const TensorImpl& t, int64_t* shape, int64_t* strides) {
  for (int32_t i = 0; i < t.ndim; ++i) {
    shape[i] = t.shape[i];
    strides[i] = t.strides[i];
  }
}

// The storage offset of index `i` along dim d of t.
int64_t offset_at(const char* op, const TensorImpl& t, int32_t d, int64_t i) {
  int64_t step = 0, offset = 0;
  if (!checked_mul(i, t.strides[d], &step) || !checked_add(t.offset, step, &offset)) {
    fail(KF_INVALID_ARGUMENT, "{}: index {} of dim {} of the tensor of shape {} and strides {} "
         "is at an offset beyond 2^63-1", op, i, d, shape_string(t.shape, t.ndim),
         shape_string(t.strides, t.ndim));
  }
  return offset;
}

}  // namespace

void transpose(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  copy_dims(t, shape, strides);
  if (t.ndim > 0) {
    const int32_t d0 = wrap("transpose", a.int_arg(1), t.ndim);
    const int32_t d1 = wrap("transpose", a.int_arg(2), t.ndim);
    std::swap(shape[d0], shape[d1]);
    std::swap(strides[d0], strides[d1]);
  } else {
    wrap("transpose", a.int_arg(1), 0);
    wrap("transpose", a.int_arg(2), 0);
  }
  emit_view("transpose", t, shape, strides, t.ndim, t.offset, outs);
}

void permute(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  const int64_t* dims = a.ints(1).data;
  const int32_t n = a.ints(1).len;
  if (n != t.ndim) {
    fail(KF_INVALID_ARGUMENT, "permute: dims {} must list each of the input's {} dims once",
         shape_string(dims, n), t.ndim);
  }
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  bool seen[KF_MAX_NDIM] = {};
  for (int32_t i = 0; i < n; ++i) {
    const int32_t d = wrap("permute", dims[i], t.ndim);
    if (seen[d]) fail(KF_INVALID_ARGUMENT, "permute: dim {} appears twice in {}", d,
                      shape_string(dims, n));
    seen[d] = true;
    shape[i] = t.shape[d];
    strides[i] = t.strides[d];
  }
  emit_view("permute", t, shape, strides, n, t.offset, outs);
}

// Python's start and end of a slice along a dim of `size`, and its length: clamped to
// [0, size] for a positive step, to [-1, size - 1] for a negative one (-1: before element 0).
struct SliceBounds {
  int64_t start = 0, length = 0;
};

SliceBounds slice_bounds(const CallArgs& a, int64_t size, int64_t step) {
  const bool up = step > 0;
  int64_t start = a.none(2) ? (up ? 0 : size - 1) : a.int_arg(2);
  int64_t end = a.none(3) ? (up ? size : -1) : a.int_arg(3);
  if (!a.none(2) && start < 0) start += size;
  if (!a.none(3) && end < 0) end += size;
  const int64_t lo = up ? 0 : -1, hi = up ? size : size - 1;
  start = start < lo ? lo : (start > hi ? hi : start);
  end = end < lo ? lo : (end > hi ? hi : end);
  // The bounds lie in [-1, size], so the differences cannot overflow, nor -step be needed.
  if (up) return {start, end > start ? (end - start - 1) / step + 1 : 0};
  return {start, start > end ? (end - start + 1) / step + 1 : 0};
}

// A negative step makes a view of negative stride (Note [Views of negative stride]).
void slice(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  if (t.ndim == 0) fail(KF_INVALID_ARGUMENT, "slice: cannot slice a 0-dim tensor");
  const int32_t d = wrap("slice", a.int_arg(1), t.ndim);
  const int64_t size = t.shape[d], step = a.int_arg(4);
  if (step == 0) fail(KF_INVALID_ARGUMENT, "slice: step must not be zero");
  const SliceBounds b = slice_bounds(a, size, step);
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  copy_dims(t, shape, strides);
  shape[d] = b.length;
  // The stride times step (PyTorch's) can overflow, in elements or in bytes, but only for a
  // result of at most one element, whose stride does not matter: t's own is kept then, and so
  // it is for any result of at most one element (no negative stride on a dim that walks
  // nowhere). With two or more, it lies within t's reach.
  int64_t bytes = 0;
  if (b.length <= 1 || !checked_mul(t.strides[d], step, &strides[d]) ||
      !checked_mul(strides[d], static_cast<int64_t>(itemsize(t.dtype)), &bytes)) {
    strides[d] = t.strides[d];
  }
  const int64_t offset =
      b.length > 0 || step > 0 ? offset_at("slice", t, d, b.start) : t.offset;
  emit_view("slice", t, shape, strides, t.ndim, offset, outs);
}

void select(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  if (t.ndim == 0) fail(KF_INVALID_ARGUMENT, "select: cannot select from a 0-dim tensor");
  const int32_t d = wrap("select", a.int_arg(1), t.ndim);
  int64_t index = a.int_arg(2);
  if (index < -t.shape[d] || index >= t.shape[d]) {
    fail(KF_INVALID_ARGUMENT, "select: index {} is out of range for dim {} of size {}", index,
         d, t.shape[d]);
  }
  if (index < 0) index += t.shape[d];
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  int32_t nd = 0;
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (i == d) continue;
    shape[nd] = t.shape[i];
    strides[nd++] = t.strides[i];
  }
  emit_view("select", t, shape, strides, nd, offset_at("select", t, d, index), outs);
}

}  // namespace kf::views
