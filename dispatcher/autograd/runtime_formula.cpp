// Checking a run-time backward formula against the op that defines it (Note [One formula
// grammar, two readers]): every name is grad, result or an argument of the op; every callee is
// a helper of derivatives.yaml (kRuntimeHelpers), an op of the registry or one the plugin
// defines in the same registration, with one output and no written argument; every call binds
// (positional count, keywords, required arguments) and passes tensors where tensors go and
// only there. The op a call names is found by name at its first call (formula_eval.cpp).
#include "autograd/runtime_formula.hpp"

#include <fmt/format.h>

#include <utility>

#include "autograd/formula_expr.hpp"
#include "core/error.hpp"
#include "registry/op_registry.hpp"

namespace kf::autograd {
namespace {

using Kind = FormulaExpr::Kind;

// The helpers, their signatures parsed once (with the run-time schema parser) into the
// arguments normalize_args reads.
struct HelperTable {
  std::vector<std::unique_ptr<DefinedOp>> defs;
  std::vector<std::shared_ptr<const Callee>> callees;
};

std::vector<CalleeParam> params_of(const std::vector<ParsedArg>& args) {
  std::vector<CalleeParam> out;
  for (const ParsedArg& a : args) out.push_back({a.name, a.type, a.optional, a.has_default});
  return out;
}

const HelperTable& helper_table() {
  static const HelperTable table = [] {
    HelperTable t;
    for (int32_t i = 0; i < kRuntimeHelperCount; ++i) {
      OpDefinition d;
      d.schema = parse_schema(kRuntimeHelpers[i].signature, SchemaOrigin::Core);
      d.provenance = "derivatives.yaml helper";
      t.defs.push_back(make_op(d, nullptr));
      auto c = std::make_shared<Callee>();
      c->name = kRuntimeHelpers[i].name;
      c->params = params_of(d.schema.args);
      c->helper = &kRuntimeHelpers[i];
      c->helper_def = &t.defs.back()->def;
      t.callees.push_back(std::move(c));
    }
    return t;
  }();
  return table;
}

class Checker {
 public:
  Checker(const OpDefinition& def, const std::vector<OpDefinition>& pending)
      : def_(def), pending_(pending) {}

  // The expression's kind of value: Tensor, IntList, or another (Int stands for every number).
  ArgType check(FormulaExpr& e) {
    switch (e.kind) {
      case Kind::Number: return e.is_float ? ArgType::Float : ArgType::Int;
      case Kind::Name: return name(e);
      case Kind::Shape:
      case Kind::Dtype: return attr(e);
      case Kind::List: return list(e);
      case Kind::Call: return call(e);
      default: return ArgType::Tensor;
    }
  }

  std::vector<int32_t> reads;

 private:
  int32_t arg_index(const std::string& n) const {
    for (size_t i = 0; i < def_.schema.args.size(); ++i) {
      if (def_.schema.args[i].name == n) return static_cast<int32_t>(i);
    }
    return -2;
  }

  std::string names() const {
    std::string out = "grad, result";
    for (const ParsedArg& a : def_.schema.args) out += ", " + a.name;
    return out;
  }

  void read(int32_t index) {
    for (int32_t r : reads) {
      if (r == index) return;
    }
    reads.push_back(index);
  }

  ArgType name(FormulaExpr& e) {
    if (e.text == "grad" || e.text == "result") {
      e.kind = e.text == "grad" ? Kind::Grad : Kind::Result;
      if (e.kind == Kind::Result) read(-1);
      return ArgType::Tensor;
    }
    if (e.text == "True" || e.text == "False") {
      e.kind = Kind::Bool;
      e.b = e.text == "True";
      return ArgType::Bool;
    }
    e.index = arg_index(e.text);
    if (e.index < 0) {
      throw FormulaProblem{e.pos, fmt::format("unknown name '{}' (the names: {})", e.text,
                                              names())};
    }
    e.kind = Kind::Arg;
    const ArgType t = def_.schema.args[static_cast<size_t>(e.index)].type;
    if (t == ArgType::Tensor) read(e.index);
    return t;
  }

