// What autograd keeps for a view of a tensor in the graph: its base and the view ops that made
// it from the base, so that an in-place write through the view can rebase the base's history
// (Note [In-place ops on views], inplace_view.cpp).
#pragma once

#include <memory>
#include <vector>

#include "dispatch/call_args.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

/// One recorded view op: its schema and non-tensor arguments, to make the same view of another
/// tensor of the same shape.
class ViewStep {
 public:
  explicit ViewStep(const CallArgs& a);
  ViewStep(const ViewStep&) = delete;
  ViewStep& operator=(const ViewStep&) = delete;
  /// The same view of t: a call of the op, recorded where grad mode is on and t requires grad.
  TensorRef apply(TensorImpl& t) const;

 private:
  const OpDef* def_;
  int32_t nargs_;
  kf_value_t args_[kMaxArgs];
  std::vector<std::vector<int64_t>> lists_;  // the int[] arguments' values
};

/// The view ops from a base to a view, in order.
using ViewChain = std::vector<std::shared_ptr<const ViewStep>>;

/// The view's part of t, a tensor of the base's shape: the chain replayed on t.
TensorRef replay(const ViewChain& chain, TensorImpl& t);

/// A view and where it comes from: the base (never a view itself) and the chain of view ops
/// from the base to the view (a view of a view has its parent's chain and one more step).
struct ViewOf {
  TensorRef base;
  ViewChain steps;
};

}  // namespace kf::autograd
