// The optimizers' list ops, fused_adamw and fused_sgd: one call per parameter list runs the fused
// update of each parameter (adamw_step_, sgd_step_). Every entry of every list is checked first,
// so that a bad entry is reported before any parameter is written: an optimizer step happens
// for all parameters or for none.
#include <cstdint>
#include <vector>

#include "core/device_types.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "dispatch/call_args.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::composite {
namespace {

// The tensors of Tensor[] argument i, decoded (an empty list is allowed).
std::vector<TensorImpl*> list_arg(const CallArgs& a, int32_t i) {
  const auto& list = a.v[i].v.tensors;
  std::vector<TensorImpl*> ts(static_cast<size_t>(list.len));
  for (int32_t k = 0; k < list.len; ++k) {
    ts[k] = find_tensor(list.data[k]);
    if (ts[k] == nullptr) {
      fail(KF_INVALID_ARGUMENT, "{}: entry {} of {}: handle {}", a.name(), k, a.def->args[i].name,
           tensor_handle_problem(list.data[k]));
    }
  }
  return ts;
}

bool same_dims(const TensorImpl& x, const TensorImpl& y) {
  if (x.ndim != y.ndim) return false;
  for (int32_t d = 0; d < x.ndim; ++d) {
    if (x.shape[d] != y.shape[d]) return false;
  }
  return true;
}

// Entry k of list argument i against parameter k: its dtype, shape and device.
void check_entry(const CallArgs& a, int32_t i, int32_t k, const TensorImpl& t,
                 const TensorImpl& p) {
  if (!is_floating_dtype(p.dtype) && !is_complex_dtype(p.dtype)) {
    fail(KF_INVALID_ARGUMENT, "{}: parameter {} is {}; an optimizer updates floating point or "
         "complex parameters", a.name(), k, dtype_name(p.dtype));
  }
  if (t.dtype != p.dtype || !same_dims(t, p) || t.device != p.device) {
    fail(KF_INVALID_ARGUMENT, "{}: entry {} of {} is {} {} on {}, but parameter {} is {} {} on "
         "{}; the gradient and the state are made like their parameter (no parameter was "
         "written)", a.name(), k, a.def->args[i].name, dtype_name(t.dtype),
         shape_string(t.shape, t.ndim), device_string(t.device), k, dtype_name(p.dtype),
         shape_string(p.shape, p.ndim), device_string(p.device));
  }
}

// The lists of arguments `first`..`first + n - 1`, every one as long as the first (the
// parameters), every entry checked against its parameter. A list at an index in `may_be_empty`
// may also have no entry.
std::vector<std::vector<TensorImpl*>> checked_lists(const CallArgs& a, int32_t n,
                                                    int32_t may_be_empty = -1) {
  std::vector<std::vector<TensorImpl*>> lists;
  for (int32_t i = 0; i < n; ++i) lists.push_back(list_arg(a, i));
  const size_t count = lists[0].size();
  for (int32_t i = 1; i < n; ++i) {
    if (lists[i].empty() && i == may_be_empty) continue;
    if (lists[i].size() != count) {
      fail(KF_INVALID_ARGUMENT, "{}: {} has {} entries but params has {}; pass one per "
           "parameter", a.name(), a.def->args[i].name, lists[i].size(), count);
    }
    for (size_t k = 0; k < count; ++k) {
      check_entry(a, i, static_cast<int32_t>(k), *lists[i][k], *lists[0][k]);
    }
  }
  return lists;
}

}  // namespace

// fused_adamw(params, grads, exp_avgs, exp_avg_sqs, *, lr, beta1, beta2, eps, weight_decay,
// step): adamw_step_ of each parameter.
void fused_adamw(const CallArgs& a, TensorRef*) {
  const auto l = checked_lists(a, 4);
  if (a.int_arg(9) < 1) {
    fail(KF_INVALID_ARGUMENT, "fused_adamw: step is {}; steps count from 1", a.int_arg(9));
  }
  for (size_t k = 0; k < l[0].size(); ++k) {
    ops::adamw_step_(*l[0][k], *l[1][k], *l[2][k], *l[3][k], a.float_arg(4), a.float_arg(5),
                     a.float_arg(6), a.float_arg(7), a.float_arg(8), a.int_arg(9));
  }
}

// fused_sgd(params, grads, momentum_buffers, *, lr, momentum, dampening, weight_decay,
// nesterov, first_step): sgd_step_ of each parameter; without momentum (no buffers), one
// add_ (after a mul_ for the weight decay).
void fused_sgd(const CallArgs& a, TensorRef*) {
  const auto l = checked_lists(a, 3, 2);
  const double lr = a.float_arg(3), momentum = a.float_arg(4), decay = a.float_arg(6);
  if (l[2].empty() && momentum != 0 && !l[0].empty()) {
    fail(KF_INVALID_ARGUMENT, "fused_sgd: momentum is {} but momentum_buffers is empty; pass "
         "one buffer per parameter (zeros_like on the first step)", momentum);
  }
  for (size_t k = 0; k < l[0].size(); ++k) {
    if (!l[2].empty()) {
      ops::sgd_step_(*l[0][k], *l[1][k], *l[2][k], lr, momentum, a.float_arg(5), decay,
                     a.bool_arg(7), a.bool_arg(8));
      continue;
    }
    if (decay != 0) {
      ops::mul_(*l[0][k], *ops::full({}, kf_scalar_f64(1 - lr * decay), l[0][k]->dtype));
    }
    ops::add_(*l[0][k], *l[1][k], kf_scalar_f64(-lr));
  }
}

}  // namespace kf::composite
