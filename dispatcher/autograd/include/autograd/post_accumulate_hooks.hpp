// Post-accumulate-grad hooks (C ABI 2.9): functions a leaf's AccumulateGrad calls right after
// it accumulated the leaf's .grad in a backward (Note [Post-accumulate-grad hooks]).
#pragma once

#include <cstdint>

#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

/// Adds a hook to `leaf` (a leaf that requires grad) and returns its id (unique in the
/// process). On failure nothing is kept.
uint64_t add_post_accumulate_hook(TensorImpl& leaf, kf_post_accumulate_grad_hook_fn fn,
                                  void* user_data, kf_hook_release_fn release);
/// Removes the hook `id` of `leaf` (its release runs once no call of it is running).
void remove_post_accumulate_hook(TensorImpl& leaf, uint64_t id);
/// Calls the leaf's hooks in the order registered; a hook's failure fails here.
void run_post_accumulate_hooks(TensorImpl& leaf);

}  // namespace kf::autograd
