// Ops that plugins define (kf_registrar_t.define_op): the OpDef built from a parsed schema,
// owning its strings and argument descriptors for the life of the process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "registry/op_def.hpp"
#include "registry/schema_parser.hpp"

namespace kf {

struct PluginBackward;  // an op's compiled backward (registry/backward_port.hpp)

/// One backward formula of a definition (plugin ABI 2.1), copied from the plugin.
struct FormulaText {
  std::string arg;
  std::string formula;
};

struct OpDefinition {
  ParsedSchema schema;
  std::string doc;
  kf_meta_fn meta = nullptr;          // the plugin's own meta, or
  const MetaRule* rule = nullptr;     // a core rule
  std::string provenance;             // "<plugin>: <file>:<line>"
  std::string plugin;                 // the defining plugin's name
  std::vector<FormulaText> formulas;  // the backward as formulas (ABI 2.1), or
  kf_backward_fn callback = nullptr;  // as a callback (ABI 2.1)
  std::shared_ptr<PluginBackward> backward;  // compiled by the registrar's backward port
};

/// Validates a plugin's definition: namespaced name, a meta or a known rule whose argument
/// lists include this schema's. Throws KF_INVALID_ARGUMENT naming the problem.
OpDefinition check_definition(const kf_op_definition_t& def, const std::string& plugin);

/// Everything the OpDef of a defined op points to. Once published (its `def` appended to the
/// registry) it lives for the process.
struct DefinedOp {
  OpDef def{};
  std::string name, schema, doc, provenance;
  std::vector<std::string> arg_names;
  std::vector<ArgDef> args;
  std::shared_ptr<PluginBackward> backward;  // kept for the process with the op
};

/// A new OpDef (id unset) for `d`; the caller publishes it (`release()->def`) or drops it.
std::unique_ptr<DefinedOp> make_op(const OpDefinition& d, void* plugin_state);

}  // namespace kf
