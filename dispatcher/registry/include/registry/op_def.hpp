// The registry's view of one op: the op registry holds every op with its dense id,
// schema, shape rule and kind. The core's own ops come from the table generated
// from ops.yaml (kBuiltinOps); ops defined by plugins are added at run time (op_registry.hpp).
// Nothing here lists ops by hand.
#pragma once

#include <cstdint>

#include "kernforge/kernforge.h"
#include "kernforge/plugin.h"
#include "registry/arg_kind.hpp"

namespace kf {

enum class OpKind : int32_t { Kernel, View, Composite };
enum class CallMode : int32_t { Functional, Out, Inplace };

enum : uint32_t {
  kTagPointwise = 1u << 0,
  kTagReduction = 1u << 1,
  kTagFactory = 1u << 2,
  kTagLinalg = 1u << 3,
};

struct ArgDef {
  const char* name;
  ArgType type;
  bool optional;
  bool kwarg_only;
  bool has_default;
  kf_value_t default_value;  // KF_VALUE_NONE when the default is None or there is none
  bool written;              // Tensor(a!): the self of an in-place op (the core writes it)
};

struct CallArgs;
struct MetaResult;
class TensorRef;

/// Computes output shapes/dtypes, the device and the computation dtype; throws kf::Error.
using MetaFn = void (*)(const CallArgs& args, MetaResult& out);
/// A composite or view: writes one new reference per return into outs; throws kf::Error.
using ImplFn = void (*)(const CallArgs& args, TensorRef* outs);

struct OpDef {
  int32_t id;
  const char* name;        // "add", "toy::scale"
  const char* schema;
  const char* doc;
  uint64_t schema_hash;    // FNV-1a of the canonical signature
  OpKind kind;
  uint32_t tags;
  const ArgDef* args;
  int32_t nargs;
  int32_t ntensor_args;
  int32_t nreturns;
  MetaFn meta;             // kernel ops, composites a backend may override; else nullptr
  ImplFn impl;             // composites and views
  kf_meta_fn plugin_meta;  // an op defined by a plugin with its own meta; else nullptr
  void* plugin_state;      // handed to plugin_meta
  const char* provenance;  // "core", or "<plugin>: <file>:<line>" of the definition
};

/// A shape rule of ops.yaml that ops defined by plugins may name (kf_op_definition_t.meta_rule).
struct MetaRule {
  const char* name;
  MetaFn fn;
  const char* signatures;  // the argument lists it serves, "Tensor, Scalar -> 1|..."
};

/// Generated from ops.yaml (op_table.cpp).
extern const int32_t kBuiltinOpCount;
extern const OpDef kBuiltinOps[];
extern const int32_t kMetaRuleCount;
extern const MetaRule kMetaRules[];

constexpr int32_t kMaxArgs = 16;
constexpr int32_t kMaxTensorArgs = 8;
constexpr int32_t kMaxOutputs = 4;
/// The most ops the registry holds, built-in and defined by plugins together.
constexpr int32_t kMaxOps = 2048;

}  // namespace kf
