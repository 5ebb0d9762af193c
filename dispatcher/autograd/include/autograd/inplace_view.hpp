// In-place ops on views of tensors in the graph (Note [In-place ops on views]).
#pragma once

#include <memory>

#include "autograd/autograd_meta.hpp"
#include "dispatch/call_args.hpp"

namespace kf::autograd {

/// A recorded view op's output `out` (meta m) of `self`: a view of self's base, one step further
/// (nothing where the op copied, as reshape may).
void note_view(const CallArgs& a, TensorImpl& self, const TensorImpl& out, AutogradMeta& m);

/// Refuses an in-place write through a view of a leaf that requires grad.
void check_view_write(const OpDef& def, const AutogradMeta& m);

/// After `fn` (the node of an in-place op) wrote the view of meta m: the view's base gets a new
/// history (a CopySlices node); the view's grad_fn is made again from it when next used.
void rebase_history(AutogradMeta& m, std::shared_ptr<Node> fn);

/// Makes a view's grad_fn again, by its view ops on its base, where the base got a new
/// history since it was made (nothing otherwise).
void refresh_view(AutogradMeta& m);

}  // namespace kf::autograd
