// discovery.cpp — see discovery.hpp.
#include "discovery.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>

#include "ze_result.hpp"

namespace kf::xpu {
namespace {

std::vector<ze_driver_handle_t> drivers_of(const ZeApi& ze) {
  uint32_t count = 0;
  check(ze.zeDriverGet(&count, nullptr), "zeDriverGet", "xpu: listing Level Zero drivers");
  std::vector<ze_driver_handle_t> handles(count);
  if (count > 0) {
    check(ze.zeDriverGet(&count, handles.data()), "zeDriverGet",
          "xpu: listing Level Zero drivers");
    handles.resize(count);
  }
  return handles;
}

std::vector<ze_device_handle_t> devices_of(const ZeApi& ze, ze_driver_handle_t driver) {
  uint32_t count = 0;
  check(ze.zeDeviceGet(driver, &count, nullptr), "zeDeviceGet", "xpu: listing devices");
  std::vector<ze_device_handle_t> handles(count);
  if (count > 0) {
    check(ze.zeDeviceGet(driver, &count, handles.data()), "zeDeviceGet", "xpu: listing devices");
    handles.resize(count);
  }
  return handles;
}

DriverInfo driver_info(const ZeApi& ze, ze_driver_handle_t handle) {
  DriverInfo info;
  info.handle = handle;
  ze_driver_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
  check(ze.zeDriverGetProperties(handle, &props), "zeDriverGetProperties",
        "xpu: reading a driver's properties");
  info.driver_version = props.driverVersion;
  check(ze.zeDriverGetApiVersion(handle, &info.api_version), "zeDriverGetApiVersion",
        "xpu: reading a driver's API version");
  return info;
}

uint64_t memory_of(const ZeApi& ze, ze_device_handle_t device) {
  uint32_t count = 0;
  check(ze.zeDeviceGetMemoryProperties(device, &count, nullptr), "zeDeviceGetMemoryProperties",
        "xpu: reading a device's memory");
  std::vector<ze_device_memory_properties_t> props(count);
  for (auto& p : props) p.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  if (count > 0) {
    check(ze.zeDeviceGetMemoryProperties(device, &count, props.data()),
          "zeDeviceGetMemoryProperties", "xpu: reading a device's memory");
  }
  uint64_t total = 0;
  for (uint32_t i = 0; i < count && i < props.size(); ++i) total += props[i].totalSize;
  return total;
}

/// The ordinal of the first command queue group that runs compute; throws when there is none.
uint32_t compute_ordinal_of(const ZeApi& ze, ze_device_handle_t device, const std::string& name) {
  uint32_t count = 0;
  check(ze.zeDeviceGetCommandQueueGroupProperties(device, &count, nullptr),
        "zeDeviceGetCommandQueueGroupProperties", "xpu: reading the queues of " + name);
  std::vector<ze_command_queue_group_properties_t> groups(count);
  for (auto& g : groups) g.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  if (count > 0) {
    check(ze.zeDeviceGetCommandQueueGroupProperties(device, &count, groups.data()),
          "zeDeviceGetCommandQueueGroupProperties", "xpu: reading the queues of " + name);
  }
  for (uint32_t i = 0; i < count && i < groups.size(); ++i) {
    if ((groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) != 0) return i;
  }
  throw ZeError(KF_UNAVAILABLE, "xpu: the GPU '" + name + "' has no command queue group for "
                                "compute (" + std::to_string(count) + " groups)");
}

void read_compute_and_module(const ZeApi& ze, DeviceInfo& info) {
  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  check(ze.zeDeviceGetComputeProperties(info.handle, &compute), "zeDeviceGetComputeProperties",
        "xpu: reading the compute limits of " + info.name);
  if (compute.maxTotalGroupSize > 0) info.caps.max_work_group = compute.maxTotalGroupSize;
  info.caps.local_memory = compute.maxSharedLocalMemory;
  ze_device_module_properties_t module{};
  module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  check(ze.zeDeviceGetModuleProperties(info.handle, &module), "zeDeviceGetModuleProperties",
        "xpu: reading the module support of " + info.name);
  info.spirv_version = module.spirvVersionSupported;
  info.caps.fp64 = (module.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0;
  info.fp16 = (module.flags & ZE_DEVICE_MODULE_FLAG_FP16) != 0;
}

/// The device's description, or false when it is not a GPU.
bool gpu_info(const ZeApi& ze, ze_device_handle_t handle, size_t driver, DeviceInfo* out) {
  ze_device_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;  // timerResolution in nanoseconds
  check(ze.zeDeviceGetProperties(handle, &props), "zeDeviceGetProperties",
        "xpu: reading a device's properties");
  if (props.type != ZE_DEVICE_TYPE_GPU) return false;
  DeviceInfo info;
  info.handle = handle;
  info.driver = driver;
  info.name.assign(props.name, strnlen(props.name, sizeof(props.name)));
  info.device_id = props.deviceId;
  info.compute_units = static_cast<int32_t>(props.numSlices * props.numSubslicesPerSlice *
                                            props.numEUsPerSubslice);
  info.max_alloc = props.maxMemAllocSize;
  info.timer_ns = props.timerResolution > 0 ? props.timerResolution : 1;
  info.timestamp_bits = props.timestampValidBits > 0 && props.timestampValidBits <= 64
                            ? props.timestampValidBits
                            : 64;
  info.total_memory = memory_of(ze, handle);
  read_compute_and_module(ze, info);
  info.compute_ordinal = compute_ordinal_of(ze, handle, info.name);
  *out = std::move(info);
  return true;
}

void init_driver(const ZeApi& ze) {
  const ze_result_t r = ze.zeInit(ZE_INIT_FLAG_GPU_ONLY);
  if (r != ZE_RESULT_SUCCESS) {
    throw ZeError(KF_UNAVAILABLE, "xpu: " + ze_failure("zeInit", r));
  }
}

std::string device_list(const Discovery& d) {
  std::string text;
  for (size_t i = 0; i < d.devices.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(i) + ": " + d.devices[i].name;
  }
  return text;
}

}  // namespace

std::string driver_version_text(uint32_t version) {
  char text[32];
  std::snprintf(text, sizeof(text), "%u.%u.%u", version >> 24, (version >> 16) & 0xffu,
                version & 0xffffu);
  return text;
}

std::vector<size_t> parse_device_filter(const char* filter, size_t count) {
  std::vector<size_t> kept;
  if (filter == nullptr || *filter == '\0') {
    for (size_t i = 0; i < count; ++i) kept.push_back(i);
    return kept;
  }
  const std::string text(filter);
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, end - pos);
    char* stop = nullptr;
    const unsigned long index = std::strtoul(item.c_str(), &stop, 10);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
        stop == item.c_str() || index >= count) {
      throw ZeError(KF_UNAVAILABLE,
                    "xpu: KERNFORGE_XPU_DEVICE='" + text + "' names no device here ('" + item +
                        "' is not one of the " + std::to_string(count) +
                        " GPU indices); give a comma-separated list of indices, or unset it");
    }
    bool seen = false;
    for (size_t k : kept) seen = seen || k == index;
    if (!seen) kept.push_back(index);
    pos = end + 1;
  }
  return kept;
}