  ArgType attr(FormulaExpr& e) {
    e.index = e.text == "result" ? -1 : arg_index(e.text);
    if (e.index == -2 || (e.index >= 0 &&
                          def_.schema.args[static_cast<size_t>(e.index)].type != ArgType::Tensor)) {
      throw FormulaProblem{e.pos, fmt::format("'{}.{}': '{}' is not a tensor of {}", e.text,
                                              e.attr, e.text, def_.schema.name)};
    }
    return e.kind == Kind::Shape ? ArgType::IntList : ArgType::Dtype;
  }

  ArgType list(FormulaExpr& e) {
    for (FormulaExpr& item : e.items) {
      if (check(item) != ArgType::Int) {
        throw FormulaProblem{item.pos, "a list in a formula holds ints only"};
      }
    }
    return ArgType::IntList;
  }

  std::shared_ptr<const Callee> op_callee(const std::string& n, const OpDef& op, size_t pos);
  std::shared_ptr<const Callee> pending_callee(const std::string& n, size_t pos);
  std::shared_ptr<const Callee> find_callee(const FormulaExpr& e);
  void bind(FormulaExpr& e);
  ArgType call(FormulaExpr& e);

  const OpDefinition& def_;
  const std::vector<OpDefinition>& pending_;
};

void refuse_callee(const std::string& n, int32_t nreturns, bool writes, size_t pos) {
  if (nreturns != 1) {
    throw FormulaProblem{pos, fmt::format("'{}' returns {} tensors; a formula calls ops with one "
                                          "output", n, nreturns)};
  }
  if (writes) {
    throw FormulaProblem{pos, fmt::format("'{}' writes its input in place; a formula calls "
                                          "functional ops only", n)};
  }
}

std::shared_ptr<const Callee> Checker::op_callee(const std::string& n, const OpDef& op,
                                                 size_t pos) {
  bool writes = false;
  auto c = std::make_shared<Callee>();
  c->name = n;
  for (int32_t i = 0; i < op.nargs; ++i) {
    const ArgDef& a = op.args[i];
    writes = writes || a.written;
    c->params.push_back({a.name, a.type, a.optional, a.has_default});
  }
  refuse_callee(n, op.nreturns, writes, pos);
  return c;
}

std::shared_ptr<const Callee> Checker::pending_callee(const std::string& n, size_t pos) {
  const OpDefinition* found = def_.schema.name == n ? &def_ : nullptr;
  for (const OpDefinition& p : pending_) {
    if (found == nullptr && p.schema.name == n) found = &p;
  }
  if (found == nullptr) return nullptr;
  bool writes = false;
  for (const ParsedArg& a : found->schema.args) writes = writes || a.written();
  refuse_callee(n, found->schema.nreturns, writes, pos);
  auto c = std::make_shared<Callee>();
  c->name = n;
  c->params = params_of(found->schema.args);
  return c;
}

std::shared_ptr<const Callee> Checker::find_callee(const FormulaExpr& e) {
  for (const std::shared_ptr<const Callee>& h : helper_table().callees) {
    if (h->name == e.text) return h;
  }
  if (const OpDef* op = find_op(e.text)) return op_callee(e.text, *op, e.pos);
  if (auto c = pending_callee(e.text, e.pos)) return c;
  throw FormulaProblem{e.pos, fmt::format("'{}' is neither an op with one output nor a helper "
                                          "of derivatives.yaml", e.text)};
}

// The call's arguments in the callee's parameter order; `given` says which the call gives.
void Checker::bind(FormulaExpr& e) {
  const std::vector<CalleeParam>& params = e.callee->params;
  if (e.items.size() > params.size()) {
    throw FormulaProblem{e.pos, fmt::format("{} takes {} arguments, {} given", e.text,
                                            params.size(), e.items.size())};
  }
  e.given.assign(params.size(), false);
  for (size_t k = 0; k < e.items.size(); ++k) e.given[k] = true;
  e.items.resize(params.size());
  for (size_t k = 0; k < e.keyword_names.size(); ++k) {
    size_t at = 0;
    while (at < params.size() && params[at].name != e.keyword_names[k]) ++at;
    if (at == params.size()) {
      throw FormulaProblem{e.keyword_values[k].pos, fmt::format(
          "{} has no argument '{}'", e.text, e.keyword_names[k])};
    }
    if (e.given[at]) {
      throw FormulaProblem{e.keyword_values[k].pos, fmt::format(
          "{}: '{}' given twice", e.text, e.keyword_names[k])};
    }
    e.items[at] = std::move(e.keyword_values[k]);
    e.given[at] = true;
  }
  e.keyword_names.clear();
  e.keyword_values.clear();
  for (size_t k = 0; k < params.size(); ++k) {
    if (!e.given[k] && !params[k].has_default) {
      throw FormulaProblem{e.pos, fmt::format("{}: argument '{}' is required", e.text,
                                              params[k].name)};
    }
  }
}

ArgType Checker::call(FormulaExpr& e) {
  e.callee = find_callee(e);
  bind(e);
  const std::vector<CalleeParam>& params = e.callee->params;
  for (size_t k = 0; k < params.size(); ++k) {
    if (!e.given[k]) continue;
    const ArgType got = check(e.items[k]);
    const ArgType want = params[k].type;
    const bool tensor_ok = (want == ArgType::Tensor) == (got == ArgType::Tensor);
    const bool list_ok = want != ArgType::IntList || got == ArgType::IntList;
    if (!tensor_ok || !list_ok) {
      throw FormulaProblem{e.items[k].pos, fmt::format(
          "{}: argument '{}' is a {}, given a {}", e.text, params[k].name, arg_type_name(want),
          got == ArgType::Int || got == ArgType::Float ? "number" : arg_type_name(got))};
    }
  }
  return ArgType::Tensor;
}

}  // namespace

RuntimeFormula::RuntimeFormula(const OpDefinition& def, const std::vector<OpDefinition>& pending,
                               const std::string& arg, const std::string& text) {
  const std::string where = fmt::format("plugin '{}': define_op({}): the backward formula of "
                                        "'{}', \"{}\"", def.plugin, def.schema.name, arg, text);
  for (size_t i = 0; i < def.schema.args.size(); ++i) {
    if (def.schema.args[i].name == arg && def.schema.args[i].type == ArgType::Tensor) {
      arg_index_ = static_cast<int32_t>(i);
    }
  }
  if (arg_index_ < 0) {
    fail(KF_INVALID_ARGUMENT, "{}: '{}' is not a tensor argument of {}; give one formula per "
         "differentiable tensor argument", where, arg, def.schema.canonical);
  }
  try {
    auto root = std::make_unique<FormulaExpr>(parse_formula(text));
    Checker checker(def, pending);
    if (checker.check(*root) != ArgType::Tensor) {
      throw FormulaProblem{root->pos, "the formula must give a tensor"};
    }
    root_ = std::move(root);
    reads_ = std::move(checker.reads);
  } catch (const FormulaProblem& p) {
    fail(KF_INVALID_ARGUMENT, "{}, at column {}: {}; the grammar is derivatives.yaml's "
         "(docs/plugins.md)", where, p.pos + 1, p.what);
  }
}

RuntimeFormula::~RuntimeFormula() = default;
RuntimeFormula::RuntimeFormula(RuntimeFormula&&) noexcept = default;
RuntimeFormula& RuntimeFormula::operator=(RuntimeFormula&&) noexcept = default;

bool RuntimeFormula::reads(int32_t index) const noexcept {
  for (int32_t r : reads_) {
    if (r == index) return true;
  }
  return false;
}

}  // namespace kf::autograd
