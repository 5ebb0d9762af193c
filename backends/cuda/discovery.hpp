// discovery.hpp — what init finds: the driver, the runtime and cuBLAS loaded, whether their
// versions fit the ones the plugin was built against, and the devices.
//
// Note [No driver]: the manifest preloads libcuda.so.1 as an optional library, so the loader
// looks for the driver with its own trusted search (never the current directory) before cudart
// would dlopen it by name. discover() then asks the process whether a libcuda.so.1 is loaded
// (dlopen RTLD_NOLOAD): when none is, the machine has no usable driver and the plugin is
// unavailable with "no CUDA driver (libcuda.so.1 not found)", without calling the runtime.
#pragma once

#include <string>
#include <vector>

#include "backend.hpp"
#include "kernforge/plugin.h"
#include "vendor_discovery.hpp"

namespace kf::cuda {

/// discover() (vendor_discovery.hpp) finds the driver, checks versions and lists the usable
/// devices (see the Note).

/// Why the runtime or cuBLAS loaded cannot serve this build ("" when they can): another major
/// than the one built against, naming both and the file. `warnings` gets what loads but is
/// older than the build (an older minor).
std::string version_problem(const Versions& v, std::vector<std::string>& warnings);

/// Why the driver cannot run the runtime ("" when it can, or when its version is unknown): it
/// supports an older CUDA major than the runtime's.
std::string driver_problem(const Versions& v);

/// "13.0" of CUDA's 1000 * major + 10 * minor.
std::string cuda_version_text(int32_t version);

}  // namespace kf::cuda
