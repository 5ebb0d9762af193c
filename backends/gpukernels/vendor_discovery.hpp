// vendor_discovery.hpp — what each GPU backend built from these sources defines for the shared
// plugin (gpu_plugin.cpp) in its own folder: finding its driver, runtime, libraries and
// devices, its options, and the words that describe them (backends/cuda/discovery.cpp,
// backends/rocm/discovery.cpp).
#pragma once

#include <string>
#include <vector>

#include "backend.hpp"
#include "kernforge/plugin.h"

namespace kf::cuda {

struct Discovery {
  kf_status_t status = KF_OK;  // KF_UNAVAILABLE with `error` when nothing can be used
  std::string error;
  std::vector<std::string> warnings;  // versions that load but do not quite fit
  Versions versions;
  std::vector<DeviceInfo> devices;
  std::vector<std::string> skipped;  // "device 1 (Tesla K80, sm_37): <why>"
};

/// Finds the driver and runtime, checks versions and lists the usable devices.
Discovery discover();

/// Ends a discovery (vendor_discovery.cpp): KF_UNAVAILABLE with `problem` when there is one, or
/// when no device is usable (then naming why each was skipped).
void settle(Discovery& out, std::string problem);

/// Reads the backend's options (environment variables) into `b` after discover() found devices.
void configure(CudaBackend& b);

/// One line on the libraries: runtime, driver and BLAS versions and paths.
std::string describe_libraries(const Versions& v);

/// "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB)".
std::string describe_device(const DeviceInfo& d);

/// What describe adds after the devices: the options in force, "; TF32 off".
std::string describe_options(const CudaBackend& b);

}  // namespace kf::cuda
