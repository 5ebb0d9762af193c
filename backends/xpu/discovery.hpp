// discovery.hpp — the Level Zero drivers and GPU devices the backend serves, found at init.
//
// discover() calls zeInit (GPU drivers only), then, per driver, zeDeviceGet and the property
// queries; every GPU device of every driver becomes one kernforge device, in driver order, then
// device order. KERNFORGE_XPU_DEVICE (read by the caller and passed as `filter`) may keep only
// some of them: a comma-separated list of those indices ("1", "0,2").
//
// Errors (thrown as ZeError): zeInit failing (KF_UNAVAILABLE with the ze_result_t's name and a
// plain reason), no driver or no GPU device (KF_UNAVAILABLE), a device without a compute queue
// group (KF_UNAVAILABLE), a filter that names no device (KF_UNAVAILABLE, naming the devices
// there are), and any failed query (its status).
//
// Plain values: discover() creates nothing that must be destroyed.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "clkernels/device.hpp"
#include "ze_api.hpp"

namespace kf::xpu {

struct DriverInfo {
  ze_driver_handle_t handle = nullptr;
  uint32_t driver_version = 0;     // ze_driver_properties_t.driverVersion
  ze_api_version_t api_version{};  // ZE_MAKE_VERSION(major, minor)
};

struct DeviceInfo {
  ze_device_handle_t handle = nullptr;
  size_t driver = 0;               // index into Discovery::drivers
  std::string name;
  uint32_t device_id = 0;          // PCI device id
  uint64_t total_memory = 0;       // bytes, summed over the device's memory ordinals
  int32_t compute_units = 0;       // execution units: slices x sub-slices x EUs per sub-slice
  uint64_t max_alloc = 0;          // maxMemAllocSize
  uint32_t compute_ordinal = 0;    // the command queue group with compute
  uint64_t timer_ns = 1;           // nanoseconds per global timestamp tick
  uint32_t timestamp_bits = 64;    // valid bits of a global timestamp
  uint32_t spirv_version = 0;      // ZE_MAKE_VERSION; 0 = no SPIR-V
  bool fp16 = false;
  kf::clk::Capabilities caps;      // fp64, work-group size, local memory
};

struct Discovery {
  std::vector<DriverInfo> drivers;  // only the drivers that have a device kept
  std::vector<DeviceInfo> devices;
};

/// Finds the drivers and GPU devices (see the top of the file). `filter` may be null or "".
Discovery discover(const ZeApi& ze, const char* filter);

/// The device indices a KERNFORGE_XPU_DEVICE value keeps out of `count` ("" keeps all).
/// Throws ZeError(KF_UNAVAILABLE) for an index that is not there or text that is not a list of
/// indices.
std::vector<size_t> parse_device_filter(const char* filter, size_t count);

/// "1.3.26241": Intel's encoding of driverVersion (major.minor.build in 8.8.16 bits).
std::string driver_version_text(uint32_t version);

}  // namespace kf::xpu
