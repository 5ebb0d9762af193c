// Autograd through the C ABI (2.4): requires_grad, .grad, detach, backward, grad and grad
// mode; post-accumulate-grad hooks (2.9) (Note [The autograd layer] in
// dispatcher/autograd/autograd_layer.cpp).
#include <vector>

#include "autograd/autograd_layer.hpp"
#include "autograd/autograd_meta.hpp"
#include "autograd/engine.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/post_accumulate_hooks.hpp"
#include "capi/startup.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"

namespace {

using kf::TensorImpl;
using kf::TensorRef;
namespace ag = kf::autograd;

template <typename T>
void need(T* out, const char* fn, const char* what) {
  if (out == nullptr) kf::fail(KF_INVALID_ARGUMENT, "{}: {} must not be NULL", fn, what);
}

std::vector<TensorImpl*> tensors(const kf_tensor_t* list, int32_t count, const char* fn,
                                 const char* what, bool nulls) {
  if (count < 0 || (count > 0 && list == nullptr)) {
    kf::fail(KF_INVALID_ARGUMENT, "{}: {} must hold count ({}) tensors", fn, what, count);
  }
  std::vector<TensorImpl*> out(static_cast<size_t>(count), nullptr);
  for (int32_t i = 0; i < count && list != nullptr; ++i) {
    if (nulls && list[i] == nullptr) continue;
    out[static_cast<size_t>(i)] = &kf::checked(list[i], fn);
  }
  return out;
}

ag::BackwardOptions options(bool retain_graph, bool create_graph, bool allow_unused) {
  ag::BackwardOptions o;
  o.retain_graph = retain_graph || create_graph;
  o.create_graph = create_graph;
  o.allow_unused = allow_unused;
  return o;
}

kf_tensor_t new_handle(TensorImpl* t) {
  if (t == nullptr) return nullptr;
  kf::retain(t);
  return kf::handle_of(t);
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_tensor_set_requires_grad(kf_tensor_t t, bool requires_grad) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_set_requires_grad");
    const ag::AutogradMeta* m = ag::meta_of(x);
    if (m != nullptr && m->grad_fn) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_set_requires_grad: the tensor was made by '{}' "
               "from a tensor that requires grad, so it is not a leaf; detach it first",
               m->grad_fn->name());
    }
    if (requires_grad && !kf::is_inexact(x.dtype)) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_set_requires_grad: only floating-point and "
               "complex tensors can require grad, and this one is {}", kf::dtype_name(x.dtype));
    }
    if (!requires_grad && m == nullptr) return;
    ag::ensure_meta(x).requires_grad = requires_grad;
    if (requires_grad) ag::activate_layer();
  });
}

KF_API kf_status_t kf_tensor_requires_grad(kf_tensor_t t, bool* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_requires_grad");
    need(out, "kf_tensor_requires_grad", "out");
    *out = ag::requires_grad(x);
  });
}

KF_API kf_status_t kf_tensor_is_leaf(kf_tensor_t t, bool* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_is_leaf");
    need(out, "kf_tensor_is_leaf", "out");
    const ag::AutogradMeta* m = ag::meta_of(x);
    *out = m == nullptr || !m->grad_fn;
  });
}

KF_API kf_status_t kf_tensor_grad(kf_tensor_t t, kf_tensor_t* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_grad");
    need(out, "kf_tensor_grad", "out");
    const ag::AutogradMeta* m = ag::meta_of(x);
    *out = new_handle(m != nullptr ? m->grad.get() : nullptr);
  });
}

KF_API kf_status_t kf_tensor_set_grad(kf_tensor_t t, kf_tensor_t grad) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_set_grad");
    if (grad == nullptr) {
      if (ag::AutogradMeta* m = ag::meta_of(x)) m->grad.reset();
      return;
    }
    TensorImpl& g = kf::checked(grad, "kf_tensor_set_grad");
    bool same = g.ndim == x.ndim && g.dtype == x.dtype;
    for (int32_t i = 0; same && i < x.ndim; ++i) same = g.shape[i] == x.shape[i];
    if (!same) {
      kf::fail(KF_INVALID_ARGUMENT, "kf_tensor_set_grad: a gradient must have the tensor's "
               "shape and dtype ({} {}), not {} {}", kf::shape_string(x.shape, x.ndim),
               kf::dtype_name(x.dtype), kf::shape_string(g.shape, g.ndim),
               kf::dtype_name(g.dtype));
    }
    kf::retain(&g);
    ag::ensure_meta(x).grad = TensorRef(&g);
  });
}

