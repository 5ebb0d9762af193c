// Note [The autograd layer]
// Autograd is a functionality layer (Note [Functionality layers]). It is registered and made
// active the first time a tensor is marked requires_grad; until then no op call sees it. When
// active, a call where grad mode is on and a tensor argument requires grad is recorded:
// - an op with formulas gets an OpNode: an edge per tensor argument that requires grad and
//   has a formula, the tensors its formulas read (saved views and their versions), and the
//   op runs below the layer with grad mode off; its output then points at the node;
// - a composite without formulas runs its decomposition here, whose ops record themselves
//   (even where a backend brings a kernel for the composite);
// - a non-differentiable op runs below; its outputs do not require grad;
// - an op a plugin defines records with the backward the plugin gave (formulas read at run
//   time, or its callback: autograd/plugin_backward.hpp), the same way;
// - an op whose formula is not written yet, or a plugin op without a backward, is an error that
//   names the op, as are out= calls and in-place calls on leaves that require grad (directly or
//   through a view);
// - an in-place call on a view of a tensor in the graph gives the view's base a new history
//   (Note [In-place ops on views]).
// Every other call goes straight below.
#include "autograd/autograd_layer.hpp"

#include <mutex>

#include "autograd/autograd_meta.hpp"
#include "autograd/derivative.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/inplace_view.hpp"
#include "autograd/op_node.hpp"
#include "autograd/plugin_backward.hpp"
#include "core/error.hpp"
#include "core/dtype.hpp"
#include "core_ops.hpp"
#include "dispatch/dispatch.hpp"

namespace kf::autograd {
namespace {

// A Tensor[] argument (cat's, stack's) counts too: a composite that takes one then runs its
// decomposition here, which records.
bool any_listed_requires_grad(const CallArgs& a) noexcept {
  for (int32_t i = 0; i < a.nargs; ++i) {
    if (a.v[i].tag != KF_VALUE_TENSOR_LIST) continue;
    for (int32_t j = 0; j < a.v[i].v.tensors.len; ++j) {
      const TensorImpl* t = find_tensor(a.v[i].v.tensors.data[j]);
      if (t != nullptr && requires_grad(*t)) return true;
    }
  }
  return false;
}

bool any_requires_grad(const CallArgs& a) noexcept {
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    const TensorImpl* t = a.tensors[a.tensor_index[k]];
    if (t != nullptr && requires_grad(*t)) return true;
  }
  return any_listed_requires_grad(a);
}

// The device of the call's first tensor (a call that records has one that requires grad).
kf_device_t first_device(const CallArgs& a) noexcept {
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    if (const TensorImpl* t = a.tensors[a.tensor_index[k]]) return t->device;
  }
  return kf_device_t{KF_DEVICE_NONE, 0};
}

void run_without_grad(int32_t layer, const CallArgs& a, CallMode mode, TensorImpl* const* given,
                      TensorImpl** results) {
  GradModeGuard off(false);
  run_op_below(layer, a, mode, given, results);
}

[[noreturn]] void refuse_out(const OpDef& def) {
  fail(KF_INVALID_ARGUMENT, "autograd: {}: an out= call does not support automatic "
       "differentiation, and an argument requires grad; call it without out= or under "
       "no_grad", def.name);
}

// A composite's decomposition, run here so that its ops record (Functional and Inplace).
void run_decomposition(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                       TensorImpl** results) {
  const OpDef& def = *a.def;
  if (mode == CallMode::Out) refuse_out(def);
  TensorRef outs[kMaxOutputs];
  def.impl(a, outs);
  for (int32_t i = 0; i < def.nreturns; ++i) {
    if (mode == CallMode::Functional) {
      results[i] = outs[i].take();
    } else {
      ops::copy_(*given[i], *outs[i]);
    }
  }
}

void check_recordable(const CallArgs& a, CallMode mode, TensorImpl* const* given) {
  const OpDef& def = *a.def;
  if (mode == CallMode::Out) refuse_out(def);
  if (mode != CallMode::Inplace) return;
  const AutogradMeta* m = meta_of(*given[0]);
  if (m != nullptr && m->requires_grad && !m->grad_fn) {
    fail(KF_INVALID_ARGUMENT, "autograd: {}: a leaf tensor that requires grad is written in "
         "place; write it under no_grad (as an optimizer does) or write a clone", def.name);
  }
  if (m != nullptr) check_view_write(def, *m);
}

