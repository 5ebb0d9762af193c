// The backward formulas of the ops, by op id: generated from dispatcher/derivatives.yaml
// (tools/codegen/gen_autograd.py) into derivatives.cpp.
#pragma once

#include <cstdint>

#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

class OpNode;

/// Computes the gradients of the op's tensor arguments (by tensor ordinal) from the gradients
/// of its outputs `in` (one per output; empty where an output got none, and at least one is
/// given); an argument the node does not need stays empty.
using BackwardFn = void (*)(OpNode& n, TensorRef* in, TensorRef* grads);

struct Derivative {
  int32_t op;
  BackwardFn fn;
  uint32_t differentiable;   // bit k: tensor argument k has a formula
  uint32_t saves;            // bit i: schema argument i is saved by value
  uint32_t saves_results;    // bit k: output k is saved
  uint32_t nondiff_outputs;  // bit k: output k never requires grad
  const char* real_only;     // why the formulas hold for real dtypes only, or nullptr
};

/// An op without a gradient: never (reason nullptr), or not yet (the reason).
struct NotDifferentiable {
  int32_t op;
  const char* reason;
};

extern const Derivative kDerivatives[];
extern const int32_t kDerivativeCount;
extern const NotDifferentiable kNotDifferentiable[];
extern const int32_t kNotDifferentiableCount;

/// The formulas of op `op`, or nullptr.
const Derivative* derivative_of(int32_t op) noexcept;
/// The entry of an op without a gradient, or nullptr.
const NotDifferentiable* not_differentiable(int32_t op) noexcept;

}  // namespace kf::autograd
