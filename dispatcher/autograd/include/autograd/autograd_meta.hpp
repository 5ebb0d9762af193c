// What autograd keeps for one tensor, in TensorImpl::layer_data: whether it requires grad,
// its gradient, and the node that made it (none for a leaf).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "autograd/node.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

struct ViewOf;  // autograd/view_of.hpp

/// A function the engine calls right after it accumulated a leaf's .grad in a backward
/// (kf_tensor_register_post_accumulate_grad_hook); `release` (if set) gets user_data when the
/// hook is removed or its leaf freed.
struct PostAccumulateHook {
  uint64_t id = 0;
  kf_post_accumulate_grad_hook_fn fn = nullptr;
  void* user_data = nullptr;
  kf_hook_release_fn release = nullptr;
  bool removed = false;  // by a hook the engine called before it in the same list
  PostAccumulateHook() = default;
  PostAccumulateHook(const PostAccumulateHook&) = delete;
  PostAccumulateHook& operator=(const PostAccumulateHook&) = delete;
  ~PostAccumulateHook() {
    if (release != nullptr) release(user_data);
  }
};

struct AutogradMeta {
  bool requires_grad = false;   // a leaf the user marked
  TensorRef grad;
  std::shared_ptr<Node> grad_fn;
  int32_t output_nr = 0;
  std::weak_ptr<AccumulateGrad> accumulator;  // a leaf's, while a graph holds it
  /// Made by a view op from a tensor that requires grad: its base and view ops (Note [In-place
  /// ops on views]).
  std::shared_ptr<const ViewOf> view;
  /// A base: how many times an in-place op gave it a new history; a view: the base's count
  /// that its grad_fn follows (an older one is made again from the base's new history).
  uint32_t history = 0;
  /// A leaf's post-accumulate-grad hooks, in the order registered (shared: a hook removed while
  /// the engine calls the list lives until the call returns).
  std::vector<std::shared_ptr<PostAccumulateHook>> post_accumulate_hooks;
};

/// The tensor's data, or nullptr.
inline AutogradMeta* meta_of(const TensorImpl& t) noexcept {
  return static_cast<AutogradMeta*>(t.layer_data);
}
/// The tensor's data, made on first use (and autograd's release hook installed).
AutogradMeta& ensure_meta(TensorImpl& t);

/// Whether gradients flow to t: a leaf marked requires_grad or the output of a recorded call.
inline bool requires_grad(const TensorImpl& t) noexcept {
  const AutogradMeta* m = meta_of(t);
  return m != nullptr && (m->requires_grad || m->grad_fn);
}

/// Makes t, a new tensor outside the graph, a tensor of the graph without history (a grad_fn
/// with no edges), where grad mode is on and `value`, which is to be written into views of t,
/// requires grad: those writes then give t a history (Note [In-place ops on views]), where they
/// would give only the views one. What a formula's zeros need under create_graph.
void follow_writes(TensorImpl& t, const TensorImpl& value);

/// The edge a gradient of t goes along: its grad_fn (a view's made again first where its base
/// has a new history), or its leaf's accumulator.
Edge gradient_edge(TensorImpl& t);

}  // namespace kf::autograd
