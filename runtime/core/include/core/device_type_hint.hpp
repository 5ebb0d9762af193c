// device_type_hint.hpp — why a device type name is unknown, in the words of the floor that
// knows: a plugin that declares the type but did not load (KERNFORGE_OPENCL_DEVICE=-1 leaves the
// opencl backend unavailable, and "opencl" is then no device type). The device-name parser of
// this floor cannot call the loader (a floor above), so the loader registers the function, as it
// does the starter of core/first_use.hpp. Thread safety: any thread (one atomic pointer).
#pragma once

#include <string>

namespace kf {

/// The loader's word on `type_name`: "" when no plugin it knows declares that device type.
using DeviceTypeHint = std::string (*)(const std::string& type_name);

void set_device_type_hint(DeviceTypeHint hint) noexcept;

/// What the registered function says of `type_name`, "" when none is registered.
std::string device_type_hint(const std::string& type_name);

}  // namespace kf
