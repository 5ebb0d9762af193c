// Composite shape ops: cat and stack (one allocated output, each input copied into its slice
// with kf::ops::copy_, which converts to the promoted dtype; where an input carries layer data
// (autograd's), added into zeros with index_add_ instead, which records the input's gradient:
// autograd does not follow an in-place write into a view back to its base) and embedding
// (index_select over the flattened indices). Composites without a meta rule: the checks are
// here. Every input of cat and stack must be on one device; errors name the input's position
// and its shape.
#include <vector>

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "meta/meta_util.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {
namespace {

/// The tensors of Tensor[] argument i, decoded and on one device; at least one.
std::vector<TensorImpl*> tensor_list(const CallArgs& a, int32_t i) {
  const auto& list = a.v[i].v.tensors;
  if (list.len == 0) fail(KF_INVALID_ARGUMENT, "{}: expected a non-empty list of tensors", a.name());
  std::vector<TensorImpl*> ts(static_cast<size_t>(list.len));
  for (int32_t k = 0; k < list.len; ++k) {
    ts[k] = find_tensor(list.data[k]);
    if (ts[k] == nullptr) {
      fail(KF_INVALID_ARGUMENT, "{}: tensor {} of the list: handle {}", a.name(), k,
           tensor_handle_problem(list.data[k]));
    }
    if (ts[k]->device != ts[0]->device) {
      fail(KF_INVALID_ARGUMENT, "{}: tensor {} is on {} but tensor 0 is on {}; every input must "
           "be on one device", a.name(), k, device_string(ts[k]->device),
           device_string(ts[0]->device));
    }
  }
  return ts;
}

std::string shape_of(const TensorImpl& t) { return shape_string(t.shape, t.ndim); }

bool any_layer_data(const std::vector<TensorImpl*>& ts) {
  for (const TensorImpl* t : ts) {
    if (t->layer_data != nullptr) return true;
  }
  return false;
}

// The output of cat or stack: zeros where the parts are added in (recorded), else uninitialised.
TensorRef make_output(const std::vector<int64_t>& shape, kf_dtype_t dtype, kf_device_t device,
                      bool recorded) {
  const IntListView s(shape.data(), static_cast<int32_t>(shape.size()));
  if (recorded) return ops::zeros(s, dtype, device);
  return TensorRef(new_tensor(shape.data(), static_cast<int32_t>(shape.size()), dtype, device));
}

// t written into entries [offset, offset + t.shape[dim]) of out along dim.
void place(TensorImpl& out, int32_t dim, int64_t offset, TensorImpl& t, bool recorded) {
  const int64_t n = t.shape[dim];
  if (!recorded) {
    ops::copy_(*ops::slice(out, dim, offset, offset + n, 1), t);
    return;
  }
  TensorRef index = ops::arange(kf_scalar_i64(offset), kf_scalar_i64(offset + n),
                                kf_scalar_i64(1), KF_INT64, out.device);
  if (t.dtype != out.dtype) {
    ops::index_add_(out, dim, *index, *ops::to_dtype(t, out.dtype));
  } else {
    ops::index_add_(out, dim, *index, t);
  }
}

// PyTorch's legacy rule: a 1-D tensor of size 0 takes no part in cat's shape checks.
bool skipped_in_cat(const TensorImpl& t) { return t.ndim == 1 && t.shape[0] == 0; }

void check_cat_shape(const TensorImpl& ref, size_t ref_k, const TensorImpl& t, size_t k,
                     int32_t dim) {
  if (t.ndim != ref.ndim) {
    fail(KF_INVALID_ARGUMENT, "cat: tensor {} has {} dims (shape {}) but tensor {} has {} "
         "(shape {}); all must have the same number of dims", k, t.ndim, shape_of(t), ref_k,
         ref.ndim, shape_of(ref));
  }
  for (int32_t d = 0; d < t.ndim; ++d) {
    if (d != dim && t.shape[d] != ref.shape[d]) {
      fail(KF_INVALID_ARGUMENT, "cat: sizes of tensors must match except in dim {}: tensor {} "
           "has shape {} but tensor {} has shape {} (size {} vs {} at dim {})", dim, k,
           shape_of(t), ref_k, shape_of(ref), t.shape[d], ref.shape[d], d);
    }
  }
}

}  // namespace

