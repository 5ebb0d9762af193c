// device_move.cpp — the "to" node: the gradient of a move to another device is the same
// gradient moved back (the engine's fit moves and converts every gradient to its input's
// device and dtype, recorded under create_graph through to_recorded again).
#include "autograd/device_move.hpp"

#include <memory>

#include "autograd/autograd_meta.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/node.hpp"
#include "core_ops.hpp"
#include "dispatch/tensor_moves.hpp"

namespace kf::autograd {
namespace {

class ToDeviceNode final : public Node {
 public:
  // The gradient arrives on `device`, the move's destination: the node runs on its stream.
  ToDeviceNode(TensorImpl& source, kf_device_t device) {
    remember_stream(device);
    next.push_back(gradient_edge(source));
    inputs.push_back(InputMeta{{source.shape, source.shape + source.ndim}, source.dtype,
                               source.device});
  }
  void apply(std::vector<TensorRef>& in, std::vector<TensorRef>& grads) override {
    grads[0] = std::move(in[0]);  // fit() moves it to the source's device
  }
  const char* name() const noexcept override { return "to"; }
};

bool same_device(kf_device_t a, kf_device_t b) { return a.type == b.type && a.index == b.index; }

}  // namespace

TensorImpl* to_recorded(TensorImpl& t, kf_device_t device, kf_dtype_t dtype) {
  if (same_device(t.device, device) || !grad_enabled() || !requires_grad(t)) {
    return tensor_to(t, device, dtype);
  }
  TensorRef moved(tensor_to(t, device, t.dtype));
  AutogradMeta& m = ensure_meta(*moved);
  m.grad_fn = make_node<ToDeviceNode>(t, device);
  m.output_nr = 0;
  if (dtype == KF_DTYPE_UNDEFINED || dtype == t.dtype) return moved.take();
  return ops::to_dtype(*moved, dtype).take();
}

}  // namespace kf::autograd
