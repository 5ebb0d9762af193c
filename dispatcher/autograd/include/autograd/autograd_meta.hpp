// What autograd keeps for one tensor, in TensorImpl::layer_data: whether it requires grad,
// its gradient, and the node that made it (none for a leaf).
#pragma once

#include <memory>

#include "autograd/node.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

struct AutogradMeta {
  bool requires_grad = false;   // a leaf the user marked
  bool is_view = false;         // made by a view op from a tensor that requires grad
  TensorRef grad;
  std::shared_ptr<Node> grad_fn;
  int32_t output_nr = 0;
  std::weak_ptr<AccumulateGrad> accumulator;  // a leaf's, while a graph holds it
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

/// The edge a gradient of t goes along: its grad_fn, or its leaf's accumulator.
Edge gradient_edge(TensorImpl& t);

}  // namespace kf::autograd
