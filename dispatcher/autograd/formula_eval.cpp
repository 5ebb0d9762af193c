// Evaluating a run-time backward formula at a node (RuntimeFormula::evaluate): names read the
// node (the saved tensors, its copy of the call's other arguments, the inputs' shapes and
// dtypes), calls of ops go through the dispatcher as boxed calls (so that they record under
// create_graph, as the generated formulas' kf::ops calls do), and calls of helpers run the
// helper over normalised arguments. The op a call names is found by name at its first call.
#include <fmt/format.h>

#include "autograd/formula_expr.hpp"
#include "autograd/op_node.hpp"
#include "autograd/runtime_formula.hpp"
#include "core/error.hpp"
#include "dispatch/dispatch.hpp"
#include "registry/op_registry.hpp"

namespace kf::autograd {
namespace {

using Kind = FormulaExpr::Kind;

// A value while a formula is evaluated: a boxed value, the tensor it made, the list it built.
struct Value {
  kf_value_t v = kf_value_none();
  TensorRef owned;
  std::vector<int64_t> ints;
  bool own_ints = false;

  kf_value_t boxed() const noexcept {
    kf_value_t out = v;
    if (own_ints) out = kf_value_int_list(ints.data(), static_cast<int32_t>(ints.size()));
    return out;
  }
};

const OpDef& op_of(const Callee& c) {
  const OpDef* def = c.op.load(std::memory_order_acquire);
  if (def != nullptr) return *def;
  def = find_op(c.name);
  if (def == nullptr) {  // checked at define time, and ops are never removed
    fail(KF_INTERNAL, "autograd: a backward formula calls '{}', which is not in the registry",
         c.name);
  }
  c.op.store(def, std::memory_order_release);
  return *def;
}

class Evaluator {
 public:
  Evaluator(OpNode& n, TensorImpl& grad) : n_(n), grad_(grad) {}

  Value eval(const FormulaExpr& e) {
    Value out;
    switch (e.kind) {
      case Kind::Number:
        out.v = e.is_float ? kf_value_float(e.f) : kf_value_int(e.i);
        break;
      case Kind::Bool: out.v = kf_value_bool(e.b); break;
      case Kind::Grad: out.v = kf_value_tensor(handle_of(&grad_)); break;
      case Kind::Result: out.v = kf_value_tensor(handle_of(&n_.result(0))); break;
      case Kind::Arg: out.v = argument(e.index); break;
      case Kind::Shape: {
        const IntListView s = e.index < 0 ? n_.result_shape(0) : n_.shape_of(e.index);
        out.v = kf_value_int_list(s.data, s.len);
        break;
      }
      case Kind::Dtype:
        out.v = kf_value_dtype(e.index < 0 ? n_.result_dtype(0) : n_.dtype_of(e.index));
        break;
      case Kind::List: list(e, out); break;
      default:
        out.owned = call(e);
        out.v = kf_value_tensor(handle_of(out.owned.get()));
        break;
    }
    return out;
  }

  TensorRef call(const FormulaExpr& e) {
    const Callee& c = *e.callee;
    std::vector<Value> values(e.items.size());
    kf_value_t boxed[kMaxArgs];
    const auto n = static_cast<int32_t>(e.items.size());
    for (int32_t k = 0; k < n; ++k) {
      if (e.given[static_cast<size_t>(k)]) values[static_cast<size_t>(k)] = eval(e.items[static_cast<size_t>(k)]);
      boxed[k] = values[static_cast<size_t>(k)].boxed();
    }
    if (c.helper != nullptr) {
      CallArgs args;
      normalize_args(*c.helper_def, boxed, n, args);
      return c.helper->call(args);
    }
    TensorImpl* outs[kMaxOutputs] = {};
    run_boxed(op_of(c), boxed, n, CallMode::Functional, nullptr, outs);
    return TensorRef(outs[0]);
  }

 private:
  kf_value_t argument(int32_t index) {
    const CallArgs& a = n_.args();
    if (a.def->args[index].type != ArgType::Tensor) return a.v[index];
    if (a.none(index)) return kf_value_none();
    return kf_value_tensor(handle_of(&n_.saved(index)));
  }

  void list(const FormulaExpr& e, Value& out) {
    for (const FormulaExpr& item : e.items) {
      const kf_value_t v = eval(item).v;
      out.ints.push_back(v.v.i);  // checked at define time: ints only
    }
    out.own_ints = true;
    out.v = out.boxed();
  }

  OpNode& n_;
  TensorImpl& grad_;
};

}  // namespace

TensorRef RuntimeFormula::evaluate(OpNode& n, TensorImpl& grad) const {
  Evaluator ev(n, grad);
  if (root_->kind == Kind::Call) return ev.call(*root_);
  Value v = ev.eval(*root_);
  TensorImpl* t = v.v.tag == KF_VALUE_TENSOR ? find_tensor(v.v.v.tensor) : nullptr;
  if (t == nullptr) return TensorRef();  // a None tensor argument: no gradient
  retain(t);
  return TensorRef(t);
}

}  // namespace kf::autograd
