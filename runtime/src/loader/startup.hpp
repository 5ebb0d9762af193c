// Start-up: the runtime initialises once, thread-safely, on the first call of the C ABI (or in
// kf_init with options): the core's global dependencies, plugin discovery, then every plugin.
// The loader's lock serialises that with later loads (kf_load_plugin).
#pragma once

#include <atomic>
#include <mutex>

#include "kernforge/kernforge.h"

namespace kf {

extern std::atomic<bool> g_runtime_ready;
void initialize_slow();

/// Loads plugins on first call; afterwards one acquire load. Thread-safe.
inline void ensure_initialized() {
  if (!g_runtime_ready.load(std::memory_order_acquire)) initialize_slow();
}

/// Options from kf_init; throws KF_FAILED_PRECONDITION once initialised.
void set_init_options(const kf_init_options_t& options);

/// Serialises loading after start-up (kf_load_plugin).
std::mutex& loader_mutex();

}  // namespace kf
