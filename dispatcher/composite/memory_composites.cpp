// Composite memory ops: contiguous and clone (allocation plus copy_).
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {

void clone(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  TensorRef out(new_tensor(t.shape, t.ndim, t.dtype, t.device));
  ops::copy_(*out, t);
  outs[0] = std::move(out);
}

void contiguous(const CallArgs& a, TensorRef* outs) {
  TensorImpl& t = a.tensor(0);
  if (!is_contiguous(t)) return clone(a, outs);
  retain(&t);
  outs[0] = TensorRef(&t);
}

}  // namespace kf::composite
