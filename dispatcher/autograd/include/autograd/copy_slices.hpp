// The node a base gets when an in-place op writes one of its views (Note [In-place ops on
// views], inplace_view.cpp).
#pragma once

#include <memory>

#include "autograd/node.hpp"
#include "autograd/view_of.hpp"

namespace kf::autograd {

/// The base's gradient passes on unchanged but for the view's part, which goes through the
/// in-place op's node `fn` and comes back as the gradient of the view before the write. Edge 0
/// is the base's history before the write; edge k > 0 is fn's edge k (the op's other tensor
/// arguments).
class CopySlices final : public Node {
 public:
  CopySlices(const TensorImpl& base, const Edge& before, ViewChain chain,
             std::shared_ptr<Node> fn);
  void apply(std::vector<TensorRef>& in, std::vector<TensorRef>& grads) override;
  const char* name() const noexcept override { return "CopySlices"; }
  void release_saved() noexcept override { fn_->release_saved(); }

 private:
  ViewChain chain_;  // the steps only: holding the base would make a cycle
  std::shared_ptr<Node> fn_;
};

}  // namespace kf::autograd
