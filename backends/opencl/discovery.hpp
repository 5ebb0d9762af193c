// discovery.hpp — the OpenCL platforms and devices this process may use.
//
// Every device of every platform the ICD loader lists, in platform then device order, is a
// candidate; KERNFORGE_OPENCL_PLATFORM and KERNFORGE_OPENCL_DEVICE narrow them (an index, or a
// case-insensitive part of the name: "pocl", "1"; a value that chooses nothing, such as "-1",
// is an error naming the choices: device_filter.hpp). A candidate is used when it has OpenCL 2.0+
// and coarse-grained SVM buffers (the ABI passes plain pointers, so memory must be SVM);
// otherwise it is skipped with the reason, which `kernforge doctor` shows when no device is left.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CL/cl.h>

namespace kf::opencl {

struct DeviceInfo {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platform_name, platform_version;
  std::string name, version, driver_version;
  cl_ulong global_memory = 0, max_allocation = 0, local_memory = 0;
  cl_uint compute_units = 0;
  size_t max_work_group = 1;
  bool fp64 = false;
  bool cpu = false;  // CL_DEVICE_TYPE_CPU
  cl_device_svm_capabilities svm = 0;
};

struct Discovery {
  std::vector<DeviceInfo> devices;    // usable, in order: kernforge device i = devices[i]
  std::vector<std::string> skipped;   // "<platform> / <device>: <why>"
  std::string error;                  // set when the platforms could not be listed at all, or
                                      // a filter variable chose nothing (then no devices)
};

/// Lists the platforms and devices, applies the filters and the requirements.
Discovery discover();

/// One line per device for describe(): "<device> (<version>, <n> CUs, <GiB> GiB, fp64)".
std::string describe_device(const DeviceInfo& d);

}  // namespace kf::opencl
