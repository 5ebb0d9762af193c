// Note [Post-accumulate-grad hooks]
// A leaf's hooks live in its AutogradMeta, in the order registered. The engine's
// AccumulateGrad node calls them right after it set the leaf's .grad, on the thread running
// the backward, with the backward's grad mode and stream (autograd.grad accumulates nothing and
// calls none, as in PyTorch). The list is copied before the calls, each entry shared, so a hook
// may remove itself or another (a removed one is not called; its release runs once no call
// of it is running) or add one (it runs from the next backward). A hook's status other than
// KF_OK stops the backward with that status and a message naming the leaf and the hook's own
// message (an exception from a C++ hook: KF_INTERNAL); the gradients accumulated so far stay
// in .grad.
#include "autograd/post_accumulate_hooks.hpp"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "autograd/autograd_meta.hpp"
#include "core/error.hpp"

namespace kf::autograd {
namespace {

std::atomic<uint64_t> g_next_id{1};

std::string leaf_text(const TensorImpl& leaf) {
  return shape_string(leaf.shape, leaf.ndim) + " " + dtype_name(leaf.dtype);
}

void call(const PostAccumulateHook& h, TensorImpl& leaf) {
  set_last_error("");
  kf_status_t status = KF_INTERNAL;
  std::string thrown;
  try {
    status = h.fn(handle_of(&leaf), h.user_data);
  } catch (const std::exception& e) {
    thrown = e.what();
  } catch (...) {
    thrown = "an exception that is not a std::exception";
  }
  if (!thrown.empty()) {
    fail(KF_INTERNAL, "autograd: the post-accumulate-grad hook {} of a leaf ({}) threw '{}': a "
         "hook is a C function and must return a status instead", h.id, leaf_text(leaf), thrown);
  }
  if (status == KF_OK) return;
  const std::string said = last_error();
  fail(status, "autograd: the post-accumulate-grad hook {} of a leaf ({}) failed with {}: {}; "
       "backward stopped there (the gradients accumulated so far stay in .grad)", h.id,
       leaf_text(leaf), status_name(status), said.empty() ? "the hook gave no message" : said);
}

}  // namespace

uint64_t add_post_accumulate_hook(TensorImpl& leaf, kf_post_accumulate_grad_hook_fn fn,
                                  void* user_data, kf_hook_release_fn release) {
  auto h = std::make_shared<PostAccumulateHook>();
  AutogradMeta& m = ensure_meta(leaf);
  m.post_accumulate_hooks.reserve(m.post_accumulate_hooks.size() + 1);  // may throw: h empty
  h->id = g_next_id.fetch_add(1, std::memory_order_relaxed);
  h->fn = fn;
  h->user_data = user_data;
  h->release = release;
  m.post_accumulate_hooks.push_back(std::move(h));
  return m.post_accumulate_hooks.back()->id;
}

void remove_post_accumulate_hook(TensorImpl& leaf, uint64_t id) {
  AutogradMeta* m = meta_of(leaf);
  if (m != nullptr) {
    auto& hooks = m->post_accumulate_hooks;
    for (auto it = hooks.begin(); it != hooks.end(); ++it) {
      if ((*it)->id != id) continue;
      (*it)->removed = true;
      hooks.erase(it);
      return;
    }
  }
  fail(KF_NOT_FOUND, "kf_tensor_remove_post_accumulate_grad_hook: the tensor ({}) has no hook "
       "{}: it was removed already, or registered on another tensor; pass the handle "
       "kf_tensor_register_post_accumulate_grad_hook gave for this tensor", leaf_text(leaf), id);
}

void run_post_accumulate_hooks(TensorImpl& leaf) {
  const AutogradMeta* m = meta_of(leaf);
  if (m == nullptr || m->post_accumulate_hooks.empty()) return;
  const std::vector<std::shared_ptr<PostAccumulateHook>> hooks = m->post_accumulate_hooks;
  for (const auto& h : hooks) {
    if (!h->removed) call(*h, leaf);
  }
}

}  // namespace kf::autograd
