// startup.hpp — the C ABI's start-up: the loader's (loader/startup.hpp), given the op
// registry's port (Note [The loader's registry port], loader/registry_port.hpp). Every kf_*
// function that needs the runtime calls these.
#pragma once

#include "loader/startup.hpp"

namespace kf {

/// The port over the dispatcher's registry (static storage).
const RegistryPort& op_registry_port() noexcept;

/// Loads plugins on first call; afterwards one acquire load (loader/startup.hpp).
inline void ensure_initialized() { ensure_initialized(op_registry_port()); }

/// ensure_initialized() for functions that return no status: false when start-up failed.
inline bool try_initialize() noexcept { return try_initialize(op_registry_port()); }

}  // namespace kf
