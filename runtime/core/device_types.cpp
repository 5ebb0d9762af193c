#include "core/device_types.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "core/device_type_hint.hpp"
#include "core/error.hpp"
#include "core/first_use.hpp"

namespace kf {
namespace {

struct Names {
  std::atomic<const char*> by_type[kMaxDeviceType] = {};
  std::mutex mutex;
  int32_t next_dynamic = KF_DEVICE_DYNAMIC_BASE;
  Names() {
    by_type[KF_DEVICE_CPU] = "cpu";
    by_type[KF_DEVICE_CUDA] = "cuda";
    by_type[KF_DEVICE_ROCM] = "rocm";
    by_type[KF_DEVICE_XPU] = "xpu";
  }
};

Names& names() {
  static Names n;
  return n;
}

}  // namespace

int32_t device_type_from_name(const std::string& name) noexcept {
  Names& n = names();
  for (int32_t t = 1; t < kMaxDeviceType; ++t) {
    const char* s = n.by_type[t].load(std::memory_order_acquire);
    if (s != nullptr && name == s) return t;
  }
  return KF_DEVICE_NONE;
}

const char* device_type_name(int32_t type) noexcept {
  if (type <= 0 || type >= kMaxDeviceType) return nullptr;
  return names().by_type[type].load(std::memory_order_acquire);
}

int32_t register_device_type(const std::string& name) {
  Names& n = names();
  std::lock_guard<std::mutex> lock(n.mutex);
  if (int32_t t = device_type_from_name(name); t != KF_DEVICE_NONE) return t;
  if (n.next_dynamic >= kMaxDeviceType) {
    fail(KF_OUT_OF_RANGE, "too many device types: cannot register '{}'", name);
  }
  // The name lives for the life of the process, like the plugin that brought it.
  char* copy = strdup(name.c_str());
  if (copy == nullptr) throw std::bad_alloc();
  n.by_type[n.next_dynamic].store(copy, std::memory_order_release);
  return n.next_dynamic++;
}

std::string device_string(kf_device_t device) {
  const char* name = device_type_name(device.type);
  std::string s = name != nullptr ? name : fmt::format("device type {}", device.type);
  if (device.type != KF_DEVICE_CPU || device.index != 0) s += fmt::format(":{}", device.index);
  return s;
}

kf_device_t parse_device(const char* text) {
  if (text == nullptr) fail(KF_INVALID_ARGUMENT, "kf_device_parse: text must not be NULL");
  std::string s(text);
  const size_t colon = s.find(':');
  const std::string type_name = s.substr(0, colon);
  int32_t type = device_type_from_name(type_name);
  if (type == KF_DEVICE_NONE && deferred_pending()) {
    start_deferred_backends();  // a plugin waiting for its first use may bring the type
    type = device_type_from_name(type_name);
  }
  if (type == KF_DEVICE_NONE) {
    const std::string hint = device_type_hint(type_name);
    fail(KF_INVALID_ARGUMENT,
         "unknown device '{}': expected a device type name (cpu, cuda, rocm, xpu or one a "
         "loaded plugin brings) optionally followed by ':<index>'{}{}", s,
         hint.empty() ? "" : "; ", hint);
  }
  kf_device_t d{type, 0};
  if (colon != std::string::npos) {
    const std::string idx = s.substr(colon + 1);
    const bool digits = !idx.empty() && idx.size() < 9 &&
                        std::all_of(idx.begin(), idx.end(),
                                    [](unsigned char c) { return std::isdigit(c) != 0; });
    if (!digits) {
      fail(KF_INVALID_ARGUMENT, "bad device index '{}' in '{}': expected a non-negative integer",
           idx, s);
    }
    d.index = std::atoi(idx.c_str());
  }
  return d;
}

}  // namespace kf
