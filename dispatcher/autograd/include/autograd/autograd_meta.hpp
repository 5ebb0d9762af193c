// What autograd keeps for one tensor, in TensorImpl::layer_data: whether it requires grad,
// its gradient, and the node that made it (none for a leaf).
#pragma once

#include <memory>

#include "autograd/node.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

struct ViewOf;  // autograd/view_of.hpp

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
