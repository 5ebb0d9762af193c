// The two schema parsers agree on every op of ops.yaml. tools/codegen/schema.py reads ops.yaml at
// build time and writes the core's op table (kBuiltinOps, op_table.cpp); the registry's parser
// (dispatcher/registry/schema_parser.cpp) reads the signatures of ops plugins define at run time
// and builds their tables with make_op. Here the run-time side reads each generated op's
// signature text and builds the table a defined op would get; both tables must be equal field by
// field: names, kinds, optional, keyword-only, defaults with their values, written arguments,
// the numbers of arguments, tensors and returns, the schema hash (the canonical text) and the
// argument list the op's meta rule serves. Any change of one side alone fails here.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>

#include "registry/defined_op.hpp"
#include "registry/op_def.hpp"
#include "registry/schema_parser.hpp"

namespace kf {
namespace {

// A kf_value_t as text, exact (floats in hex): "none", "int -1", "scalar i64 1", ...
std::string value_text(const kf_value_t& v) {
  char buf[64];
  switch (v.tag) {
    case KF_VALUE_NONE: return "none";
    case KF_VALUE_INT: std::snprintf(buf, sizeof buf, "int %" PRId64, v.v.i); return buf;
    case KF_VALUE_FLOAT: std::snprintf(buf, sizeof buf, "float %a", v.v.f); return buf;
    case KF_VALUE_BOOL: return v.v.b ? "bool true" : "bool false";
    case KF_VALUE_SCALAR:
      if (v.v.scalar.tag == KF_SCALAR_BOOL) return v.v.scalar.v.b ? "scalar true" : "scalar false";
      if (v.v.scalar.tag == KF_SCALAR_INT64) {
        std::snprintf(buf, sizeof buf, "scalar i64 %" PRId64, v.v.scalar.v.i64);
      } else {
        std::snprintf(buf, sizeof buf, "scalar f64 %a", v.v.scalar.v.f64);
      }
      return buf;
    case KF_VALUE_INT_LIST: {
      std::string out = "int[] [";
      for (int32_t i = 0; i < v.v.ints.len; ++i) {
        out += (i ? ", " : "") + std::to_string(v.v.ints.data[i]);
      }
      return out + "]";
    }
    default: return "tag " + std::to_string(v.tag);
  }
}

// The table a plugin's op with this signature gets (defined_op.cpp), from the run-time parser.
std::unique_ptr<DefinedOp> runtime_table(const char* schema) {
  OpDefinition d;
  d.schema = parse_schema(schema, SchemaOrigin::Core);
  return make_op(d, nullptr);
}

void expect_same_arg(const OpDef& op, int32_t j, const ArgDef& gen, const ArgDef& run) {
  SCOPED_TRACE(std::string(op.name) + ", argument " + std::to_string(j));
  EXPECT_STREQ(gen.name, run.name);
  EXPECT_EQ(gen.type, run.type) << arg_type_name(gen.type) << " vs " << arg_type_name(run.type);
  EXPECT_EQ(gen.optional, run.optional);
  EXPECT_EQ(gen.kwarg_only, run.kwarg_only);
  EXPECT_EQ(gen.has_default, run.has_default);
  EXPECT_EQ(value_text(gen.default_value), value_text(run.default_value));
  EXPECT_EQ(gen.written, run.written);
}

// The meta rule of ops.yaml whose function `op` runs, or nullptr.
const MetaRule* rule_of(const OpDef& op) {
  for (int32_t i = 0; i < kMetaRuleCount; ++i) {
    if (op.meta != nullptr && kMetaRules[i].fn == op.meta) return &kMetaRules[i];
  }
  return nullptr;
}

// Whether "a -> 1|b -> 1" lists `one`.
bool lists(const std::string& signatures, const std::string& one) {
  return ("|" + signatures + "|").find("|" + one + "|") != std::string::npos;
}

TEST(ParsersAgree, EveryOpOfOpsYamlHasTheSameTableFromBothParsers) {
  ASSERT_GT(kBuiltinOpCount, 50);
  for (int32_t i = 0; i < kBuiltinOpCount; ++i) {
    const OpDef& gen = kBuiltinOps[i];
    SCOPED_TRACE(gen.schema);
    std::unique_ptr<DefinedOp> run;
    ASSERT_NO_THROW(run = runtime_table(gen.schema)) << "the run-time parser refuses it";
    const OpDef& r = run->def;
    EXPECT_STREQ(gen.name, r.name);
    EXPECT_EQ(gen.schema_hash, r.schema_hash) << "canonical text: " << r.schema;
    EXPECT_EQ(gen.nreturns, r.nreturns);
    EXPECT_EQ(gen.ntensor_args, r.ntensor_args);
    ASSERT_EQ(gen.nargs, r.nargs);
    for (int32_t j = 0; j < gen.nargs; ++j) expect_same_arg(gen, j, gen.args[j], r.args[j]);
    if (const MetaRule* rule = rule_of(gen)) {
      EXPECT_TRUE(lists(rule->signatures, parse_schema(gen.schema, SchemaOrigin::Core)
                                              .rule_signature))
          << "meta rule " << rule->name << " serves " << rule->signatures;
    }
  }
}

// What the comparison above covers, so that it cannot pass by comparing nothing: ops.yaml has
// defaults of every value kind, keyword-only and optional arguments, written arguments (the
// self of copy_ and fill_) and Tensor[] arguments. (No op of ops.yaml returns more than one
// tensor yet; schema_cases.txt has such signatures.)
TEST(ParsersAgree, TheComparisonCoversEveryFieldOfTheTable) {
  int32_t defaults[KF_VALUE_TENSOR_LIST + 1] = {};
  int32_t kwonly = 0, optional = 0, written = 0, lists_of_tensors = 0;
  for (int32_t i = 0; i < kBuiltinOpCount; ++i) {
    const OpDef& op = kBuiltinOps[i];
    for (int32_t j = 0; j < op.nargs; ++j) {
      const ArgDef& a = op.args[j];
      if (a.has_default) ++defaults[a.default_value.tag];
      kwonly += a.kwarg_only;
      optional += a.optional;
      written += a.written;
      lists_of_tensors += a.type == ArgType::TensorList;
    }
  }
  for (int32_t tag : {KF_VALUE_NONE, KF_VALUE_INT, KF_VALUE_FLOAT, KF_VALUE_BOOL, KF_VALUE_SCALAR,
                      KF_VALUE_INT_LIST}) {
    EXPECT_GT(defaults[tag], 0) << "no default with kf_value_t tag " << tag;
  }
  EXPECT_GT(kwonly, 0);
  EXPECT_GT(optional, 0);
  EXPECT_GE(written, 2);
  EXPECT_GT(lists_of_tensors, 0);
}

// What is written: the self of an in-place op and any further tensors it returns after self,
// or the tensor lists of an op that returns nothing; never anything else.
TEST(ParsersAgree, OnlyWhatAnOpReturnsOrItsListsAreWritten) {
  int32_t several = 0, lists = 0;
  for (int32_t i = 0; i < kBuiltinOpCount; ++i) {
    const OpDef& op = kBuiltinOps[i];
    const bool inplace = std::string(op.name).back() == '_';
    int32_t written = 0;
    for (int32_t j = 0; j < op.nargs; ++j) {
      const ArgDef& a = op.args[j];
      if (inplace && j == 0) {
        EXPECT_TRUE(a.written) << op.name;
      }
      if (!a.written) continue;
      ++written;
      const ArgType want = op.nreturns == 0 ? ArgType::TensorList : ArgType::Tensor;
      EXPECT_TRUE(a.type == want && (inplace || op.nreturns == 0)) << op.name << ", " << a.name;
    }
    if (inplace) {
      EXPECT_EQ(written, op.nreturns) << op.name << " returns what it writes";
    }
    several += inplace && written > 1;
    lists += op.nreturns == 0;
  }
  EXPECT_GT(several, 0) << "no in-place op writes several tensors (adamw_step_)";
  EXPECT_GT(lists, 0) << "no op writes tensor lists (fused_adamw)";
}

}  // namespace
}  // namespace kf
