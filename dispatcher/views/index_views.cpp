// Views that reorder or index dims: transpose, permute, diagonal, slice, select.
#include <algorithm>
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

// The diagonal of dims d1 and d2: they go, and a last dim of stride s1 + s2 comes, with
// element k at [k, k + offset] (offset >= 0) or [k - offset, k] of the two.
void diagonal(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  if (t.ndim < 2) {
    fail(KF_INVALID_ARGUMENT, "diagonal: the input needs at least 2 dims, got shape {}",
         shape_string(t.shape, t.ndim));
  }
  const int32_t d1 = wrap("diagonal", a.int_arg(2), t.ndim);
  const int32_t d2 = wrap("diagonal", a.int_arg(3), t.ndim);
  if (d1 == d2) {
    fail(KF_INVALID_ARGUMENT, "diagonal: dim1 and dim2 are both dim {}; give two different dims",
         d1);
  }
  const int64_t offset = a.int_arg(1);
  const int64_t rows = t.shape[d1], cols = t.shape[d2];
  int64_t size = 0, start = t.offset;
  if (offset >= 0 && offset < cols) {
    size = std::min(rows, cols - offset);
    start += offset * t.strides[d2];
  } else if (offset < 0 && -offset < rows) {
    size = std::min(rows + offset, cols);
    start -= offset * t.strides[d1];
  }
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  int32_t n = 0;
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (i == d1 || i == d2) continue;
    shape[n] = t.shape[i];
    strides[n++] = t.strides[i];
  }
  shape[n] = size;
  strides[n++] = t.strides[d1] + t.strides[d2];
  emit_view("diagonal", t, shape, strides, n, size > 0 ? start : t.offset, outs);
}

// A negative step makes a view of negative stride (Note [Views of negative stride]).
void slice(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  if (t.ndim == 0) fail(KF_INVALID_ARGUMENT, "slice: cannot slice a 0-dim tensor");
  Layout l(t);
  const int64_t start = a.none(2) ? 0 : a.int_arg(2), end = a.none(3) ? 0 : a.int_arg(3);
  take_slice("slice", l, wrap("slice", a.int_arg(1), t.ndim), a.none(2) ? nullptr : &start,
             a.none(3) ? nullptr : &end, a.int_arg(4));
  emit_layout("slice", t, l, outs);
}

void select(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  if (t.ndim == 0) fail(KF_INVALID_ARGUMENT, "select: cannot select from a 0-dim tensor");
  Layout l(t);
  take_index("select", l, wrap("select", a.int_arg(1), t.ndim), a.int_arg(2));
  emit_layout("select", t, l, outs);
}

}  // namespace kf::views
