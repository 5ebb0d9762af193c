// A basic key in one view (Note [The basic index] in views/basic_index.hpp).
#include "views/basic_index.hpp"

#include "core/error.hpp"

namespace kf::views {

int32_t check_key(const char* fn, int32_t ndim, const kf_index_item_t* items, int32_t count) {
  if (count < 0 || (count > 0 && items == nullptr)) {
    fail(KF_INVALID_ARGUMENT, "{}: {} items at {}", fn, count, static_cast<const void*>(items));
  }
  int32_t used = 0, ellipses = 0;
  for (int32_t i = 0; i < count; ++i) {
    switch (items[i].kind) {
      case KF_INDEX_INT:
      case KF_INDEX_SLICE:
        ++used;
        break;
      case KF_INDEX_ELLIPSIS:
        ++ellipses;
        break;
      case KF_INDEX_NEW_AXIS:
        break;
      default:
        fail(KF_INVALID_ARGUMENT, "{}: item {} has kind {}, which is not a kf_index_kind_t (0 "
             "int, 1 slice, 2 new axis, 3 ellipsis)", fn, i, items[i].kind);
    }
  }
  if (ellipses > 1) {
    fail(KF_OUT_OF_RANGE, "{}: an index can only have a single ellipsis ('...')", fn);
  }
  if (used > ndim) {
    fail(KF_OUT_OF_RANGE, "{}: too many indices for a tensor of {} dims: {} given", fn, ndim,
         used);
  }
  return used;
}

Layout key_layout(const char* fn, const TensorImpl& t, const kf_index_item_t* items,
                  int32_t count) {
  Layout l(t);
  walk_key(fn, t.ndim, items, count, [&](const kf_index_item_t& it, int32_t d, int32_t source) {
    if (it.kind == KF_INDEX_INT) return take_index(fn, l, d, it.index, source);
    if (it.kind == KF_INDEX_NEW_AXIS) return insert_dim(fn, l, d);
    take_slice(fn, l, d, it.has_start ? &it.start : nullptr, it.has_stop ? &it.stop : nullptr,
               it.step);
  });
  return l;
}

int64_t element_offset(const char* fn, const TensorImpl& t, const int64_t* index,
                       int32_t count) {
  if (count != t.ndim) {
    fail(KF_OUT_OF_RANGE, "{}: {} indices for a tensor of {} dims; one element needs one index "
         "per dim", fn, count, t.ndim);
  }
  if (count > 0 && index == nullptr) fail(KF_INVALID_ARGUMENT, "{}: index is NULL", fn);
  Layout l(t);
  for (int32_t d = 0; d < count; ++d) {  // in key order: take_index names the first bad one
    if (index[d] < -t.shape[d] || index[d] >= t.shape[d]) take_index(fn, l, d, index[d]);
  }
  for (int32_t d = count - 1; d >= 0; --d) take_index(fn, l, d, index[d]);  // no dim moves
  return l.offset;
}

}  // namespace kf::views
