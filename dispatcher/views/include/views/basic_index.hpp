// Note [The basic index]
// A basic key is what numpy answers with a view: ints, slices, new axes (None) and at most one
// ellipsis (kf_index_item_t). kf_tensor_index applies a whole key in one call: walk_key checks
// the key as a whole (known kinds, one ellipsis at most, no more ints and slices than dims) and
// then hands each item, in order, the dim it applies to; key_layout takes each item's step on
// one Layout (layout_steps.cpp, the steps of select, slice and unsqueeze themselves) and one
// view is made at the end. Where a functionality layer acts on the tensor (a profiler always;
// autograd when the tensor carries its data: layers_act_on), the C ABI runs the same walk as
// one op per item instead, so the layer sees the views the ops would make. The
// messages are the frontend's own (an index out of range, too many indices, a second ellipsis:
// KF_OUT_OF_RANGE, which Python raises as IndexError; a slice step of 0: KF_INVALID_ARGUMENT),
// so that the Python path of every other key (kernforge/_indexing.py) says the same.
// kf_tensor_item_at and kf_tensor_fill_at name one element by ints alone; element_offset is
// take_index's check for each dim, without a Layout.
#pragma once

#include <cstdint>

#include "kernforge/kernforge.h"
#include "tensor/tensor_impl.hpp"
#include "views/view_util.hpp"

namespace kf::views {

/// Checks `items` as a whole for a tensor of `ndim` dims; returns how many dims its ints and
/// slices take.
int32_t check_key(const char* fn, int32_t ndim, const kf_index_item_t* items, int32_t count);

/// Calls step(item, dim, source) for each item but the ellipsis, in key order, with the dim of
/// the partial result it applies to (an int removes that dim; a slice or new axis keeps it)
/// and the dim of the tensor it takes (for messages: `x[0, 5]` names dim 1).
template <class Step>
void walk_key(const char* fn, int32_t ndim, const kf_index_item_t* items, int32_t count,
              Step&& step) {
  const int32_t used = check_key(fn, ndim, items, count);
  int32_t d = 0, source = 0;
  for (int32_t i = 0; i < count; ++i) {
    const kf_index_item_t& it = items[i];
    if (it.kind == KF_INDEX_ELLIPSIS) {
      d += ndim - used;
      source += ndim - used;
    } else {
      step(it, d, source);
      if (it.kind != KF_INDEX_INT) ++d;
      if (it.kind != KF_INDEX_NEW_AXIS) ++source;
    }
  }
}

/// The layout of the view of t that the key names.
Layout key_layout(const char* fn, const TensorImpl& t, const kf_index_item_t* items,
                  int32_t count);

/// The storage offset of t's element at `index` (`count` must be t's ndim).
int64_t element_offset(const char* fn, const TensorImpl& t, const int64_t* index,
                       int32_t count);

}  // namespace kf::views
