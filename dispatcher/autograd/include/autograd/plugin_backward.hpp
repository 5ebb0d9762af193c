// The backward of ops plugins define (plugin ABI 2.1): formulas read at run time
// (runtime_formula.hpp) or a callback of the plugin. Autograd implements the registry's
// backward port with it (Note [The backward port], registry/backward_port.hpp): a definition's
// backward is compiled when the plugin defines the op and published, by op id, with the op.
#pragma once

#include <cstdint>

#include "autograd/derivative.hpp"
#include "registry/backward_port.hpp"

namespace kf::autograd {

/// The port the C ABI's floor hands to every Registrar.
const BackwardPort& plugin_backward_port() noexcept;

/// The formulas autograd records a plugin's op with, or nullptr when it has no backward.
const Derivative* plugin_derivative_of(int32_t op) noexcept;

/// Whether `def` is an op a plugin defined (not one of ops.yaml).
bool is_plugin_op(const OpDef& def) noexcept;

/// The error for a call of a plugin's op without a backward with an argument that requires
/// grad: names the op and where it was defined, and what the plugin and the caller can do.
[[noreturn]] void refuse_plugin_op(const OpDef& def);

}  // namespace kf::autograd
