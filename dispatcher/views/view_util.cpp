#include "views/view_util.hpp"

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::views {

void infer_size(const char* op, const int64_t* shape, int32_t ndim, int64_t numel,
                int64_t* out) {
  int32_t infer = -1;
  int64_t known = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    out[i] = shape[i];
    if (shape[i] == -1) {
      if (infer >= 0) fail(KF_INVALID_ARGUMENT, "{}: only one dim can be -1, got {}", op,
                           shape_string(shape, ndim));
      infer = i;
    } else if (shape[i] < 0) {
      fail(KF_INVALID_ARGUMENT, "{}: invalid size {} at dim {} of {}", op, shape[i], i,
           shape_string(shape, ndim));
    } else if (!checked_mul(known, shape[i], &known)) {
      fail(KF_INVALID_ARGUMENT, "{}: shape {} has too many elements (more than 2^63-1)", op,
           shape_string(shape, ndim));
    }
  }
  if (infer >= 0 && known != 0 && numel % known == 0) out[infer] = numel / known;
  if ((infer >= 0 && known != 0 && numel % known == 0) || (infer < 0 && known == numel)) {
    checked_numel(out, ndim, op);  // a size 0 hides no overflowing stride (Note [Layout rules])
    return;
  }
  fail(KF_INVALID_ARGUMENT, "{}: shape {} is invalid for an input of {} elements", op,
       shape_string(shape, ndim), numel);
}

bool view_strides(const TensorImpl& t, const int64_t* shape, int32_t ndim, int64_t* strides) {
  if (t.numel == 0 || t.ndim == 0) {
    contiguous_strides(shape, ndim, strides);
    return true;
  }
  // Walk the old dims in chunks of mutually contiguous dims; each chunk must map onto a run of
  // new dims with the same number of elements.
  int32_t view_d = ndim - 1;
  int64_t chunk_base_stride = t.strides[t.ndim - 1];
  int64_t tensor_numel = 1, view_numel = 1;
  for (int32_t d = t.ndim - 1; d >= 0; --d) {
    tensor_numel *= t.shape[d];  // fits: t is valid (Note [Layout rules])
    int64_t chunk_stride = 0;
    const bool chunk_end =
        d == 0 || (t.shape[d - 1] != 1 &&
                   (!checked_mul(tensor_numel, chunk_base_stride, &chunk_stride) ||
                    t.strides[d - 1] != chunk_stride));
    if (!chunk_end) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
      if (!checked_mul(view_numel, chunk_base_stride, &strides[view_d]) ||
          !checked_mul(view_numel, shape[view_d], &view_numel)) {
        return false;
      }
      --view_d;
    }
    if (view_numel != tensor_numel) return false;
    if (d > 0) {
      chunk_base_stride = t.strides[d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  return view_d == -1;
}

void emit_view(const char* op, const TensorImpl& base, const int64_t* shape,
               const int64_t* strides, int32_t ndim, int64_t offset, TensorRef* out) {
  *out = TensorRef(new_view(base, shape, strides, ndim, offset, op));
}

int32_t wrap(const char* op, int64_t dim, int32_t ndim) { return meta::wrap_dim(op, dim, ndim); }

}  // namespace kf::views
