// Ops that plugins define (kf_registrar_t.define_op): the OpDef built from a parsed schema,
// owning its strings and argument descriptors for the life of the process.
#pragma once

#include <string>

#include "registry/op_def.hpp"
#include "registry/schema_parser.hpp"

namespace kf {

struct OpDefinition {
  ParsedSchema schema;
  std::string doc;
  kf_meta_fn meta = nullptr;          // the plugin's own meta, or
  const MetaRule* rule = nullptr;     // a core rule
  std::string provenance;             // "<plugin>: <file>:<line>"
};

/// Validates a plugin's definition: namespaced name, a meta or a known rule whose argument
/// lists include this schema's. Throws KF_INVALID_ARGUMENT naming the problem.
OpDefinition check_definition(const kf_op_definition_t& def, const std::string& plugin);

/// A new OpDef (id unset) for `d`, living for the process.
OpDef* make_op(const OpDefinition& d, void* plugin_state);

}  // namespace kf