// A non-differentiable in-place op (an optimizer's update) writes no leaf that requires grad:
// its history would be lost without a word.
void refuse_written_leaves(const CallArgs& a, CallMode mode, TensorImpl* const* given) {
  if (mode != CallMode::Inplace) return;
  for (int32_t i = 0; i < a.def->nreturns; ++i) {
    const AutogradMeta* m = meta_of(*given[i]);
    if (m == nullptr || !m->requires_grad || m->grad_fn) continue;
    fail(KF_INVALID_ARGUMENT, "autograd: {}: a leaf tensor that requires grad is written in "
         "place by an op without a gradient; call it under no_grad (as an optimizer does)",
         a.def->name);
  }
}

void refuse(const OpDef& def, const char* reason) {
  fail(KF_UNIMPLEMENTED, "autograd: '{}' has no backward formula{}{}; an argument requires "
       "grad: call it under no_grad or on detached tensors", def.name, reason ? ": " : "",
       reason ? reason : "");
}

// The node of a recorded call, its backward on the stream current now on the op's device (the
// device of its first tensor argument; Note [Backward streams]).
std::shared_ptr<OpNode> new_op_node(const CallArgs& a, const Derivative& d) {
  auto node = make_node<OpNode>(a, d);
  node->remember_stream(first_device(a));
  node->next.resize(static_cast<size_t>(a.def->ntensor_args));
  node->inputs.resize(static_cast<size_t>(a.def->ntensor_args));
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    TensorImpl* t = a.tensors[a.tensor_index[k]];
    if (t == nullptr) continue;
    node->inputs[static_cast<size_t>(k)] = InputMeta{{t->shape, t->shape + t->ndim}, t->dtype,
                                                     t->device};
    if ((d.differentiable >> k & 1u) != 0 && requires_grad(*t)) {
      node->next[static_cast<size_t>(k)] = gradient_edge(*t);
    }
  }
  return node;
}

// An in-place call writes self: a formula that reads it (as self, or as another argument that
// is the same tensor, or a view of the same memory) reads a copy taken before the write,
// recorded (grad mode is on here) so that a double backward differentiates through it. Saving
// self itself would also make a cycle, since self then points at this node, and a saved view of
// the same memory would fail its version check, the write being after the save.
void save_inputs(OpNode& node, const CallArgs& a, CallMode mode) {
  const Derivative& d = node.derivative();
  TensorImpl* self = mode == CallMode::Inplace ? a.tensors[a.tensor_index[0]] : nullptr;
  TensorRef before;
  for (int32_t i = 0; i < a.nargs; ++i) {
    TensorImpl* t = a.tensors[i];
    if ((d.saves >> i & 1u) == 0 || t == nullptr) continue;
    if (self == nullptr || t->storage != self->storage) {
      node.save(*t, i);
    } else if (t != self) {
      node.save(*ops::clone(*t), i);
    } else {
      if (!before) before = ops::clone(*self);
      node.save(*before, i);
    }
  }
}

[[noreturn]] void refuse_complex(const OpDef& def, const char* reason) {
  fail(KF_UNIMPLEMENTED, "autograd: '{}' has no complex gradient ({}), and it is called with a "
       "complex tensor and an argument that requires grad; call it on real tensors, under "
       "no_grad or on detached tensors", def.name, reason);
}

// A formula for real dtypes only (Derivative::real_only) refuses a complex argument that
// requires grad, and a complex self of an in-place call, before the op runs.
void check_real_inputs(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                       const Derivative& d) {
  if (d.real_only == nullptr) return;
  if (mode == CallMode::Inplace && is_complex_dtype(given[0]->dtype)) {
    refuse_complex(*a.def, d.real_only);
  }
  for (int32_t k = 0; k < a.def->ntensor_args; ++k) {
    const TensorImpl* t = a.tensors[a.tensor_index[k]];
    if (t != nullptr && is_complex_dtype(t->dtype) && requires_grad(*t)) {
      refuse_complex(*a.def, d.real_only);
    }
  }
}

