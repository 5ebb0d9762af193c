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

/// Runs the highest active layer below index `below` (8 = all), or the backend dispatch.
void run_layers_from(int32_t below, const CallArgs& args, CallMode mode,
                     TensorImpl* const* given, TensorImpl** results);

/// Dispatch to views, composites and backend kernels (below every layer).
void run_backend(const CallArgs& args, CallMode mode, TensorImpl* const* given,
                 TensorImpl** results);

}  // namespace kf
