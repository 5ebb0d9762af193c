// optimizer_step: the rule of the fused optimizer updates (adamw_step_, sgd_step_). Every tensor
// argument (the parameter, its gradient and its state) has one floating or complex dtype and one
// shape; the outputs are the written tensors, each of the parameter's shape and dtype. Nothing
// is converted or broadcast: the state is the optimizer's own, made like the parameter.
#include <cstdint>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "meta/meta_util.hpp"

namespace kf::meta {
namespace {

bool same_dims(const TensorImpl& a, const TensorImpl& b) {
  if (a.ndim != b.ndim) return false;
  for (int32_t d = 0; d < a.ndim; ++d) {
    if (a.shape[d] != b.shape[d]) return false;
  }
  return true;
}

// Argument `i` (a tensor) against the parameter self.
void check_like_self(const CallArgs& a, int32_t i, const TensorImpl& self) {
  const TensorImpl& t = a.tensor(i);
  if (t.dtype != self.dtype) {
    fail(KF_INVALID_ARGUMENT, "{}: {} is {} but the parameter (self) is {}; make the gradient "
         "and the optimizer's state in the parameter's dtype", a.name(), a.def->args[i].name,
         dtype_name(t.dtype), dtype_name(self.dtype));
  }
  if (!same_dims(t, self)) {
    fail(KF_INVALID_ARGUMENT, "{}: {} has shape {} but the parameter (self) has shape {}; the "
         "gradient and the state have the parameter's shape", a.name(), a.def->args[i].name,
         shape_string(t.shape, t.ndim), shape_string(self.shape, self.ndim));
  }
}

}  // namespace

void optimizer_step(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  if (!is_floating_dtype(self.dtype) && !is_complex_dtype(self.dtype)) {
    fail(KF_INVALID_ARGUMENT, "{}: the parameter (self) is {}; an optimizer updates floating "
         "point or complex parameters", a.name(), dtype_name(self.dtype));
  }
  for (int32_t i = 1; i < a.nargs; ++i) {
    if (a.def->args[i].type == ArgType::Tensor) check_like_self(a, i, self);
  }
  for (int32_t k = 0; k < m.nout; ++k) {
    same_shape(self, m.out[k]);
    m.out[k].dtype = self.dtype;
  }
  m.compute_dtype = self.dtype;
}

}  // namespace kf::meta
