// The registry's view of one op (DESIGN section 5). The table of OpDefs (kOpDefs) is generated
// from ops.yaml by tools/codegen into op_table.cpp; nothing here lists ops by hand.
#pragma once

#include <cstdint>

#include "kernforge/kernforge.h"

namespace kf {

enum class ArgType : int32_t { Tensor, TensorList, Int, IntList, Float, Bool, Scalar, Dtype, Device };
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
};

struct CallArgs;
struct MetaResult;

/// Computes output shapes/dtypes, the device and the computation dtype; throws kf::Error.
using MetaFn = kf_status_t (*)(const CallArgs& args, MetaResult& out);
/// A composite or view implementation: args in schema order (defaults filled), writes outs[i].
using ImplFn = kf_status_t (*)(const kf_value_t* args, kf_tensor_t* outs);

struct OpDef {
  int32_t id;
  const char* name;
  const char* schema;
  uint64_t schema_hash;
  OpKind kind;
  uint32_t tags;
  const ArgDef* args;
  int32_t nargs;
  int32_t ntensor_args;
  int32_t nreturns;
  MetaFn meta;
  ImplFn composite;
  ImplFn view;
};

extern const int32_t kOpCount;
extern const OpDef kOpDefs[];

constexpr int32_t kMaxArgs = 16;
constexpr int32_t kMaxTensorArgs = 8;
constexpr int32_t kMaxOutputs = 4;

/// The op with `name`, or nullptr.
const OpDef* find_op(const char* name) noexcept;

inline kf_op_t to_handle(const OpDef* def) noexcept { return reinterpret_cast<kf_op_t>(def); }
/// Validates an op handle from the C ABI; throws KF_INVALID_ARGUMENT.
const OpDef& checked_op(kf_op_t op);

}  // namespace kf
