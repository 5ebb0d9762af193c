// Views that reorder or index dims: transpose, permute, slice, select.
#include <utility>

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
  emit_view(t, shape, strides, t.ndim, t.offset, outs);
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
  emit_view(t, shape, strides, n, t.offset, outs);
}

void slice(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  if (t.ndim == 0) fail(KF_INVALID_ARGUMENT, "slice: cannot slice a 0-dim tensor");
  const int32_t d = wrap("slice", a.int_arg(1), t.ndim);
  const int64_t size = t.shape[d], step = a.int_arg(4);
  if (step <= 0) fail(KF_INVALID_ARGUMENT, "slice: step must be positive, got {}", step);
  int64_t start = a.none(2) ? 0 : a.int_arg(2);
  int64_t end = a.none(3) ? size : a.int_arg(3);
  if (start < 0) start += size;
  if (end < 0) end += size;
  start = start < 0 ? 0 : (start > size ? size : start);
  end = end < start ? start : (end > size ? size : end);
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  copy_dims(t, shape, strides);
  // Without overflow for any step: with two or more elements, step and start stay below size,
  // so their products with the stride stay inside the tensor's extent.
  const int64_t n = end - start;
  shape[d] = n == 0 ? 0 : (n - 1) / step + 1;
  strides[d] = shape[d] > 1 ? t.strides[d] * step : t.strides[d];
  emit_view(t, shape, strides, t.ndim, n == 0 ? t.offset : t.offset + start * t.strides[d], outs);
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
  emit_view(t, shape, strides, nd, t.offset + index * t.strides[d], outs);
}

}  // namespace kf::views
