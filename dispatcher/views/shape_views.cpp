// Views that change the shape: reshape, view, flatten, squeeze, unsqueeze, expand.
#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "views/view_util.hpp"

namespace kf::views {
namespace {

// reshape/flatten: a view when the strides allow it, otherwise a view of a contiguous copy.
void reshape_to(const char* op, TensorImpl& t, const int64_t* shape, int32_t ndim,
                TensorRef* out) {
  int64_t strides[KF_MAX_NDIM];
  if (view_strides(t, shape, ndim, strides)) {
    return emit_view(op, t, shape, strides, ndim, t.offset, out);
  }
  TensorRef copy = ops::contiguous(t);
  contiguous_strides(shape, ndim, strides);
  emit_view(op, *copy, shape, strides, ndim, copy->offset, out);
}

}  // namespace

void reshape(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  int64_t shape[KF_MAX_NDIM];
  infer_size("reshape", a.ints(1).data, a.ints(1).len, t.numel, shape);
  reshape_to("reshape", t, shape, a.ints(1).len, outs);
}

void view(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  const int32_t nd = a.ints(1).len;
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  infer_size("view", a.ints(1).data, nd, t.numel, shape);
  if (!view_strides(t, shape, nd, strides)) {
    fail(KF_INVALID_ARGUMENT,
         "view: size {} is not compatible with the input's shape {} and strides {} (at least "
         "one dim spans non-contiguous memory); use reshape, which copies when needed",
         shape_string(shape, nd), shape_string(t.shape, t.ndim),
         shape_string(t.strides, t.ndim));
  }
  emit_view("view", t, shape, strides, nd, t.offset, outs);
}

void flatten(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  if (t.ndim == 0) {
    const int64_t one = 1;
    return reshape_to("flatten", t, &one, 1, outs);
  }
  const int32_t s = wrap("flatten", a.int_arg(1), t.ndim);
  const int32_t e = wrap("flatten", a.int_arg(2), t.ndim);
  if (s > e) {
    fail(KF_INVALID_ARGUMENT, "flatten: start_dim {} comes after end_dim {}", s, e);
  }
  int64_t shape[KF_MAX_NDIM];
  int32_t nd = 0;
  for (int32_t i = 0; i < s; ++i) shape[nd++] = t.shape[i];
  int64_t merged = 1;
  for (int32_t i = s; i <= e; ++i) merged *= t.shape[i];
  shape[nd++] = merged;
  for (int32_t i = e + 1; i < t.ndim; ++i) shape[nd++] = t.shape[i];
  reshape_to("flatten", t, shape, nd, outs);
}

void squeeze(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  bool drop[KF_MAX_NDIM] = {};
  if (a.none(1)) {
    for (int32_t i = 0; i < t.ndim; ++i) drop[i] = t.shape[i] == 1;
  } else {
    for (int32_t k = 0; k < a.ints(1).len; ++k) {
      const int32_t d = wrap("squeeze", a.ints(1).data[k], t.ndim);
      if (t.ndim > 0) drop[d] = t.shape[d] == 1;
    }
  }
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  int32_t nd = 0;
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (drop[i]) continue;
    shape[nd] = t.shape[i];
    strides[nd++] = t.strides[i];
  }
  emit_view("squeeze", t, shape, strides, nd, t.offset, outs);
}

void unsqueeze(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  Layout l(t);
  insert_dim("unsqueeze", l, wrap("unsqueeze", a.int_arg(1), t.ndim + 1));
  emit_layout("unsqueeze", t, l, outs);
}

void expand(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  const int64_t* size = a.ints(1).data;
  const int32_t nd = a.ints(1).len;
  if (nd < t.ndim) {
    fail(KF_INVALID_ARGUMENT, "expand: size {} has fewer dims than the input's shape {}",
         shape_string(size, nd), shape_string(t.shape, t.ndim));
  }
  int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
  for (int32_t i = 0; i < nd; ++i) {
    const int32_t j = i - (nd - t.ndim);
    const int64_t have = j >= 0 ? t.shape[j] : 1;
    const int64_t want = size[i] == -1 && j >= 0 ? have : size[i];
    if (want < 0 || (have != want && have != 1)) {
      fail(KF_INVALID_ARGUMENT,
           "expand: cannot expand shape {} to {}: size {} at dim {} must be {} or the input's "
           "size must be 1", shape_string(t.shape, t.ndim), shape_string(size, nd), size[i],
           i, have);
    }
    shape[i] = want;
    strides[i] = j < 0 || (have == 1 && want != 1) ? 0 : t.strides[j];
  }
  emit_view("expand", t, shape, strides, nd, t.offset, outs);
}

}  // namespace kf::views
