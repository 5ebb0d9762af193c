// Views that reorder or index dims: transpose, permute, slice, select.
#include <utility>

#include "core/error.hpp"
#include "views/view_util.hpp"

namespace kf::views {
namespace {

TensorImpl& self_of(const kf_value_t* args) { return *args[0].v.tensor; }

void copy_dims(const TensorImpl& t, int64_t* shape, int64_t* strides) {
  for (int32_t i = 0; i < t.ndim; ++i) {
    shape[i] = t.shape[i];
    strides[i] = t.strides[i];
  }
}

}  // namespace

kf_status_t transpose(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
    copy_dims(t, shape, strides);
    if (t.ndim > 0) {
      const int32_t a = wrap("transpose", args[1].v.i, t.ndim);
      const int32_t b = wrap("transpose", args[2].v.i, t.ndim);
      std::swap(shape[a], shape[b]);
      std::swap(strides[a], strides[b]);
    } else {
      wrap("transpose", args[1].v.i, 0);
      wrap("transpose", args[2].v.i, 0);
    }
    emit_view(t, shape, strides, t.ndim, t.offset, &outs[0]);
  });
}

kf_status_t permute(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    const int64_t* dims = args[1].v.ints.data;
    const int32_t n = args[1].v.ints.len;
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
    emit_view(t, shape, strides, n, t.offset, &outs[0]);
  });
}

kf_status_t slice(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    if (t.ndim == 0) fail(KF_INVALID_ARGUMENT, "slice: cannot slice a 0-dim tensor");
    const int32_t d = wrap("slice", args[1].v.i, t.ndim);
    const int64_t size = t.shape[d], step = args[4].v.i;
    if (step <= 0) fail(KF_INVALID_ARGUMENT, "slice: step must be positive, got {}", step);
    int64_t start = args[2].tag == KF_VALUE_NONE ? 0 : args[2].v.i;
    int64_t end = args[3].tag == KF_VALUE_NONE ? size : args[3].v.i;
    if (start < 0) start += size;
    if (end < 0) end += size;
    start = start < 0 ? 0 : (start > size ? size : start);
    end = end < start ? start : (end > size ? size : end);
    int64_t shape[KF_MAX_NDIM], strides[KF_MAX_NDIM];
    copy_dims(t, shape, strides);
    shape[d] = (end - start + step - 1) / step;
    strides[d] = t.strides[d] * step;
    emit_view(t, shape, strides, t.ndim, t.offset + start * t.strides[d], &outs[0]);
  });
}

kf_status_t select(const kf_value_t* args, kf_tensor_t* outs) {
  return guard([&] {
    TensorImpl& t = self_of(args);
    if (t.ndim == 0) fail(KF_INVALID_ARGUMENT, "select: cannot select from a 0-dim tensor");
    const int32_t d = wrap("select", args[1].v.i, t.ndim);
    int64_t index = args[2].v.i;
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
    emit_view(t, shape, strides, nd, t.offset + index * t.strides[d], &outs[0]);
  });
}

}  // namespace kf::views
