// The runtime's process-wide state: initialisation (once, thread-safe, on first use or through
// kf_init), the backends the loader found, and the load report.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "kernforge/kernforge.h"
#include "loader/backend.hpp"

namespace kf {

extern std::atomic<bool> g_runtime_ready;
void initialize_slow();

/// Loads plugins on first call; afterwards one acquire load. Thread-safe.
inline void ensure_initialized() {
  if (!g_runtime_ready.load(std::memory_order_acquire)) initialize_slow();
}

/// Number of backends known so far (every state; does not initialise) and one by index
/// (nullptr when out of range).
int32_t backend_count() noexcept;
Backend* backend_by_index(int32_t index) noexcept;

/// Options from kf_init; throws KF_FAILED_PRECONDITION once initialised.
void set_init_options(const kf_init_options_t& options);

/// Serialises loading after start-up (kf_load_plugin).
std::mutex& loader_mutex();

}  // namespace kf
