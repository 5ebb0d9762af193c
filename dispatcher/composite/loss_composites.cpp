// The composites of the losses: one_hot and nll_loss, written from eq, arange, mul and sum, so
// that autograd differentiates nll_loss (and so cross_entropy, log_softmax then nll_loss)
// through its decomposition. The class indices are checked against the number of classes
// first: an index outside [0, C) would otherwise pick nothing, silently.
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "dispatch/tensor_moves.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {
namespace {

int64_t item_int(TensorImpl& t) { return tensor_item(*ops::to_dtype(t, KF_INT64)).v.i64; }

// Every index in [0, classes) (an empty tensor has none to check).
void check_classes(const char* op, TensorImpl& indices, int64_t classes) {
  if (!is_integral(indices.dtype, false)) {
    fail(KF_INVALID_ARGUMENT, "{}: class indices must have an integer dtype, not {}", op,
         dtype_name(indices.dtype));
  }
  if (indices.numel == 0) return;
  const int64_t lo = item_int(*ops::amin(indices));
  const int64_t hi = item_int(*ops::amax(indices));
  if (lo < 0 || hi >= classes) {
    fail(KF_OUT_OF_RANGE, "{}: class index {} is outside [0, {}); pass indices below the "
         "number of classes", op, lo < 0 ? lo : hi, classes);
  }
}

TensorRef one_hot_of(TensorImpl& indices, int64_t classes) {
  TensorRef range = ops::arange(kf_scalar_i64(0), kf_scalar_i64(classes), kf_scalar_i64(1),
                                indices.dtype, indices.device);
  TensorRef hit = ops::eq(*ops::unsqueeze(indices, -1), *range);
  return ops::to_dtype(*hit, KF_INT64);
}

}  // namespace

void one_hot(const CallArgs& a, TensorRef* outs) {
  TensorImpl& self = a.tensor(0);
  int64_t classes = a.int_arg(1);
  if (classes < -1) {
    fail(KF_INVALID_ARGUMENT, "one_hot: num_classes must be -1 (max + 1) or at least 0, not {}",
         classes);
  }
  if (classes == -1) {
    if (self.numel == 0) fail(KF_INVALID_ARGUMENT, "one_hot: num_classes -1 needs values");
    check_classes("one_hot", self, INT64_MAX);
    classes = item_int(*ops::amax(self)) + 1;
  } else {
    check_classes("one_hot", self, classes);
  }
  outs[0] = one_hot_of(self, classes);
}

void nll_loss(const CallArgs& a, TensorRef* outs) {
  TensorImpl& self = a.tensor(0);
  TensorImpl& target = a.tensor(1);
  const int64_t reduction = a.int_arg(2);
  if (self.ndim != 2 || target.ndim != 1 || target.shape[0] != self.shape[0]) {
    fail(KF_INVALID_ARGUMENT, "nll_loss: self must be [N, C] and target [N], not {} and {}",
         shape_string(self.shape, self.ndim), shape_string(target.shape, target.ndim));
  }
  if (reduction < 0 || reduction > 2) {
    fail(KF_INVALID_ARGUMENT, "nll_loss: reduction must be 0 (none), 1 (mean) or 2 (sum), "
         "not {}", reduction);
  }
  check_classes("nll_loss", target, self.shape[1]);
  TensorRef picked = ops::sum(*ops::mul(self, *ops::to_dtype(*one_hot_of(target, self.shape[1]),
                                                              self.dtype)),
                              IntListView{-1});
  TensorRef loss = ops::neg(*picked);
  if (reduction == 0) {
    outs[0] = std::move(loss);
  } else if (reduction == 1) {
    outs[0] = ops::mean(*loss);
  } else {
    outs[0] = ops::sum(*loss);
  }
}

}  // namespace kf::composite
