// Note [Functionality layers]
// Layers (a profiler writing Chrome traces, autograd) are checked before the backend slots, as
// in PyTorch's dispatch keys above the backend keys. g_active is a bit mask: when it is zero the
// cost of the mechanism is one relaxed load in run_op.
#include <atomic>
#include <mutex>

#include "core/error.hpp"
#include "dispatch/dispatch.hpp"
#include "dispatch/layers.hpp"

namespace kf {
namespace {

constexpr int32_t kMaxLayers = 8;
DispatchLayer g_layers[kMaxLayers];
std::atomic<int32_t> g_layer_count{0};
std::mutex g_layer_mutex;

}  // namespace

std::atomic<uint32_t> g_active_layers{0};
std::atomic<uint32_t> g_active_ungated_layers{0};

int32_t add_dispatch_layer(const DispatchLayer& layer) {
  std::lock_guard<std::mutex> lock(g_layer_mutex);
  const int32_t n = g_layer_count.load(std::memory_order_relaxed);
  if (n >= kMaxLayers) fail(KF_OUT_OF_RANGE, "too many dispatch layers (max {})", kMaxLayers);
  g_layers[n] = layer;
  g_layer_count.store(n + 1, std::memory_order_release);
  return n;
}

void set_dispatch_layer_active(int32_t layer, bool active) {
  const uint32_t bit = 1u << layer;
  const bool gated = g_layers[layer].gated;
  if (active) {
    if (!gated) g_active_ungated_layers.fetch_or(bit, std::memory_order_acq_rel);
    g_active_layers.fetch_or(bit, std::memory_order_acq_rel);
  } else {
    g_active_layers.fetch_and(~bit, std::memory_order_acq_rel);
    if (!gated) g_active_ungated_layers.fetch_and(~bit, std::memory_order_acq_rel);
  }
}

void run_layers_from(int32_t below, const CallArgs& args, CallMode mode,
                     TensorImpl* const* given, TensorImpl** results) {
  const uint32_t active = g_active_layers.load(std::memory_order_acquire);
  for (int32_t l = below - 1; l >= 0; --l) {
    if ((active & (1u << l)) != 0) {
      g_layers[l].handle(l, args, mode, given, results);
      return;
    }
  }
  run_backend(args, mode, given, results);
}

void run_op_below(int32_t layer, const CallArgs& args, CallMode mode, TensorImpl* const* given,
                  TensorImpl** results) {
  run_layers_from(layer, args, mode, given, results);
}

}  // namespace kf
