// The backward engine: walks the graph from the outputs in reverse topological order.
#pragma once

#include <vector>

#include "autograd/node.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

struct BackwardOptions {
  bool retain_graph = false;
  bool create_graph = false;
  bool allow_unused = false;
};

/// g, reduced to the input's shape (a broadcast), moved to its device and converted to its
/// dtype: what every gradient is made before it is passed to the node of an input.
TensorRef fit_gradient(TensorRef g, const InputMeta& m);

/// Accumulates the gradients of `outputs` (seeded with `grad_outputs`, an entry nullptr: ones
/// for a one-element output) into the .grad of the leaves they depend on.
void backward(const std::vector<TensorImpl*>& outputs,
              const std::vector<TensorImpl*>& grad_outputs, const BackwardOptions& options);

/// The gradients of `outputs` with respect to `inputs`, returned instead of accumulated (an
/// entry empty where an input is unused and allow_unused is set).
std::vector<TensorRef> grad(const std::vector<TensorImpl*>& outputs,
                            const std::vector<TensorImpl*>& grad_outputs,
                            const std::vector<TensorImpl*>& inputs,
                            const BackwardOptions& options);

}  // namespace kf::autograd
