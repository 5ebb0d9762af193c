// Internal glue between run_op and the functionality layers (Note [Functionality layers]).
#pragma once

#include <atomic>
#include <cstdint>

#include "dispatch/dispatch.hpp"

namespace kf {

extern std::atomic<uint32_t> g_active_layers;
/// The active layers that are not gated by layer data (DispatchLayer::gated).
extern std::atomic<uint32_t> g_active_ungated_layers;

/// Whether a layer is active (a profiler, autograd): then every op call goes through them.
inline bool any_layer_active() noexcept {
  return g_active_layers.load(std::memory_order_relaxed) != 0;
}

/// Whether an active layer would act on an op call whose only tensor is `t`: an ungated layer
/// (a profiler) acts on every call, a gated one (autograd) only where the tensor carries layer
/// data. Paths that skip the ops for speed (basic indexing in one call) take this test, so a
/// gated layer that would pass the call through costs them nothing.
inline bool layers_act_on(const TensorImpl& t) noexcept {
  if (g_active_ungated_layers.load(std::memory_order_relaxed) != 0) return true;
  return t.layer_data != nullptr && any_layer_active();
}

/// Runs the highest active layer below index `below` (8 = all), or the backend dispatch.
void run_layers_from(int32_t below, const CallArgs& args, CallMode mode,
                     TensorImpl* const* given, TensorImpl** results);

/// Dispatch to views, composites and backend kernels (below every layer).
void run_backend(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results);

}  // namespace kf
