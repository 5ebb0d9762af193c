// Start-up: the runtime initialises once, thread-safely, on the first call of the C ABI (or in
// kf_init with options): the core's global dependencies, plugin discovery, then every plugin.
// The loader's lock serialises that with later loads (kf_load_plugin). A start-up that runs out
// of host memory throws (KF_OUT_OF_MEMORY) and runs again on the next call (Note [A start-up
// that runs out of memory], startup.cpp).
#pragma once

#include <atomic>
#include <mutex>

#include "kernforge/kernforge.h"
#include "loader/registry_port.hpp"

namespace kf {

extern std::atomic<bool> g_runtime_ready;
/// Start-up itself; keeps `port` (static storage) for every load (Note [The loader's registry
/// port], registry_port.hpp).
void initialize_slow(const RegistryPort& port);

/// Loads plugins on first call; afterwards one acquire load. Thread-safe. Throws only when host
/// memory runs out (std::bad_alloc or kf::Error KF_OUT_OF_MEMORY); the next call tries again.
/// The C ABI calls it through its own ensure_initialized() (capi/startup.hpp), which gives the
/// port.
inline void ensure_initialized(const RegistryPort& port) {
  if (!g_runtime_ready.load(std::memory_order_acquire)) initialize_slow(port);
}

/// ensure_initialized() for C ABI functions that return no status (kf_backend_count): false
/// when start-up failed, with the thread's last error set.
bool try_initialize(const RegistryPort& port) noexcept;

/// Options from kf_init; throws KF_FAILED_PRECONDITION once initialised.
void set_init_options(const kf_init_options_t& options);

/// Serialises loading after start-up (kf_load_plugin).
std::mutex& loader_mutex();

}  // namespace kf
