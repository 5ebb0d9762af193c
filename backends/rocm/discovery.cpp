// discovery.cpp — the HIP runtime, its versions and the AMD GPUs (discovery.hpp).
#include "discovery.hpp"

#include <cstdio>
#include <sstream>
#include <string>
#include <utility>

#include "cuda_check.hpp"
#include "library_paths.hpp"

#ifndef KF_ROCM_ARCHITECTURES
#define KF_ROCM_ARCHITECTURES "gfx90a,gfx908,gfx1030"  // set by CMakeLists.txt
#endif

namespace kf::cuda {
namespace {

Versions library_versions() {
  Versions v;
  v.runtime_built = HIP_VERSION;
  int runtime = 0;
  if (hipRuntimeGetVersion(&runtime) == hipSuccess) v.runtime = runtime;
  int driver = 0;
  if (hipDriverGetVersion(&driver) == hipSuccess) v.driver = driver;
  v.runtime_path = path_of_symbol(reinterpret_cast<const void*>(&hipRuntimeGetVersion));
  v.driver_path = loaded_library("libhsa-runtime64.so.1");
  return v;
}

void add_device(int ordinal, Discovery& out) {
  hipDeviceProp_t p{};
  const hipError_t e = hipGetDeviceProperties(&p, ordinal);
  if (e != hipSuccess) {
    out.skipped.push_back("device " + std::to_string(ordinal) + ": " + message_of(e));
    return;
  }
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = p.name;
  d.arch = gfx_target(p.gcnArchName);
  d.major = p.major;
  d.minor = p.minor;
  d.multiprocessors = p.multiProcessorCount;
  d.total_memory = p.totalGlobalMem;
  d.memory_bus_bits = p.memoryBusWidth;
  const std::string problem = arch_problem(d.arch, built_targets());
  if (!problem.empty()) {
    out.skipped.push_back("device " + std::to_string(ordinal) + " (" + d.name + ", " + d.arch +
                          "): " + problem);
    return;
  }
  out.devices.push_back(std::move(d));
}

}  // namespace

std::vector<std::string> built_targets() {
  std::vector<std::string> targets;
  std::stringstream list(KF_ROCM_ARCHITECTURES);
  for (std::string t; std::getline(list, t, ',');) {
    if (!t.empty()) targets.push_back(t);
  }
  return targets;
}

std::string gfx_target(const std::string& gcn_arch_name) {
  return gcn_arch_name.substr(0, gcn_arch_name.find(':'));
}

std::string arch_problem(const std::string& gfx, const std::vector<std::string>& built) {
  std::string names;
  for (const std::string& t : built) {
    if (gfx_target(t) == gfx) return {};  // a target built with features ("gfx90a:xnack-")
    names += (names.empty() ? "" : ", ") + t;
  }
  return "this build's kernels are for " + names + " only; rebuild with " + gfx +
         " in KF_ROCM_ARCHITECTURES";
}

std::string no_device_reason(hipError_t init, hipError_t count_error, int count) {
  if (init == hipSuccess && count_error == hipSuccess && count > 0) return {};
  std::string said = init != hipSuccess ? "hipInit: " + message_of(init) : "";
  if (count_error != hipSuccess) {
    said += (said.empty() ? "" : "; ") + std::string("hipGetDeviceCount: ") +
            message_of(count_error);
  } else if (count == 0) {
    said += (said.empty() ? "" : "; ") + std::string("hipGetDeviceCount: 0 devices");
  }
  return "no AMD GPU (" + said + "): this machine needs an AMD GPU supported by ROCm and the "
         "amdgpu kernel driver (/dev/kfd; Debian: firmware-amd-graphics and a kernel with amdgpu, "
         "or AMD's amdgpu-dkms), with the user in the render and video groups";
}

std::string hip_version_text(int32_t version) {
  return std::to_string(version / 10000000) + "." + std::to_string(version / 100000 % 100) +
         "." + std::to_string(version % 100000);
}

std::string describe_device(const DeviceInfo& d) {
  char text[320];
  std::snprintf(text, sizeof text, "%s (%s, %d CUs, %.1f GiB)", d.name.c_str(), d.arch.c_str(),
                d.multiprocessors,
                static_cast<double>(d.total_memory) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

std::string describe_libraries(const Versions& v) {
  return "HIP runtime " + hip_version_text(v.runtime) + " (" + v.runtime_path +
         "; built against " + hip_version_text(v.runtime_built) + "), HSA runtime (" +
         (v.driver_path.empty() ? std::string("not loaded") : v.driver_path) + ")";
}

Discovery discover() {
  Discovery out;
  out.versions = library_versions();
  const hipError_t init = hipInit(0);
  int count = 0;
  const hipError_t count_error = hipGetDeviceCount(&count);
  (void)hipGetLastError();
  std::string problem = no_device_reason(init, count_error, count);
  for (int i = 0; problem.empty() && i < count; ++i) add_device(i, out);
  settle(out, std::move(problem));
  return out;
}

}  // namespace kf::cuda