// After the op: a complex output of a formula for real dtypes only is refused (a Functional
// call's results go back before the error).
void check_real_outputs(const CallArgs& a, CallMode mode, TensorImpl** results,
                        const Derivative& d) {
  if (d.real_only == nullptr || mode != CallMode::Functional) return;
  const int32_t n = a.def->nreturns;
  for (int32_t k = 0; k < n; ++k) {
    if (!is_complex_dtype(results[k]->dtype)) continue;
    for (int32_t j = 0; j < n; ++j) {
      release(results[j]);
      results[j] = nullptr;
    }
    refuse_complex(*a.def, d.real_only);
  }
}

// Output `out` of a recorded call points at the node as output k. An in-place write of a view
// gives its base a new history instead; one of a base starts a new history (Note [In-place ops
// on views]); a view op's output remembers its base.
void attach_output(const CallArgs& a, CallMode mode, TensorImpl& out, int32_t k,
                   const std::shared_ptr<OpNode>& node) {
  AutogradMeta& m = ensure_meta(out);
  if (mode == CallMode::Inplace && m.view) return rebase_history(m, node);
  m.grad_fn = node;
  m.output_nr = k;
  if (mode == CallMode::Inplace) ++m.history;
  if (a.def->kind == OpKind::View) note_view(a, *a.tensors[a.tensor_index[0]], out, m);
}

// The outputs of a recorded call: every floating-point or complex output the formulas
// differentiate is attached; an integer one (indices, a rank) carries no gradient.
void attach_outputs(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                    TensorImpl** results, const std::shared_ptr<OpNode>& node) {
  const Derivative& d = node->derivative();
  const int32_t n = a.def->nreturns;
  check_real_outputs(a, mode, results, d);
  for (int32_t k = 0; k < n; ++k) {
    TensorImpl& out = mode == CallMode::Functional ? *results[k] : *given[k];
    node->set_result_meta(k, out);
    if ((d.saves_results >> k & 1u) != 0) {
      node->save(out, -1 - k, mode == CallMode::Inplace ? 1 : 0);  // Note [Version counters]
    }
    if (!is_inexact(out.dtype) || (d.nondiff_outputs >> k & 1u) != 0) continue;
    attach_output(a, mode, out, k, node);
  }
}

void record(int32_t layer, const CallArgs& a, CallMode mode, TensorImpl* const* given,
            TensorImpl** results, const Derivative& d) {
  check_recordable(a, mode, given);
  check_real_inputs(a, mode, given, d);
  std::shared_ptr<OpNode> node = new_op_node(a, d);
  save_inputs(*node, a, mode);
  run_without_grad(layer, a, mode, given, results);
  attach_outputs(a, mode, given, results, node);
}

void handle(int32_t layer, const CallArgs& a, CallMode mode, TensorImpl* const* given,
            TensorImpl** results) {
  if (!grad_enabled() || !any_requires_grad(a)) return run_op_below(layer, a, mode, given, results);
  const OpDef& def = *a.def;
  if (const Derivative* d = derivative_of(def.id)) return record(layer, a, mode, given, results, *d);
  if (def.kind == OpKind::Composite) return run_decomposition(a, mode, given, results);
  if (is_plugin_op(def)) {  // Note [The backward port]
    const Derivative* d = plugin_derivative_of(def.id);
    if (d == nullptr) refuse_plugin_op(def);
    return record(layer, a, mode, given, results, *d);
  }
  const NotDifferentiable* nd = not_differentiable(def.id);
  if (nd == nullptr || nd->reason != nullptr) refuse(def, nd ? nd->reason : nullptr);
  refuse_written_leaves(a, mode, given);
  run_without_grad(layer, a, mode, given, results);
}

}  // namespace

void activate_layer() {
  static std::once_flag once;
  static int32_t index = -1;
  std::call_once(once, [] { index = add_dispatch_layer({"autograd", &handle, true}); });
  set_dispatch_layer_active(index, true);
}

}  // namespace kf::autograd
