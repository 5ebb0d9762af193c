// The services the host hands to plugins (kf_host_api_t): logging, error reporting, op lookup,
// and the file stores (ABI 1.3, plugin_store.hpp).
#pragma once

#include "kernforge/plugin.h"

namespace kf {

/// The host API table (static storage, valid for the life of the process).
const kf_host_api_t* host_api() noexcept;

}  // namespace kf
