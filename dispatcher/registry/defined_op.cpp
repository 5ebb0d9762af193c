#include "registry/defined_op.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "registry/op_registry.hpp"

namespace kf {
namespace {

std::string rule_list() {
  std::string out;
  for (int32_t i = 0; i < kMetaRuleCount; ++i) {
    out += (i ? ", " : "") + std::string(kMetaRules[i].name);
  }
  return out;
}

// Whether `signatures` ("a -> 1|b -> 1") lists `one`.
bool rule_serves(const std::string& signatures, const std::string& one) {
  size_t start = 0;
  while (start <= signatures.size()) {
    size_t bar = signatures.find('|', start);
    if (bar == std::string::npos) bar = signatures.size();
    if (signatures.compare(start, bar - start, one) == 0) return true;
    start = bar + 1;
  }
  return false;
}

const MetaRule* checked_rule(const ParsedSchema& p, const char* rule_name) {
  const MetaRule* rule = find_meta_rule(rule_name);
  if (rule == nullptr) {
    fail(KF_INVALID_ARGUMENT, "define_op({}): no core meta rule named '{}' (the rules: {})",
         p.name, rule_name, rule_list());
  }
  if (!rule_serves(rule->signatures, p.rule_signature)) {
    fail(KF_INVALID_ARGUMENT,
         "define_op({}): meta rule '{}' serves the argument lists {}, not '{}'; pass a meta "
         "function of your own or a rule for this signature", p.name, rule->name,
         rule->signatures, p.rule_signature);
  }
  return rule;
}

// The backward fields of plugin ABI 2.1, read only when the plugin's struct has them.
void read_backward(const kf_op_definition_t& def, OpDefinition& d) {
  constexpr size_t kEnd = offsetof(kf_op_definition_t, backward) + sizeof(kf_backward_fn);
  if (def.struct_size < kEnd) return;  // an older plugin: no backward
  if (def.nbackward_formulas < 0 || def.nbackward_formulas > kMaxTensorArgs ||
      (def.nbackward_formulas > 0 && def.backward_formulas == nullptr)) {
    fail(KF_INVALID_ARGUMENT, "define_op({}): {} backward formulas{}; give at most one per "
         "tensor argument", d.schema.name, def.nbackward_formulas,
         def.backward_formulas == nullptr ? " but backward_formulas is NULL" : "");
  }
  if (def.nbackward_formulas > 0 && def.backward != nullptr) {
    fail(KF_INVALID_ARGUMENT, "define_op({}): the definition gives both backward formulas and a "
         "backward callback; give one of the two", d.schema.name);
  }
  for (int32_t i = 0; i < def.nbackward_formulas; ++i) {
    const kf_backward_formula_t& f = def.backward_formulas[i];
    if (f.arg == nullptr || f.formula == nullptr) {
      fail(KF_INVALID_ARGUMENT, "define_op({}): backward formula {} has a NULL arg or formula",
           d.schema.name, i);
    }
    d.formulas.push_back(FormulaText{f.arg, f.formula});
  }
  d.callback = def.backward;
}

}  // namespace

OpDefinition check_definition(const kf_op_definition_t& def, const std::string& plugin) {
  if (def.schema == nullptr) fail(KF_INVALID_ARGUMENT, "define_op: the schema is NULL");
  OpDefinition d;
  d.schema = parse_schema(def.schema);
  if (d.schema.ns.empty()) {
    fail(KF_INVALID_ARGUMENT,
         "define_op: '{}' has no namespace; names without one belong to the core. Name it "
         "'{}::{}' (a namespace of the plugin's own)", d.schema.name, plugin, d.schema.name);
  }
  if (def.meta == nullptr && (def.meta_rule == nullptr || *def.meta_rule == '\0')) {
    fail(KF_INVALID_ARGUMENT, "define_op({}): give a meta function or the name of a core meta "
                              "rule (meta_rule)", d.schema.name);
  }
  d.meta = def.meta;
  if (def.meta == nullptr) d.rule = checked_rule(d.schema, def.meta_rule);
  d.doc = def.doc != nullptr ? def.doc : "";
  d.provenance = fmt::format("{}: {}:{}", plugin, def.file != nullptr ? def.file : "?", def.line);
  d.plugin = plugin;
  read_backward(def, d);
  return d;
}

std::unique_ptr<DefinedOp> make_op(const OpDefinition& d, void* plugin_state) {
  auto o = std::make_unique<DefinedOp>();
  o->name = d.schema.name;
  o->schema = d.schema.canonical;
  o->doc = d.doc;
  o->provenance = d.provenance;
  o->backward = d.backward;
  o->arg_names.reserve(d.schema.args.size());
  int32_t tensors = 0;
  for (const ParsedArg& a : d.schema.args) {
    o->arg_names.push_back(a.name);
    o->args.push_back(ArgDef{o->arg_names.back().c_str(), a.type, a.optional, a.kwarg_only,
                             a.has_default, default_value(a), a.written()});
    tensors += a.type == ArgType::Tensor ? 1 : 0;
  }
  OpDef& def = o->def;
  def.id = -1;
  def.name = o->name.c_str();
  def.schema = o->schema.c_str();
  def.doc = o->doc.c_str();
  def.schema_hash = d.schema.hash;
  def.kind = OpKind::Kernel;
  def.tags = 0;
  def.args = o->args.data();
  def.nargs = static_cast<int32_t>(o->args.size());
  def.ntensor_args = tensors;
  def.nreturns = d.schema.nreturns;
  def.meta = d.rule != nullptr ? d.rule->fn : nullptr;
  def.impl = nullptr;
  def.plugin_meta = d.meta;
  def.plugin_state = plugin_state;
  def.provenance = o->provenance.c_str();
  return o;
}

}  // namespace kf
