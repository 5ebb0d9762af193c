// Note [Backends started on first use] is in first_use.hpp.
#include "core/first_use.hpp"

#include <atomic>

namespace kf {
namespace {

std::atomic<DeferredStarter> g_starter{nullptr};
thread_local bool t_loading = false;

}  // namespace

void set_deferred_starter(DeferredStarter start) noexcept {
  g_starter.store(start, std::memory_order_release);
}

bool deferred_pending() noexcept {
  return g_starter.load(std::memory_order_acquire) != nullptr;
}

void start_deferred_backends() {
  const DeferredStarter start = g_starter.load(std::memory_order_acquire);
  if (start != nullptr && !t_loading) start();
}

LoadingScope::LoadingScope() noexcept : outer_(!t_loading) { t_loading = true; }

LoadingScope::~LoadingScope() {
  if (outer_) t_loading = false;
}

}  // namespace kf