void cat(const CallArgs& a, TensorRef* outs) {
  const std::vector<TensorImpl*> ts = tensor_list(a, 0);
  const kf_dtype_t dtype =
      meta::result_type(a.name(), ts.data(), static_cast<int32_t>(ts.size()));
  size_t ref = ts.size();
  for (size_t k = 0; k < ts.size(); ++k) {
    if (ts[k]->ndim == 0) {
      fail(KF_INVALID_ARGUMENT, "cat: tensor {} is 0-dim; zero-dimensional tensors cannot be "
           "concatenated (unsqueeze them first, or use stack)", k);
    }
    if (ref == ts.size() && !skipped_in_cat(*ts[k])) ref = k;
  }
  const kf_device_t device = ts[0]->device;
  if (ref == ts.size()) {  // only 1-D empty tensors: an empty 1-D result
    const int64_t zero = 0;
    outs[0] = TensorRef(new_tensor(&zero, 1, dtype, device));
    return;
  }
  const TensorImpl& r = *ts[ref];
  const int32_t dim = meta::wrap_dim("cat", a.int_arg(1), r.ndim);
  int64_t total = 0;
  for (size_t k = 0; k < ts.size(); ++k) {
    if (skipped_in_cat(*ts[k])) continue;
    check_cat_shape(r, ref, *ts[k], k, dim);
    total += ts[k]->shape[dim];
  }
  std::vector<int64_t> shape(r.shape, r.shape + r.ndim);
  shape[dim] = total;
  const bool recorded = any_layer_data(ts);
  TensorRef out = make_output(shape, dtype, device, recorded);
  int64_t offset = 0;
  for (TensorImpl* t : ts) {
    if (skipped_in_cat(*t) || t->shape[dim] == 0) continue;
    place(*out, dim, offset, *t, recorded);
    offset += t->shape[dim];
  }
  outs[0] = std::move(out);
}

void stack(const CallArgs& a, TensorRef* outs) {
  const std::vector<TensorImpl*> ts = tensor_list(a, 0);
  const kf_dtype_t dtype =
      meta::result_type(a.name(), ts.data(), static_cast<int32_t>(ts.size()));
  const TensorImpl& r = *ts[0];
  for (size_t k = 1; k < ts.size(); ++k) {
    const TensorImpl& t = *ts[k];
    bool same = t.ndim == r.ndim;
    for (int32_t d = 0; same && d < t.ndim; ++d) same = t.shape[d] == r.shape[d];
    if (!same) {
      fail(KF_INVALID_ARGUMENT, "stack: every tensor must have one shape: tensor 0 has shape "
           "{} but tensor {} has shape {}", shape_of(r), k, shape_of(t));
    }
  }
  const int32_t dim = meta::wrap_dim("stack", a.int_arg(1), r.ndim + 1);
  std::vector<int64_t> shape(r.shape, r.shape + r.ndim);
  shape.insert(shape.begin() + dim, static_cast<int64_t>(ts.size()));
  const bool recorded = any_layer_data(ts);
  TensorRef out = make_output(shape, dtype, r.device, recorded);
  for (size_t k = 0; k < ts.size(); ++k) {
    place(*out, dim, static_cast<int64_t>(k), *ops::unsqueeze(*ts[k], dim), recorded);
  }
  outs[0] = std::move(out);
}

void embedding(const CallArgs& a, TensorRef* outs) {
  TensorImpl& weight = a.tensor(0);
  TensorImpl& indices = a.tensor(1);
  if (weight.ndim != 2) {
    fail(KF_INVALID_ARGUMENT, "embedding: weight must be 2-D, got {} dims (shape {})",
         weight.ndim, shape_of(weight));
  }
  if (indices.dtype != KF_INT64 && indices.dtype != KF_INT32) {
    fail(KF_INVALID_ARGUMENT, "embedding: indices must be int64 or int32, got {}",
         dtype_name(indices.dtype));
  }
  std::vector<int64_t> shape(indices.shape, indices.shape + indices.ndim);
  shape.push_back(weight.shape[1]);
  try {
    TensorRef flat = ops::reshape(indices, {-1});
    TensorRef rows = ops::index_select(weight, 0, *flat);
    outs[0] = ops::reshape(*rows, shape);
  } catch (const Error& e) {
    fail(e.status(), "embedding: {}", e.what());
  }
}

}  // namespace kf::composite
