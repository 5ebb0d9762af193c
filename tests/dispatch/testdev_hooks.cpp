#include "testdev_hooks.hpp"

#include <dlfcn.h>

#include <string>

namespace kf::testdev {
namespace {

std::atomic<long long> g_own_live[2];
std::atomic<long long> g_own_add{0}, g_own_linear{0}, g_own_scale{0}, g_own_fallback{0},
    g_own_pinned{0}, g_own_pinned_total{0};
std::atomic<int> g_own_delay{0};
std::atomic<bool> g_own_hold{false};
std::atomic<void*> g_own_last_stream{nullptr};

template <class T>
void find(T*& slot, const char* name) {
  const std::string symbol = std::string(KF_TESTDEV_HOOK_PREFIX) + name;
  if (void* p = dlsym(RTLD_DEFAULT, symbol.c_str())) slot = static_cast<T*>(p);
}

}  // namespace

Hooks& hooks() {
  static Hooks h{g_own_live,   &g_own_add,          &g_own_linear, &g_own_scale, &g_own_fallback,
                 &g_own_pinned, &g_own_pinned_total, &g_own_delay,  &g_own_hold,
                 &g_own_last_stream};
  return h;
}

void find_hooks() {
  Hooks& h = hooks();
  find(h.live, "live_allocations");
  find(h.add_calls, "add_calls");
  find(h.linear_calls, "linear_calls");
  find(h.scale_calls, "scale_calls");
  find(h.fallback_calls, "fallback_calls");
  find(h.pinned_live, "pinned_live");
  find(h.pinned_total, "pinned_total");
  find(h.kernel_delay_ms, "kernel_delay_ms");
  find(h.hold, "hold");
  find(h.last_kernel_stream, "last_kernel_stream");
}

}  // namespace kf::testdev
