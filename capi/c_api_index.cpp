// Basic indexing in one call (C ABI 2.1): kf_tensor_index, kf_tensor_item_at and
// kf_tensor_fill_at (Note [The basic index] in views/basic_index.hpp).
#include <optional>

#include "capi/startup.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "dispatch/layers.hpp"
#include "dispatch/tensor_moves.hpp"
#include "views/basic_index.hpp"

namespace {

using kf::TensorImpl;
using kf::TensorRef;

// The key as one op per item, through the functionality layers (a profiler or autograd sees
// the views those ops make). The key is checked whole first, so its errors are the direct
// path's.
TensorRef index_by_ops(TensorImpl& t, const kf_index_item_t* items, int32_t count) {
  kf::views::key_layout("kf_tensor_index", t, items, count);
  kf::retain(&t);
  TensorRef cur(&t);
  kf::views::walk_key("kf_tensor_index", t.ndim, items, count,
                      [&](const kf_index_item_t& it, int32_t d, int32_t /*source*/) {
    if (it.kind == KF_INDEX_INT) {
      cur = kf::ops::select(*cur, d, it.index);
    } else if (it.kind == KF_INDEX_NEW_AXIS) {
      cur = kf::ops::unsqueeze(*cur, d);
    } else {
      cur = kf::ops::slice(*cur, d, it.has_start ? std::optional<int64_t>(it.start) : std::nullopt,
                           it.has_stop ? std::optional<int64_t>(it.stop) : std::nullopt, it.step);
    }
  });
  if (cur.get() != &t) return cur;
  return kf::ops::view(t, kf::IntListView(t.shape, t.ndim));  // a key of no item: all of t
}

// The 0-dim view of t's element at `index`: made by select ops where a layer acts on t, so
// that autograd follows a write into it back to t (Note [In-place ops on views]).
TensorRef element_view(TensorImpl& t, const int64_t* index, int32_t count, const char* fn) {
  const int64_t offset = kf::views::element_offset(fn, t, index, count);
  if (!kf::layers_act_on(t)) return TensorRef(kf::new_view(t, nullptr, nullptr, 0, offset, fn));
  kf::retain(&t);
  TensorRef cur(&t);
  for (int32_t d = 0; d < count; ++d) {
    const int64_t i = index[d] < 0 ? index[d] + t.shape[d] : index[d];
    cur = kf::ops::select(*cur, 0, i);
  }
  return cur;
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_tensor_index(kf_tensor_t t, const kf_index_item_t* items, int32_t count,
                                   kf_tensor_t* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_index");
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_index: out must not be NULL");
    if (kf::layers_act_on(x)) {
      *out = kf::handle_of(index_by_ops(x, items, count).take());
      return;
    }
    TensorRef view;
    kf::views::emit_layout("kf_tensor_index", x,
                           kf::views::key_layout("kf_tensor_index", x, items, count), &view);
    *out = kf::handle_of(view.take());
  });
}

KF_API kf_status_t kf_tensor_item_at(kf_tensor_t t, const int64_t* index, int32_t count,
                                     kf_scalar_t* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_item_at");
    if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_item_at: out must not be NULL");
    const int64_t offset = kf::views::element_offset("kf_tensor_item_at", x, index, count);
    const auto* base = static_cast<const unsigned char*>(kf::data_ptr(x));
    *out = kf::element_item(x, base + (offset - x.offset) * static_cast<int64_t>(
                                         kf::itemsize(x.dtype)));
  });
}

KF_API kf_status_t kf_tensor_fill_at(kf_tensor_t t, const int64_t* index, int32_t count,
                                     kf_scalar_t value) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_fill_at");
    kf::ensure_initialized();
    TensorRef element = element_view(x, index, count, "kf_tensor_fill_at");
    kf::ops::fill_(*element, value);
  });
}

}  // extern "C"