KF_API kf_status_t kf_tensor_detach(kf_tensor_t t, kf_tensor_t* out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_detach");
    need(out, "kf_tensor_detach", "out");
    *out = kf::handle_of(kf::new_view(x, x.shape, x.strides, x.ndim, x.offset,
                                      "kf_tensor_detach"));
  });
}

KF_API kf_status_t kf_tensor_grad_fn_name(kf_tensor_t t, const char** out) {
  return kf::guard([&] {
    TensorImpl& x = kf::checked(t, "kf_tensor_grad_fn_name");
    need(out, "kf_tensor_grad_fn_name", "out");
    const ag::AutogradMeta* m = ag::meta_of(x);
    *out = m != nullptr && m->grad_fn ? m->grad_fn->name() : nullptr;
  });
}

KF_API kf_status_t kf_backward(const kf_tensor_t* outputs, const kf_tensor_t* grad_outputs,
                               int32_t count, bool retain_graph, bool create_graph) {
  return kf::guard([&] {
    kf::ensure_initialized();
    const auto outs = tensors(outputs, count, "kf_backward", "outputs", false);
    const auto grads = grad_outputs != nullptr
                           ? tensors(grad_outputs, count, "kf_backward", "grad_outputs", true)
                           : std::vector<TensorImpl*>{};
    ag::backward(outs, grads, options(retain_graph, create_graph, false));
  });
}

KF_API kf_status_t kf_autograd_grad(const kf_tensor_t* outputs, const kf_tensor_t* grad_outputs,
                                    int32_t output_count, const kf_tensor_t* inputs,
                                    int32_t input_count, bool retain_graph, bool create_graph,
                                    bool allow_unused, kf_tensor_t* grads_out) {
  return kf::guard([&] {
    kf::ensure_initialized();
    need(grads_out, "kf_autograd_grad", "grads_out");
    const auto outs = tensors(outputs, output_count, "kf_autograd_grad", "outputs", false);
    const auto grads = grad_outputs != nullptr ? tensors(grad_outputs, output_count,
                                                         "kf_autograd_grad", "grad_outputs", true)
                                               : std::vector<TensorImpl*>{};
    const auto ins = tensors(inputs, input_count, "kf_autograd_grad", "inputs", false);
    std::vector<TensorRef> result =
        ag::grad(outs, grads, ins, options(retain_graph, create_graph, allow_unused));
    for (size_t i = 0; i < result.size(); ++i) grads_out[i] = kf::handle_of(result[i].take());
  });
}

KF_API kf_status_t kf_set_grad_enabled(bool enabled, bool* previous) {
  return kf::guard([&] {
    if (previous != nullptr) *previous = ag::grad_enabled();
    ag::set_grad_enabled(enabled);
  });
}

KF_API kf_status_t kf_tensor_register_post_accumulate_grad_hook(
    kf_tensor_t leaf, kf_post_accumulate_grad_hook_fn fn, void* user_data,
    kf_hook_release_fn release, uint64_t* out_handle) {
  return kf::guard([&] {
    const char* name = "kf_tensor_register_post_accumulate_grad_hook";
    TensorImpl& x = kf::checked(leaf, name);
    need(fn, name, "fn");
    need(out_handle, name, "out_handle");
    const ag::AutogradMeta* m = ag::meta_of(x);
    if (m != nullptr && m->grad_fn) {
      kf::fail(KF_INVALID_ARGUMENT, "{}: the tensor was made by '{}', so it is not a leaf and "
               "has no .grad to accumulate; register the hook on the leaf it was computed from",
               name, m->grad_fn->name());
    }
    if (m == nullptr || !m->requires_grad) {
      kf::fail(KF_INVALID_ARGUMENT, "{}: the tensor does not require grad, so backward never "
               "accumulates its .grad; kf_tensor_set_requires_grad it first", name);
    }
    *out_handle = ag::add_post_accumulate_hook(x, fn, user_data, release);
  });
}

KF_API kf_status_t kf_tensor_remove_post_accumulate_grad_hook(kf_tensor_t leaf,
                                                              uint64_t handle) {
  return kf::guard([&] {
    ag::remove_post_accumulate_hook(
        kf::checked(leaf, "kf_tensor_remove_post_accumulate_grad_hook"), handle);
  });
}

KF_API kf_status_t kf_is_grad_enabled(bool* out) {
  return kf::guard([&] {
    need(out, "kf_is_grad_enabled", "out");
    *out = ag::grad_enabled();
  });
}

}  // extern "C"
