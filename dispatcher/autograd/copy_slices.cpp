#include "autograd/copy_slices.hpp"

#include "autograd/autograd_meta.hpp"
#include "autograd/engine.hpp"
#include "core_ops.hpp"

namespace kf::autograd {

CopySlices::CopySlices(const TensorImpl& base, const Edge& before, ViewChain chain,
                       std::shared_ptr<Node> fn)
    : chain_(std::move(chain)), fn_(std::move(fn)) {
  share_stream(*fn_);
  next = fn_->next;
  inputs = fn_->inputs;
  next[0] = before;
  inputs[0] = InputMeta{{base.shape, base.shape + base.ndim}, base.dtype, base.device};
}

// The base's gradient is copied (it may be another node's too), the view's part of the copy
// goes through fn, and fn's gradient of the view before the write (`g`, zeros where fn gave
// none) replaces that part. Under create_graph each step records; the write into the copy
// too, where g has a history and the copy has none (follow_writes).
void CopySlices::apply(std::vector<TensorRef>& in, std::vector<TensorRef>& grads) {
  TensorRef result = ops::clone(*in[0]);
  std::vector<TensorRef> fn_in(1);
  fn_in[0] = ops::clone(*replay(chain_, *result));
  std::vector<TensorRef> fn_grads(fn_->next.size());
  fn_->apply(fn_in, fn_grads);
  TensorRef g = fn_grads[0] ? fit_gradient(std::move(fn_grads[0]), fn_->inputs[0])
                            : ops::zeros_like(*fn_in[0]);
  follow_writes(*result, *g);
  ops::copy_(*replay(chain_, *result), *g);
  grads[0] = std::move(result);
  for (size_t k = 1; k < grads.size(); ++k) grads[k] = std::move(fn_grads[k]);
}

}  // namespace kf::autograd
