#include "autograd/autograd_meta.hpp"

#include "autograd/grad_mode.hpp"
#include "autograd/inplace_view.hpp"
#include "autograd/post_accumulate_hooks.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"

namespace kf::autograd {
namespace {

void release_meta(void* data) noexcept { delete static_cast<AutogradMeta*>(data); }

// The history of a tensor computed from nothing in the graph: no gradient goes on from it.
class NoHistory final : public Node {
 public:
  void apply(std::vector<TensorRef>& /*in*/, std::vector<TensorRef>& /*grads*/) override {}
  const char* name() const noexcept override { return "NoHistory"; }
};

}  // namespace

AutogradMeta& ensure_meta(TensorImpl& t) {
  if (t.layer_data == nullptr) {
    static const bool hooked = (set_layer_data_release(&release_meta), true);
    (void)hooked;
    t.layer_data = new AutogradMeta();
  }
  return *meta_of(t);
}

void follow_writes(TensorImpl& t, const TensorImpl& value) {
  if (!grad_enabled() || !requires_grad(value) || requires_grad(t)) return;
  static const std::shared_ptr<Node> none = make_node<NoHistory>();
  AutogradMeta& m = ensure_meta(t);
  m.grad_fn = none;
  m.output_nr = 0;
}

Edge gradient_edge(TensorImpl& t) {
  AutogradMeta& m = ensure_meta(t);
  if (m.view) refresh_view(m);
  if (m.grad_fn) return Edge{m.grad_fn, m.output_nr};
  std::shared_ptr<AccumulateGrad> acc = m.accumulator.lock();
  if (!acc) {
    acc = make_node<AccumulateGrad>(t);
    m.accumulator = acc;
  }
  return Edge{acc, 0};
}

AccumulateGrad::AccumulateGrad(TensorImpl& leaf) {
  remember_stream(leaf.device);
  retain(&leaf);
  leaf_ = TensorRef(&leaf);
  inputs.push_back(InputMeta{{leaf.shape, leaf.shape + leaf.ndim}, leaf.dtype, leaf.device});
}

// Note [Accumulating into .grad]
// The first gradient is kept as it is when nothing else holds it, else copied (it may be the
// caller's grad_output or another input's gradient); later ones are added out of place, so a
// .grad the user holds never changes behind their back. The leaf's post-accumulate-grad hooks
// run after (Note [Post-accumulate-grad hooks]).
void AccumulateGrad::apply(std::vector<TensorRef>& in, std::vector<TensorRef>& /*grads*/) {
  TensorImpl& grad = *in[0];
  AutogradMeta& m = ensure_meta(*leaf_);
  if (!m.grad) {
    if (grad.refs.load(std::memory_order_acquire) == 1 && grad.layer_data == nullptr) {
      retain(&grad);
      m.grad = TensorRef(&grad);
    } else {
      m.grad = ops::clone(grad);
    }
  } else {
    m.grad = ops::add(*m.grad, grad);
  }
  run_post_accumulate_hooks(*leaf_);
}

}  // namespace kf::autograd
