// The autograd layer (Note [The autograd layer]).
#pragma once

namespace kf::autograd {

/// Registers the layer (once) and makes it active: called when a tensor first requires grad,
/// so that a process that never asks for gradients never pays for the layer.
void activate_layer();

}  // namespace kf::autograd
