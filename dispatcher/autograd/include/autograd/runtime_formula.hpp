// Backward formulas read at run time: the formulas a plugin gives for an op it defines
// (kf_op_definition_t.backward_formulas, plugin ABI 2.1), parsed and checked once when the op is
// defined and evaluated at backward by calling ops through the dispatcher.
//
// Note [One formula grammar, two readers]
// The grammar is derivatives.yaml's (its header; tools/codegen/derivatives.py parses it for
// the core's ops and writes C++): calls of ops with one output and of the helpers the yaml
// declares, the names grad, result and the op's arguments, X.shape and X.dtype, numbers,
// True/False, int lists [a, b], keyword arguments. This reader accepts the same, plus a callee
// named with a namespace ("toy::scale(grad, factor)"), since a plugin's op may call ops
// plugins define. The two readers must agree: a change of the grammar is made in both (and in
// both headers). The helpers are not listed here: their table is generated from the yaml
// (kRuntimeHelpers, tools/codegen/gen_runtime_helpers.py), so a new helper reaches plugins by
// itself.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dispatch/call_args.hpp"
#include "registry/defined_op.hpp"
#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

class OpNode;

/// A helper of derivatives.yaml as the run time calls it (generated: runtime_helpers.cpp):
/// its signature, and the helper over normalised arguments.
struct RuntimeHelper {
  const char* name;
  const char* signature;  // "scale(Tensor self, Scalar factor) -> Tensor"
  TensorRef (*call)(const CallArgs& args);
};
extern const RuntimeHelper kRuntimeHelpers[];
extern const int32_t kRuntimeHelperCount;

struct FormulaExpr;

/// The formula of one tensor argument, checked against the op's schema.
class RuntimeFormula {
 public:
  /// Parses and checks `text`, the gradient of argument `arg` of the op `def` defines; calls
  /// may name the core's ops, the helpers, ops already defined and the ops in `pending` (the
  /// same plugin's). Throws KF_INVALID_ARGUMENT naming the plugin, the op, the argument and the
  /// column of the problem.
  RuntimeFormula(const OpDefinition& def, const std::vector<OpDefinition>& pending,
                 const std::string& arg, const std::string& text);
  ~RuntimeFormula();
  RuntimeFormula(RuntimeFormula&&) noexcept;
  RuntimeFormula& operator=(RuntimeFormula&&) noexcept;

  /// The gradient of the argument at node `n` (the op's recorded call) from `grad`.
  TensorRef evaluate(OpNode& n, TensorImpl& grad) const;

  int32_t arg_index() const noexcept { return arg_index_; }  // the argument's schema index
  /// Whether the formula reads schema argument `index` as a tensor (-1: the result): it is
  /// then saved at the call.
  bool reads(int32_t index) const noexcept;

 private:
  int32_t arg_index_ = -1;
  std::unique_ptr<FormulaExpr> root_;
  std::vector<int32_t> reads_;
};

}  // namespace kf::autograd
