// Composite counting and searching ops: count_nonzero, and nonzero and masked_select, whose
// output shape depends on the values. count_nonzero is the sum of self converted to bool (so NaN
// and either part of a complex number count as nonzero, as bool conversion says), where a
// backend brings no kernel of its own. nonzero and masked_select count first, read the count on
// the host, then ask a kernel (nonzero_static, masked_select_static) for exactly that many
// results. Two passes, as PyTorch's CPU nonzero makes.
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "dispatch/tensor_moves.hpp"
#include "meta/meta_util.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {

void count_nonzero(const CallArgs& a, TensorRef* outs) {
  TensorRef truth = ops::to_dtype(a.tensor(0), KF_BOOL);
  const IntListView dims = a.none(1) ? IntListView{nullptr, 0} : a.ints(1);
  outs[0] = ops::sum(*truth, dims, a.bool_arg(2));
}

void nonzero(const CallArgs& a, TensorRef* outs) {
  TensorImpl& self = a.tensor(0);
  if (self.ndim == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: self is 0-dim, and a 0-dim tensor has no coordinates; "
         "reshape it to 1-D first (reshape(self, [1]))", a.name());
  }
  TensorRef count = ops::count_nonzero(self);
  const int64_t n = tensor_item(*count).v.i64;
  outs[0] = ops::nonzero_static(self, n, -1);
}

void masked_select(const CallArgs& a, TensorRef* outs) {
  TensorImpl& self = a.tensor(0);
  TensorImpl& mask = a.tensor(1);
  if (mask.dtype != KF_BOOL) {
    fail(KF_INVALID_ARGUMENT, "{}: mask must be bool, got {}; compare it with 0 first (ne)",
         a.name(), dtype_name(mask.dtype));
  }
  OutputMeta shape{};
  meta::broadcast_into(a.name(), shape, self);
  meta::broadcast_into(a.name(), shape, mask);
  const std::vector<int64_t> both(shape.shape, shape.shape + shape.ndim);
  TensorRef s = ops::expand(self, both);
  TensorRef m = ops::expand(mask, both);
  TensorRef count = ops::count_nonzero(*m);
  const int64_t n = tensor_item(*count).v.i64;
  outs[0] = ops::masked_select_static(*s, *m, n);
}

}  // namespace kf::composite
