// The tree of a run-time backward formula (autograd/runtime_formula.hpp): what the parser
// makes, the checker binds to the op's arguments and callees, and the evaluator walks.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "registry/arg_kind.hpp"
#include "registry/op_def.hpp"

namespace kf::autograd {

struct RuntimeHelper;

/// A parameter of a callee, as a call is checked against it.
struct CalleeParam {
  std::string name;
  ArgType type = ArgType::Tensor;
  bool optional = false;
  bool has_default = false;
};

/// What a call calls: a helper of derivatives.yaml, or an op, found by name at its first call.
struct Callee {
  std::string name;
  std::vector<CalleeParam> params;
  const RuntimeHelper* helper = nullptr;
  const OpDef* helper_def = nullptr;         // the helper's arguments, for normalize_args
  mutable std::atomic<const OpDef*> op{nullptr};
};

struct FormulaExpr {
  enum class Kind { Number, Bool, Name, Grad, Result, Arg, Shape, Dtype, List, Call };
  Kind kind = Kind::Number;
  size_t pos = 0;            // where it starts in the formula (0-based)
  std::string text;          // the number, the name or the callee as written
  std::string attr;          // shape / dtype, while parsed
  int32_t index = -1;        // Arg, Shape, Dtype: the schema index (-1: the result)
  bool is_float = false;     // Number
  double f = 0;
  int64_t i = 0;
  bool b = false;            // Bool
  std::vector<FormulaExpr> items;  // List; Call: positional while parsed, then by parameter
  std::vector<bool> given;         // Call: which parameters the call gives
  std::vector<std::string> keyword_names;   // Call, while parsed
  std::vector<FormulaExpr> keyword_values;  // Call, while parsed
  std::shared_ptr<const Callee> callee;     // Call
};

/// A mistake in a formula at `pos` (0-based); RuntimeFormula turns it into a kf::Error that
/// names the plugin, the op and the argument.
struct FormulaProblem {
  size_t pos;
  std::string what;
};

/// Parses `text` (the grammar of Note [One formula grammar, two readers]); throws
/// FormulaProblem.
FormulaExpr parse_formula(const std::string& text);

}  // namespace kf::autograd
