#include "discovery.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <CL/cl_ext.h>

#include "cl_status.hpp"
#include "device_filter.hpp"

namespace kf::opencl {
namespace {

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string s(size, '\0');
  if (clGetPlatformInfo(p, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
  s.resize(std::strlen(s.c_str()));
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string s(size, '\0');
  if (clGetDeviceInfo(d, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
  s.resize(std::strlen(s.c_str()));
  return s;
}

template <class V>
V device_value(cl_device_id d, cl_device_info what) {
  V v{};
  if (clGetDeviceInfo(d, what, sizeof v, &v, nullptr) != CL_SUCCESS) return V{};
  return v;
}

/// The OpenCL major version in a CL_DEVICE_VERSION string ("OpenCL 3.0 PoCL ..." -> 3).
int major_version(const std::string& version) {
  int major = 0, minor = 0;
  return std::sscanf(version.c_str(), "OpenCL %d.%d", &major, &minor) == 2 ? major : 0;
}

DeviceInfo read_device(cl_platform_id p, cl_device_id d) {
  DeviceInfo info;
  info.platform = p;
  info.device = d;
  info.platform_name = platform_string(p, CL_PLATFORM_NAME);
  info.platform_version = platform_string(p, CL_PLATFORM_VERSION);
  info.name = device_string(d, CL_DEVICE_NAME);
  info.version = device_string(d, CL_DEVICE_VERSION);
  info.driver_version = device_string(d, CL_DRIVER_VERSION);
  info.global_memory = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.max_allocation = device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.local_memory = device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
  info.compute_units = device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.max_work_group = std::max<size_t>(1, device_value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  info.fp64 = device_value<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  info.svm = device_value<cl_device_svm_capabilities>(d, CL_DEVICE_SVM_CAPABILITIES);
  info.cpu = (device_value<cl_device_type>(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
  return info;
}

/// Empty when the device can serve the backend, else why not.
std::string unusable_because(const DeviceInfo& d) {
  if (major_version(d.version) < 2) {
    return "OpenCL 2.0 or newer is needed for shared virtual memory (it reports '" + d.version +
           "')";
  }
  if ((d.svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) == 0) {
    return "no coarse-grained SVM buffers (CL_DEVICE_SVM_CAPABILITIES lacks "
           "CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)";
  }
  return "";
}

void add_platform(Discovery& out, cl_platform_id p, const Filter& filter,
                  std::vector<std::string>& names) {
  cl_uint count = 0;
  const cl_int e = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (e != CL_SUCCESS || count == 0) {
    out.skipped.push_back(platform_string(p, CL_PLATFORM_NAME) + ": no devices (" +
                          cl_error_name(e) + ")");
    return;
  }
  std::vector<cl_device_id> ids(count);
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr) != CL_SUCCESS) return;
  for (cl_device_id d : ids) {
    DeviceInfo info = read_device(p, d);
    const size_t index = names.size();
    names.push_back(info.name);
    const std::string label = info.platform_name + " / " + info.name;
    if (!filter.takes(index, info.name)) {
      out.skipped.push_back(label + ": left out by " + filter.variable);
      continue;
    }
    const std::string why = unusable_because(info);
    if (!why.empty()) {
      out.skipped.push_back(label + ": " + why);
      continue;
    }
    out.devices.push_back(std::move(info));
  }
}

/// Makes `out` say why nothing is used when a filter chose nothing it could.
void check_filter(Discovery& out, const Filter& filter, const std::vector<std::string>& names,
                  const char* what) {
  const std::string problem = filter.problem(names, what);
  if (problem.empty() || !out.error.empty()) return;
  out.devices.clear();
  out.error = "no usable OpenCL device: " + problem;
}

}  // namespace

Discovery discover() {
  Discovery out;
  cl_uint count = 0;
  const cl_int e = clGetPlatformIDs(0, nullptr, &count);
  if (e != CL_SUCCESS || count == 0) {
    out.error = e == CL_SUCCESS || e == CL_PLATFORM_NOT_FOUND_KHR
                    ? "no OpenCL platform is installed (the ICD loader found no driver in "
                      "/etc/OpenCL/vendors; Debian: pocl-opencl-icd for the CPU, or a GPU "
                      "vendor's ICD)"
                    : cl_failure("clGetPlatformIDs", e);
    return out;
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  const Filter platform_filter = read_filter("KERNFORGE_OPENCL_PLATFORM");
  const Filter device_filter = read_filter("KERNFORGE_OPENCL_DEVICE");
  std::vector<std::string> platform_names, device_names;
  for (size_t i = 0; i < platforms.size(); ++i) {
    const std::string name = platform_string(platforms[i], CL_PLATFORM_NAME);
    platform_names.push_back(name);
    if (!platform_filter.takes(i, name)) {
      out.skipped.push_back(name + ": left out by KERNFORGE_OPENCL_PLATFORM");
      continue;
    }
    add_platform(out, platforms[i], device_filter, device_names);
  }
  check_filter(out, platform_filter, platform_names, "platform");
  check_filter(out, device_filter, device_names, "device");
  return out;
}

std::string describe_device(const DeviceInfo& d) {
  char memory[32];
  std::snprintf(memory, sizeof memory, "%.1f GiB",
                static_cast<double>(d.global_memory) / (1024.0 * 1024.0 * 1024.0));
  std::string svm = "coarse";
  if ((d.svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0) svm += "+fine";
  return d.name + " (" + d.version + ", " + std::to_string(d.compute_units) + " CUs, " + memory +
         (d.fp64 ? ", fp64" : "") + ", SVM " + svm + ")";
}

}  // namespace kf::opencl
