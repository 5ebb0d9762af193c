// device_type_hints.hpp — the loader's answer to core/device_type_hint.hpp: for a device type
// name no backend serves, the plugins that declare it and why they did not load, from the
// published records (plugin_records.hpp), so that "unknown device 'opencl'" says why.
#pragma once

#include <string>

namespace kf {

/// "plugin 'opencl' declares device type 'opencl' but is unavailable: <reason>" for each record
/// of that device type that is not loaded, joined by "; "; "" when there is none.
std::string device_type_hints(const std::string& type_name);

/// Registers device_type_hints with the core (idempotent; publish_record calls it).
void install_device_type_hints() noexcept;

}  // namespace kf
