// The backward of ops plugins define (autograd/plugin_backward.hpp): a table of compiled
// backwards by op id, the port the registrar checks and publishes them through, and the one
// backward function every such op's node runs: the formulas, or the plugin's callback.
#include "autograd/plugin_backward.hpp"

#include <fmt/format.h>

#include <atomic>
#include <string>
#include <vector>

#include "autograd/op_node.hpp"
#include "autograd/runtime_formula.hpp"
#include "core/error.hpp"

namespace kf {

/// A defined op's compiled backward (forward-declared by the registry).
struct PluginBackward {
  autograd::Derivative derivative{};
  std::vector<autograd::RuntimeFormula> formulas;
  std::vector<int32_t> formula_of;  // tensor ordinal -> index into formulas, or -1
  kf_backward_fn callback = nullptr;
  std::string op;
  std::string provenance;
};

namespace autograd {
namespace {

std::atomic<PluginBackward*> g_backward[kMaxOps];

const PluginBackward& backward_of(int32_t op) {
  PluginBackward* b = op >= 0 && op < kMaxOps ? g_backward[op].load(std::memory_order_acquire)
                                              : nullptr;
  if (b == nullptr) fail(KF_INTERNAL, "autograd: op {} has no published backward", op);
  return *b;
}

// Hands the callback the saved inputs, the result and the gradient; adopts what it gives.
void run_callback(const PluginBackward& b, OpNode& n, TensorImpl& grad, TensorRef* grads) {
  const CallArgs& a = n.args();
  kf_value_t args[kMaxArgs];
  int32_t needed[kMaxTensorArgs] = {};
  kf_tensor_t given[kMaxTensorArgs] = {};
  int32_t k = 0;
  for (int32_t i = 0; i < a.nargs; ++i) {
    if (a.def->args[i].type != ArgType::Tensor) {
      args[i] = a.v[i];
      continue;
    }
    args[i] = a.none(i) ? kf_value_none() : kf_value_tensor(handle_of(&n.saved(i)));
    needed[k] = n.needs(k) ? 1 : 0;
    ++k;
  }
  kf_backward_call_t call{sizeof(kf_backward_call_t), a.def->id, a.nargs, args,
                          handle_of(&n.result(0)), handle_of(&grad), k, needed, given,
                          a.def->plugin_state};
  kf_status_t s = KF_INTERNAL;
  try {
    s = b.callback(&call);
  } catch (...) {
    set_last_error("the callback threw an exception");
  }
  TensorRef got[kMaxTensorArgs];
  int32_t bad = -1;
  for (int32_t j = 0; j < k; ++j) {
    got[j] = TensorRef(find_tensor(given[j]));  // adopted
    if (given[j] != nullptr && !got[j]) bad = j;
  }
  if (s != KF_OK) {
    fail(s, "autograd: the backward callback of '{}' ({}) failed: {}", b.op, b.provenance,
         last_error());
  }
  if (bad >= 0) {
    fail(KF_INVALID_ARGUMENT, "autograd: the backward callback of '{}' ({}) stored a tensor "
         "handle in grads[{}] that is not a live tensor; store a new reference from "
         "host->op_call (or leave it NULL)", b.op, b.provenance, bad);
  }
  for (int32_t j = 0; j < k; ++j) {
    if (needed[j] != 0) grads[j] = std::move(got[j]);
  }
}

// (One output: its gradient is in[0], always given.)
void run_plugin_backward(OpNode& n, TensorRef* in, TensorRef* grads) {
  TensorImpl& grad = *in[0];
  const PluginBackward& b = backward_of(n.args().def->id);
  if (b.callback != nullptr) return run_callback(b, n, grad, grads);
  for (size_t k = 0; k < b.formula_of.size(); ++k) {
    const int32_t f = b.formula_of[k];
    const auto ordinal = static_cast<int32_t>(k);
    if (f >= 0 && n.needs(ordinal)) grads[k] = b.formulas[static_cast<size_t>(f)].evaluate(n, grad);
  }
}

// Schema index -> tensor ordinal (-1 for the other arguments).
std::vector<int32_t> tensor_ordinals(const ParsedSchema& s) {
  std::vector<int32_t> out;
  int32_t k = 0;
  for (const ParsedArg& a : s.args) out.push_back(a.type == ArgType::Tensor ? k++ : -1);
  return out;
}

void add_formulas(const OpDefinition& def, const std::vector<OpDefinition>& pending,
                  PluginBackward& b) {
  const std::vector<int32_t> ordinal = tensor_ordinals(def.schema);
  Derivative& d = b.derivative;
  for (const FormulaText& text : def.formulas) {
    RuntimeFormula f(def, pending, text.arg, text.formula);
    const int32_t k = ordinal[static_cast<size_t>(f.arg_index())];
    if (b.formula_of[static_cast<size_t>(k)] >= 0) {
      fail(KF_INVALID_ARGUMENT, "plugin '{}': define_op({}): two backward formulas for '{}'; "
           "give one per tensor argument", def.plugin, def.schema.name, text.arg);
    }
    d.differentiable |= 1u << k;
    for (size_t i = 0; i < ordinal.size(); ++i) {
      if (ordinal[i] >= 0 && f.reads(static_cast<int32_t>(i))) d.saves |= 1u << i;
    }
    if (f.reads(-1)) d.saves_results |= 1u;
    b.formula_of[static_cast<size_t>(k)] = static_cast<int32_t>(b.formulas.size());
    b.formulas.push_back(std::move(f));
  }
}

std::shared_ptr<PluginBackward> compile(const OpDefinition& def,
                                        const std::vector<OpDefinition>& pending) {
  if (def.schema.nreturns != 1) {
    fail(KF_UNIMPLEMENTED, "plugin '{}': define_op({}): the op returns {} tensors; a backward "
         "for an op with several outputs is not supported yet: define it without one",
         def.plugin, def.schema.name, def.schema.nreturns);
  }
  auto b = std::make_shared<PluginBackward>();
  b->op = def.schema.name;
  b->provenance = def.provenance;
  // Formulas are written for real dtypes (no conjugation is read into them); a callback is
  // trusted with what it is given.
  const char* real_only = def.callback != nullptr ? nullptr
                          : "its run-time backward formulas hold for real dtypes only";
  b->derivative = Derivative{-1, &run_plugin_backward, 0u, 0u, 0u, 0u, real_only};
  const std::vector<int32_t> ordinal = tensor_ordinals(def.schema);
  int32_t tensors = 0;
  for (int32_t o : ordinal) tensors += o >= 0 ? 1 : 0;
  b->formula_of.assign(static_cast<size_t>(tensors), -1);
  if (def.callback != nullptr) {  // every tensor argument, the inputs and the result saved
    b->callback = def.callback;
    for (size_t i = 0; i < ordinal.size(); ++i) {
      if (ordinal[i] >= 0) b->derivative.saves |= 1u << i;
    }
    b->derivative.differentiable = tensors > 0 ? (1u << tensors) - 1u : 0u;
    b->derivative.saves_results = 1u;
    return b;
  }
  add_formulas(def, pending, *b);
  return b;
}

void publish(int32_t op, PluginBackward* backward) noexcept {
  backward->derivative.op = op;
  g_backward[op].store(backward, std::memory_order_release);
}

constexpr BackwardPort kPort{&compile, &publish};

}  // namespace

const BackwardPort& plugin_backward_port() noexcept { return kPort; }

const Derivative* plugin_derivative_of(int32_t op) noexcept {
  if (op < kBuiltinOpCount || op >= kMaxOps) return nullptr;
  const PluginBackward* b = g_backward[op].load(std::memory_order_acquire);
  return b != nullptr ? &b->derivative : nullptr;
}

bool is_plugin_op(const OpDef& def) noexcept { return def.id >= kBuiltinOpCount; }

void refuse_plugin_op(const OpDef& def) {
  fail(KF_UNIMPLEMENTED, "autograd: '{}' is an op a plugin defines ({}) without a backward, and "
       "an argument requires grad; the plugin must give its backward (backward formulas or a "
       "backward callback in its kf_op_definition_t, plugin ABI 2.1: docs/plugins.md). To use "
       "it without gradients, call it under no_grad or on detached tensors", def.name,
       def.provenance);
}

}  // namespace autograd
}  // namespace kf
