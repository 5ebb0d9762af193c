// Composite creation ops: empty (core allocation, no kernel) and the *_like family.
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {

void empty(const CallArgs& a, TensorRef* outs) {
  const IntListView size = a.ints(0);
  outs[0] = TensorRef(new_tensor(size.data, size.len, a.dtype_or(1, KF_FLOAT32),
                                 a.device_or(2, kf_device_cpu())));
}

void empty_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = TensorRef(new_tensor(t.shape, t.ndim, a.dtype_or(1, t.dtype), t.device));
}

void zeros_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = ops::zeros(IntListView(t.shape, t.ndim), a.dtype_or(1, t.dtype), t.device);
}

void ones_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = ops::ones(IntListView(t.shape, t.ndim), a.dtype_or(1, t.dtype), t.device);
}

void full_like(const CallArgs& a, TensorRef* outs) {
  const TensorImpl& t = a.tensor(0);
  outs[0] = ops::full(IntListView(t.shape, t.ndim), a.scalar(1), a.dtype_or(2, t.dtype),
                      t.device);
}

}  // namespace kf::composite
