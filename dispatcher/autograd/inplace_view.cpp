// Note [In-place ops on views]
// A view made by a recorded view op (its input requires grad) remembers its base (the tensor at
// the root of its chain of views, never a view itself) and the view ops from the base to it
// (ViewOf). When an in-place op writes such a view, the op records its node `fn` as usual (its
// edge 0 to the view's grad_fn, its other edges to its other tensor arguments), and then the
// base, whose elements changed, gets a new history: a CopySlices node, whose edge 0 is the
// base's history before the write and whose other edges are fn's. Its backward copies the
// base's gradient, replays the view ops on the copy to find the view's part, runs fn on that
// part and writes fn's gradient of the view (before the write) into the part: the rest of the
// base's gradient passes through unchanged.
// The base's `history` count goes up with every new history (an in-place op on the base itself
// too); a view whose count is older has its grad_fn made again, when next used, by replaying its
// view ops on the base under grad mode: a view of the base's new history, with the formulas of
// the view ops. A view of a view, and every other view of the same base, follows the same way.
// A leaf that requires grad cannot be written through a view, as it cannot be written directly.
// Views a non-recorded call made (of a tensor that did not require grad, or under no_grad) are
// not followed: a write into them gives the view alone a history.
#include "autograd/inplace_view.hpp"

#include "autograd/copy_slices.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/view_of.hpp"
#include "core/error.hpp"

namespace kf::autograd {
namespace {

TensorRef shared(TensorImpl& t) {
  retain(&t);
  return TensorRef(&t);
}

}  // namespace

void note_view(const CallArgs& a, TensorImpl& self, const TensorImpl& out, AutogradMeta& m) {
  if (out.storage != self.storage) return;
  auto v = std::make_shared<ViewOf>();
  const AutogradMeta* parent = meta_of(self);
  if (parent != nullptr && parent->view) {
    v->base = shared(*parent->view->base);
    v->steps = parent->view->steps;
  } else {
    v->base = shared(self);
  }
  v->steps.push_back(std::make_shared<const ViewStep>(a));
  m.history = ensure_meta(*v->base).history;
  m.view = std::move(v);
}

void check_view_write(const OpDef& def, const AutogradMeta& m) {
  if (!m.view) return;
  const AutogradMeta* b = meta_of(*m.view->base);
  if (b != nullptr && b->requires_grad && !b->grad_fn) {
    fail(KF_INVALID_ARGUMENT, "autograd: {}: a view of a leaf tensor that requires grad is "
         "written in place; write it under no_grad (as an optimizer does) or write a view of "
         "a clone of the leaf", def.name);
  }
}

void rebase_history(AutogradMeta& m, std::shared_ptr<Node> fn) {
  TensorImpl& base = *m.view->base;
  AutogradMeta& b = ensure_meta(base);
  const Edge before = b.grad_fn ? Edge{b.grad_fn, b.output_nr} : Edge{};
  b.grad_fn = make_node<CopySlices>(base, before, m.view->steps, std::move(fn));
  b.output_nr = 0;
  ++b.history;
}

void refresh_view(AutogradMeta& m) {
  const AutogradMeta* b = meta_of(*m.view->base);
  if (b == nullptr || b->history == m.history) return;
  const uint32_t history = b->history;
  TensorRef fresh;
  {
    GradModeGuard on(true);
    fresh = replay(m.view->steps, *m.view->base);
  }
  const AutogradMeta* f = meta_of(*fresh);
  if (f == nullptr || !f->grad_fn) return;
  m.grad_fn = f->grad_fn;
  m.output_nr = f->output_nr;
  m.history = history;
}

}  // namespace kf::autograd
