// discovery.cpp — the driver, the versions and the devices (discovery.hpp).
#include "discovery.hpp"

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>
#include <utility>

#include "cuda_check.hpp"
#include "library_paths.hpp"

#ifndef KF_CUDA_MIN_ARCH
#define KF_CUDA_MIN_ARCH 80  // set by CMakeLists.txt from KF_CUDA_ARCHITECTURES
#endif

namespace kf::cuda {
namespace {

/// The loaded driver's path; "" when no libcuda.so.1 is in the process (Note [No driver]).
std::string loaded_driver() { return loaded_library("libcuda.so.1"); }

int32_t cublas_version() {
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(PATCH_LEVEL, &patch) != CUBLAS_STATUS_SUCCESS) {
    return 0;
  }
  return major * 10000 + minor * 100 + patch;
}

std::string cublas_version_text(int32_t v) {
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

Versions library_versions() {
  Versions v;
  v.runtime_built = CUDART_VERSION;
  v.blas_built = CUBLAS_VERSION;
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) v.runtime = runtime;
  v.blas = cublas_version();
  v.runtime_path = path_of_symbol(reinterpret_cast<const void*>(&cudaRuntimeGetVersion));
  v.blas_path = path_of_symbol(reinterpret_cast<const void*>(&cublasGetProperty));
  return v;
}

DeviceInfo device_info(int ordinal) {
  DeviceInfo d;
  d.ordinal = ordinal;
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, ordinal) == cudaSuccess) {
    d.name = p.name;
    d.major = p.major;
    d.minor = p.minor;
    d.multiprocessors = p.multiProcessorCount;
    d.total_memory = p.totalGlobalMem;
    d.memory_bus_bits = p.memoryBusWidth;
  }
  return d;
}

/// Adds device `ordinal` to `out.devices`, or to `out.skipped` when it is older than every
/// architecture this build has kernels for (KF_CUDA_MIN_ARCH, from KF_CUDA_ARCHITECTURES; a
/// newer one runs the PTX of the newest). Reading properties creates no CUDA context: that
/// waits for the first allocation or kernel on the device.
void add_device(int ordinal, Discovery& out) {
  DeviceInfo d = device_info(ordinal);
  if (d.major * 10 + d.minor >= KF_CUDA_MIN_ARCH) {
    out.devices.push_back(d);
    return;
  }
  out.skipped.push_back("device " + std::to_string(ordinal) + " (" + describe_device(d) +
                        "): older than sm_" + std::to_string(KF_CUDA_MIN_ARCH) +
                        ", the oldest architecture built (add it to KF_CUDA_ARCHITECTURES)");
}

}  // namespace

std::string version_problem(const Versions& v, std::vector<std::string>& warnings) {
  const std::string found = cuda_version_text(v.runtime);
  const std::string built = cuda_version_text(v.runtime_built);
  if (v.runtime / 1000 != v.runtime_built / 1000) {
    return "the CUDA runtime loaded (" + v.runtime_path + ") is " + found +
           ", the plugin was built against " + built + ": install the CUDA " +
           std::to_string(v.runtime_built / 1000) + " runtime, or point KERNFORGE_CUDA_HOME at it";
  }
  if (v.runtime < v.runtime_built) {
    warnings.push_back("the CUDA runtime loaded is " + found + ", older than the " + built +
                       " the plugin was built against");
  }
  if (v.blas / 10000 != v.blas_built / 10000) {
    return "the cuBLAS loaded (" + v.blas_path + ") is " + cublas_version_text(v.blas) +
           ", the plugin was built against " + cublas_version_text(v.blas_built) +
           ": install the cuBLAS of CUDA " + std::to_string(v.runtime_built / 1000);
  }
  return {};
}

std::string driver_problem(const Versions& v) {
  if (v.driver == 0) return {};
  if (v.driver / 1000 < v.runtime / 1000) {
    return "the NVIDIA driver (" + v.driver_path + ") supports CUDA up to " +
           cuda_version_text(v.driver) + ", the runtime is " + cuda_version_text(v.runtime) +
           ": update the driver to one for CUDA " + std::to_string(v.runtime / 1000);
  }
  return {};
}

std::string cuda_version_text(int32_t version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string describe_device(const DeviceInfo& d) {
  char text[256];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs, %.1f GiB)", d.name.c_str(), d.major,
                d.minor, d.multiprocessors,
                static_cast<double>(d.total_memory) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

std::string describe_libraries(const Versions& v) {
  return "CUDA runtime " + cuda_version_text(v.runtime) + " (" + v.runtime_path +
         "; built against " + cuda_version_text(v.runtime_built) + "), driver for CUDA " +
         cuda_version_text(v.driver) + " (" + v.driver_path + "), cuBLAS " +
         cublas_version_text(v.blas) + " (" + v.blas_path + ")";
}

Discovery discover() {
  Discovery out;
  out.versions = library_versions();
  out.versions.driver_path = loaded_driver();
  std::string problem = version_problem(out.versions, out.warnings);
  if (problem.empty() && out.versions.driver_path.empty()) {
    problem = "no CUDA driver (libcuda.so.1 not found): install the NVIDIA driver, or make the "
              "folder holding libcuda.so.1 known to the dynamic loader (ldconfig); `kernforge "
              "doctor -v` lists where it was looked for";
  }
  int driver = 0;
  if (problem.empty() && cudaDriverGetVersion(&driver) == cudaSuccess) out.versions.driver = driver;
  if (problem.empty()) problem = driver_problem(out.versions);
  int count = 0;
  if (problem.empty()) {
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      problem = "the CUDA driver reports " + message_of(e);
    } else if (count == 0) {
      problem = "the CUDA driver reports no device";
    }
  }
  for (int i = 0; problem.empty() && i < count; ++i) add_device(i, out);
  settle(out, std::move(problem));
  return out;
}

}  // namespace kf::cuda
