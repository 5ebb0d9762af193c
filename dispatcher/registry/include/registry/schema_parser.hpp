// The op signature grammar of ops.yaml, parsed at run time for ops that plugins define
// (kf_op_definition_t.schema). It accepts what tools/codegen/schema.py accepts, plus a
// namespace ("toy::scale(Tensor self, float factor) -> Tensor"), and gives the same canonical
// text and hash, so a kernel built against a definition can be checked like any other. Bad input
// throws KF_INVALID_ARGUMENT naming what is wrong; the parser is fuzzed. Both parsers give the
// same argument table for every op of ops.yaml, and accept and refuse the same signatures
// (tests/codegen: test_parsers_agree.cpp, schema_cases.txt).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "registry/arg_kind.hpp"

namespace kf {

struct ParsedArg {
  std::string name;
  ArgType type = ArgType::Tensor;
  bool optional = false;
  bool kwarg_only = false;
  std::string alias;         // "a", "a!" or ""
  std::string default_text;  // as written; "" when there is none
  bool has_default = false;

  /// Tensor(a!): the op writes it (self and further written tensors of an in-place op).
  bool written() const noexcept { return !alias.empty() && alias.back() == '!'; }
};

struct ParsedSchema {
  std::string ns;    // "toy" ("" for none)
  std::string name;  // "toy::scale"
  std::vector<ParsedArg> args;
  int32_t nreturns = 0;
  std::string canonical;       // the signature rebuilt from its parts
  uint64_t hash = 0;           // FNV-1a 64 of canonical
  std::string rule_signature;  // "Tensor, float -> 1" (see MetaRule::signatures)
};

constexpr size_t kMaxSchemaLength = 4096;

/// Whose signature is parsed. The grammar is one; what differs is a rule of the op's kind: an
/// op a plugin defines is always a kernel op, and kernel ops take no Tensor[] (ops.yaml's
/// composites may; tools/codegen/schema.py checks that with the kind). Core is only for
/// comparing this parser with the generated tables: the core's ops are never parsed at run time.
enum class SchemaOrigin { Plugin, Core };

/// Parses `text`; throws kf::Error(KF_INVALID_ARGUMENT) naming the problem.
ParsedSchema parse_schema(const std::string& text, SchemaOrigin origin = SchemaOrigin::Plugin);

/// FNV-1a 64-bit hash (the schema hash of kf_kernel_desc_t).
uint64_t fnv1a64(const std::string& text) noexcept;

/// The kf_value_t of a parsed default (KF_VALUE_NONE for None or none).
kf_value_t default_value(const ParsedArg& arg);

}  // namespace kf
