// Device type numbers and names. Built-in types use DLPack's numbers (cpu 1, cuda 2, rocm 10,
// xpu 14); a plugin that brings a new device type name gets a number >= KF_DEVICE_DYNAMIC_BASE
// when it loads. Lookups are lock-free; registration takes a lock.
#pragma once

#include <cstdint>
#include <string>

#include "kernforge/types.h"

namespace kf {

constexpr int32_t kMaxDeviceType = 128;

/// The number of a device type name, or KF_DEVICE_NONE when unknown.
int32_t device_type_from_name(const std::string& name) noexcept;

/// The name of a device type number, or nullptr when unknown.
const char* device_type_name(int32_t type) noexcept;

/// The number for `name`, assigning a dynamic one for a new name. Throws when full.
int32_t register_device_type(const std::string& name);

/// Parses "cpu", "cuda:1", ...; throws KF_INVALID_ARGUMENT naming what is wrong.
kf_device_t parse_device(const char* text);

/// "cpu", "cuda:1", ... ("device type 77" for unknown numbers).
std::string device_string(kf_device_t device);

inline bool operator==(kf_device_t a, kf_device_t b) noexcept {
  return a.type == b.type && a.index == b.index;
}
inline bool operator!=(kf_device_t a, kf_device_t b) noexcept { return !(a == b); }

}  // namespace kf
