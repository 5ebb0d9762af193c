// Views that change the shape: reshape, view, flatten, squeeze, unsqueeze, expand.
#include "core/error.hpp"
#include "dispatch/internal_ops.hpp"
#include "views/view_util.hpp"

namespace kf::views {
namespace {

TensorImpl& self_of(const kf_value_t* args) { return *args[0].v.tensor; }

// reshape/flatten: a view when the strides allow it, otherwise a view of a contiguous copy.
void reshape_to(TensorImpl& t, const int64_t* shape, int32_t ndim, kf_tensor_t* out) {
  int64_t strides[KF_MAX_NDIM];
  if (view_strides(t, shape, ndim, strides)) return emit_view(t, shape, strides, ndim, t.offset, out);
  TensorRef copy(op_contiguous(t));
  contiguous_strides(shape, ndim, strides);
  emit_view(*copy, shape, strides, ndim, copy->offset, out);
}

}  // namespace

kf_status_t reshape(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    int64_t shape[KF_MAX_NDIM];
    infer_size("reshape", args[1].v.ints.data, args[1].v.ints.len, t.numel, shape);
    reshape_to(t, shape, args[1].v.ints.len, &outs[0]);
  });
}

kf_status_t view(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    const int32_t nd = args[1].v.ints.len;
    int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
    infer_size("view", args[1].v.ints.data, nd, t.numel, shape);
    if (!view_strides(t, shape, nd, strides)) {
      fail(KF_INVALID_ARGUMENT,
           "view: size {} is not compatible with the input's shape {} and strides {} (at least "
           "one dim spans non-contiguous memory); use reshape, which copies when needed",
           shape_string(shape, nd), shape_string(t.shape, t.ndim),
           shape_string(t.strides, t.ndim));
    }
    emit_view(t, shape, strides, nd, t.offset, &outs[0]);
  });
}

kf_status_t flatten(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    if (t.ndim == 0) {
      const int64_t one = 1;
      return reshape_to(t, &one, 1, &outs[0]);
    }
    const int32_t s = wrap("flatten", args[1].v.i, t.ndim), e = wrap("flatten", args[2].v.i, t.ndim);
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
    reshape_to(t, shape, nd, &outs[0]);
  });
}

kf_status_t squeeze(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    bool drop[KF_MAX_NDIM] = {};
    if (args[1].tag == KF_VALUE_NONE) {
      for (int32_t i = 0; i < t.ndim; ++i) drop[i] = t.shape[i] == 1;
    } else {
      for (int32_t k = 0; k < args[1].v.ints.len; ++k) {
        const int32_t d = wrap("squeeze", args[1].v.ints.data[k], t.ndim);
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
    emit_view(t, shape, strides, nd, t.offset, &outs[0]);
  });
}

kf_status_t unsqueeze(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    if (t.ndim >= KF_MAX_NDIM) {
      fail(KF_INVALID_ARGUMENT, "unsqueeze: the result would have more than {} dims", KF_MAX_NDIM);
    }
    const int32_t d = wrap("unsqueeze", args[1].v.i, t.ndim + 1);
    int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
    for (int32_t i = 0, j = 0; i <= t.ndim; ++i) {
      if (i == d) {
        shape[i] = 1;
        strides[i] = d < t.ndim ? t.shape[d] * t.strides[d] : 1;
      } else {
        shape[i] = t.shape[j];
        strides[i] = t.strides[j++];
      }
    }
    emit_view(t, shape, strides, t.ndim + 1, t.offset, &outs[0]);
  });
}

kf_status_t expand(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    const int64_t* size = args[1].v.ints.data;
    const int32_t nd = args[1].v.ints.len;
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
    emit_view(t, shape, strides, nd, t.offset, &outs[0]);
  });
}

}  // namespace kf::views
