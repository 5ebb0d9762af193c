// backward_port.hpp — what the registrar needs of autograd for the backward of the ops plugins
// define (plugin ABI 2.1), declared by the registry.
//
// Note [The backward port]
// The registry stands below autograd and never includes it, yet a definition's backward
// formulas must be checked when the plugin defines the op (so that a bad formula refuses the
// plugin, with its place, before anything of it is published), and the compiled backward must
// become the op's when the op is published. Autograd implements this port
// (autograd/plugin_backward.hpp); the C ABI's floor, which stands on both, hands it to each
// Registrar it makes. A Registrar without the port refuses a definition that has a backward.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "registry/defined_op.hpp"

namespace kf {

struct BackwardPort {
  /// Checks and compiles the backward of `def` (formulas or callback). `pending`: the ops the
  /// same plugin defined before it, which a formula may call. Throws KF_INVALID_ARGUMENT naming
  /// the plugin, the op, the argument and the place of the problem.
  std::shared_ptr<PluginBackward> (*compile)(const OpDefinition& def,
                                             const std::vector<OpDefinition>& pending);
  /// Makes `backward` the backward of op `op` (just published). Never fails: the caller keeps
  /// `backward` alive for the process (DefinedOp::backward).
  void (*publish)(int32_t op, PluginBackward* backward) noexcept;
};

}  // namespace kf
