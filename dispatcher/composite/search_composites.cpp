// Composite searching ops: nonzero, whose output shape depends on the values. It counts the
// nonzero elements first (to_dtype bool, then sum: NaN and either part of a complex number count
// as nonzero, as bool conversion says), reads the count on the host, then asks the kernel
// nonzero_static for exactly that many coordinates. Two passes over self, as PyTorch's CPU
// nonzero makes.
#include "core/error.hpp"
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "dispatch/tensor_moves.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {

void nonzero(const CallArgs& a, TensorRef* outs) {
  TensorImpl& self = a.tensor(0);
  if (self.ndim == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: self is 0-dim, and a 0-dim tensor has no coordinates; "
         "reshape it to 1-D first (reshape(self, [1]))", a.name());
  }
  TensorRef mask = ops::to_dtype(self, KF_BOOL);
  TensorRef count = ops::sum(*mask);
  const int64_t n = tensor_item(*count).v.i64;
  outs[0] = ops::nonzero_static(self, n, -1);
}

}  // namespace kf::composite