Discovery discover(const ZeApi& ze, const char* filter) {
  init_driver(ze);
  const std::vector<ze_driver_handle_t> drivers = drivers_of(ze);
  if (drivers.empty()) {
    throw ZeError(KF_UNAVAILABLE, "xpu: zeInit succeeded but there is no Level Zero GPU driver "
                                  "(install Intel's compute runtime, intel-level-zero-gpu)");
  }
  Discovery all;
  for (ze_driver_handle_t driver : drivers) {
    const size_t driver_index = all.drivers.size();
    all.drivers.push_back(driver_info(ze, driver));
    for (ze_device_handle_t handle : devices_of(ze, driver)) {
      DeviceInfo info;
      if (gpu_info(ze, handle, driver_index, &info)) all.devices.push_back(std::move(info));
    }
  }
  if (all.devices.empty()) {
    throw ZeError(KF_UNAVAILABLE, "xpu: no GPU device: " + std::to_string(drivers.size()) +
                                      " Level Zero driver(s) found, none with a GPU");
  }
  std::vector<size_t> chosen;
  try {
    chosen = parse_device_filter(filter, all.devices.size());
  } catch (const ZeError& e) {
    throw ZeError(e.status(), std::string(e.what()) + " (the GPUs: " + device_list(all) + ")");
  }
  Discovery kept;
  std::vector<size_t> driver_map(all.drivers.size(), SIZE_MAX);
  for (size_t index : chosen) {
    DeviceInfo info = all.devices[index];
    if (driver_map[info.driver] == SIZE_MAX) {
      driver_map[info.driver] = kept.drivers.size();
      kept.drivers.push_back(all.drivers[info.driver]);
    }
    info.driver = driver_map[info.driver];
    kept.devices.push_back(std::move(info));
  }
  return kept;
}

}  // namespace kf::xpu
