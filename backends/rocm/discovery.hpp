// discovery.hpp — what the rocm plugin's init finds (vendor_discovery.hpp): the HIP runtime
// loaded (the manifest preloads libamdhip64), whether it finds an AMD GPU, and which devices
// this build's code objects can run.
//
// Note [No AMD GPU]: the plugin loads wherever the HIP runtime is installed. hipInit then fails
// (hipErrorInvalidDevice, 101, on a machine without the amdgpu kernel driver) and
// hipGetDeviceCount gives hipErrorNoDevice (100) with a count of 0: the plugin is
// KF_UNAVAILABLE with the runtime's answer and what to install, and nothing else of the runtime
// is asked. A device whose gfx target is not among KF_ROCM_ARCHITECTURES is skipped with the
// reason (its kernels would fail to launch with hipErrorNoBinaryForGpu).
#pragma once

#include <string>
#include <vector>

#include "backend.hpp"
#include "gpu_vendor.hpp"
#include "vendor_discovery.hpp"

namespace kf::cuda {

/// The gfx target of a device's gcnArchName: "gfx90a" of "gfx90a:sramecc+:xnack-".
std::string gfx_target(const std::string& gcn_arch_name);

/// Why a device of target `gfx` cannot run this build ("" when `built` holds it, with or
/// without target features such as ":xnack-"), naming the targets built and
/// KF_ROCM_ARCHITECTURES.
std::string arch_problem(const std::string& gfx, const std::vector<std::string>& built);

/// The reason the plugin is unavailable when hipInit returned `init` and hipGetDeviceCount
/// returned `count_error` with `count` devices ("" when a device was found): the runtime's
/// words, and what to install.
std::string no_device_reason(hipError_t init, hipError_t count_error, int count);

/// "5.2.21153" of HIP's 10000000 * major + 100000 * minor + patch.
std::string hip_version_text(int32_t version);

/// The targets this build's code objects hold (KF_ROCM_ARCHITECTURES, from CMake).
std::vector<std::string> built_targets();

}  // namespace kf::cuda
